#include "engine/write/kinesis_destinations.h"

#include <algorithm>
#include <functional>
#include <regex>

#include "engine/write/table_settings.h"

namespace dynapage {

namespace {

constexpr char kNotValidState[] = "Table is not in a valid state to enable Kinesis Streaming Destination: ";

KinesisDestinationView View(const RequestContext& ctx, const KinesisDestination& d) {
  KinesisDestinationView view{d, ""};
  const bool settling = StillSettling(ctx, d.updated_time);
  if (d.active) {
    view.status = settling ? (d.updated ? "UPDATING" : "ENABLING") : "ACTIVE";
  } else {
    view.status = settling ? "DISABLING" : "DISABLED";
  }
  return view;
}

using DestinationChange = std::function<Status(const TableDefinition& table, std::vector<KinesisDestination>*)>;

// Checks stream_arn, then runs change on the table's destinations under the writer lock; *view: the destination
// for stream_arn after it.
Status ChangeDestinations(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                          const std::string& stream_arn, const DestinationChange& change, const char* answer_status,
                          KinesisDestinationView* view) {
  DP_RETURN_IF_ERROR(CheckKinesisStreamArn(stream_arn));
  TableDescription before, after;
  DP_RETURN_IF_ERROR(write_path.ChangeTable(
      ctx, table_name,
      [&](const TableDefinition& current, TableDefinition* next) {
        return change(current, &next->settings.kinesis_destinations);
      },
      &before, &after));
  for (const auto& d : after.definition->settings.kinesis_destinations) {
    if (d.stream_arn == stream_arn) *view = {d, answer_status};
  }
  return Status::OK();
}

KinesisDestination* Find(const std::string& stream_arn, std::vector<KinesisDestination>* destinations) {
  auto found = std::find_if(destinations->begin(), destinations->end(),
                            [&](const KinesisDestination& d) { return d.stream_arn == stream_arn; });
  return found == destinations->end() ? nullptr : &*found;
}
}  // namespace

Status CheckKinesisStreamArn(const std::string& arn) {
  static const std::regex kStreamArn(R"(^arn:aws[a-z-]*:kinesis:[a-z0-9-]+:\d{12}:stream/[A-Za-z0-9_.-]{1,128}$)");
  if (arn.size() > 1024 || !std::regex_match(arn, kStreamArn)) {
    return Status::Validation("Invalid StreamArn: " + arn + " is not the ARN of a Kinesis data stream");
  }
  return Status::OK();
}

Status EnableKinesisStreamingDestination(WritePath& write_path, const RequestContext& ctx,
                                         const std::string& table_name, const std::string& stream_arn,
                                         const std::string& precision, KinesisDestinationView* view) {
  const double now = ctx.clock->NowSeconds();
  return ChangeDestinations(
      write_path, ctx, table_name, stream_arn,
      [&](const TableDefinition&, std::vector<KinesisDestination>* destinations) {
        for (const auto& d : *destinations) {
          if (d.active) {
            return Status::Validation(std::string(kNotValidState) +
                                      "Only one streaming destination can be active for a table; the destination " +
                                      d.stream_arn + " is " + (d.stream_arn == stream_arn ? "already " : "") +
                                      "active.");
          }
        }
        KinesisDestination* d = Find(stream_arn, destinations);
        if (!d) {
          destinations->emplace_back();
          d = &destinations->back();
        }
        *d = {stream_arn, true, precision, now, false};
        return Status::OK();
      },
      "ENABLING", view);
}

Status DisableKinesisStreamingDestination(WritePath& write_path, const RequestContext& ctx,
                                          const std::string& table_name, const std::string& stream_arn,
                                          KinesisDestinationView* view) {
  const double now = ctx.clock->NowSeconds();
  return ChangeDestinations(
      write_path, ctx, table_name, stream_arn,
      [&](const TableDefinition&, std::vector<KinesisDestination>* destinations) {
        KinesisDestination* d = Find(stream_arn, destinations);
        if (!d || !d->active || StillSettling(ctx, d->updated_time)) {
          return Status::Validation(std::string(kNotValidState) +
                                    "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.");
        }
        d->active = false;
        d->updated = false;
        d->updated_time = now;
        return Status::OK();
      },
      "DISABLING", view);
}

Status UpdateKinesisStreamingDestination(WritePath& write_path, const RequestContext& ctx,
                                         const std::string& table_name, const std::string& stream_arn,
                                         const std::string& precision, KinesisDestinationView* view) {
  const double now = ctx.clock->NowSeconds();
  return ChangeDestinations(
      write_path, ctx, table_name, stream_arn,
      [&](const TableDefinition& table, std::vector<KinesisDestination>* destinations) {
        KinesisDestination* d = Find(stream_arn, destinations);
        if (!d) {
          return Status::Validation(std::string(kNotValidState) + "No streaming destination with streamArn: " +
                                    stream_arn + " found for table with tableName: " + table.name);
        }
        if (!d->active || StillSettling(ctx, d->updated_time)) {
          return Status::Validation(std::string(kNotValidState) +
                                    "Kinesis streaming is not in ACTIVE state. Updates are only allowed in ACTIVE "
                                    "state.");
        }
        const std::string current = d->precision.empty() ? kDefaultKinesisPrecision : d->precision;
        if (current == precision) {
          return Status::Validation("Invalid Request: Precision is already set to the desired value of " + precision +
                                    " for tableId: " + table.table_id + ", kdsArn: " + stream_arn);
        }
        d->precision = precision;
        d->updated = true;
        d->updated_time = now;
        return Status::OK();
      },
      "UPDATING", view);
}

Status DescribeKinesisStreamingDestination(const Catalog& catalog, const RequestContext& ctx,
                                           const std::string& table_name, std::vector<KinesisDestinationView>* views) {
  auto table = catalog.FindTable(table_name);
  if (!table) return Status::NotFound("Requested resource not found: Table: " + table_name + " not found");
  for (const auto& d : table->settings.kinesis_destinations) views->push_back(View(ctx, d));
  return Status::OK();
}

}  // namespace dynapage
