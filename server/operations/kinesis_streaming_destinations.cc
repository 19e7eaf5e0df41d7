// EnableKinesisStreamingDestination, DisableKinesisStreamingDestination, UpdateKinesisStreamingDestination and
// DescribeKinesisStreamingDestination: a table's Kinesis destinations, kept and reported, nothing ever sent
// (engine/write/kinesis_destinations.h).

#include <functional>

#include "engine/model/json_types.h"
#include "engine/write/kinesis_destinations.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
// TableName, StreamArn, and the precision of the configuration member (config: its name, nullptr for none).
Status ReadDestinationRequest(const RequestReader& r, const char* config, const char* config_path,
                              std::optional<std::string>* table, std::optional<std::string>* stream_arn,
                              std::optional<std::string>* precision, bool* config_present, ConstraintErrors* errors) {
  DP_RETURN_IF_ERROR(r.GetString("TableName", table));
  DP_RETURN_IF_ERROR(r.GetString("StreamArn", stream_arn));
  *config_present = false;
  if (config) {
    if (const rapidjson::Value* c = r.Get(config)) {
      DP_RETURN_IF_ERROR(CheckJsonObject(*c));
      *config_present = true;
      DP_RETURN_IF_ERROR(RequestReader(*c).GetString("ApproximateCreationDateTimePrecision", precision));
      errors->CheckEnum(*precision, std::string(config_path) + ".approximateCreationDateTimePrecision",
                        {"MILLISECOND", "MICROSECOND"});
    }
  }
  errors->CheckTableNameOrArn(*table, "tableName");
  if (!*stream_arn) errors->AddNull("streamArn");
  return errors->ToStatus();
}

// The answer of Enable, Disable and Update: the destination and the status the change starts.
void WriteDestinationAnswer(const std::string& table, const KinesisDestinationView& v, const char* config,
                            JsonWriter* w) {
  w->StartObject();
  w->Key("TableName");
  w->String(table);
  w->Key("StreamArn");
  w->String(v.destination.stream_arn);
  w->Key("DestinationStatus");
  w->String(v.status);
  if (!v.destination.precision.empty()) {
    w->Key(config);
    w->StartObject();
    w->Key("ApproximateCreationDateTimePrecision");
    w->String(v.destination.precision);
    w->EndObject();
  }
  w->EndObject();
}
}  // namespace

namespace {
using DestinationAction = std::function<Status(const std::string& table, const std::string& stream_arn,
                                               const std::string& precision, KinesisDestinationView* view)>;

// Enable and Disable: the same request (Disable's configuration is accepted and unused) and the same answer.
Status HandleEnableOrDisable(OperationContext& ctx, const DestinationAction& action) {
  std::optional<std::string> table, stream_arn, precision;
  bool config_present = false;
  ConstraintErrors errors;
  DP_RETURN_IF_ERROR(ReadDestinationRequest(RequestReader(ctx.request), "EnableKinesisStreamingConfiguration",
                                            "enableKinesisStreamingConfiguration", &table, &stream_arn, &precision,
                                            &config_present, &errors));
  KinesisDestinationView v;
  DP_RETURN_IF_ERROR(action(*table, *stream_arn, precision.value_or(""), &v));
  WriteDestinationAnswer(*table, v, "EnableKinesisStreamingConfiguration", &ctx.response);
  return Status::OK();
}
}  // namespace

Status HandleEnableKinesisStreamingDestination(OperationContext& ctx) {
  return HandleEnableOrDisable(ctx, [&](const std::string& table, const std::string& stream_arn,
                                        const std::string& precision, KinesisDestinationView* view) {
    return EnableKinesisStreamingDestination(ctx.db.writes(), ctx.context, table, stream_arn, precision, view);
  });
}

Status HandleDisableKinesisStreamingDestination(OperationContext& ctx) {
  return HandleEnableOrDisable(ctx, [&](const std::string& table, const std::string& stream_arn, const std::string&,
                                        KinesisDestinationView* view) {
    return DisableKinesisStreamingDestination(ctx.db.writes(), ctx.context, table, stream_arn, view);
  });
}

Status HandleUpdateKinesisStreamingDestination(OperationContext& ctx) {
  std::optional<std::string> table, stream_arn, precision;
  bool config_present = false;
  ConstraintErrors errors;
  DP_RETURN_IF_ERROR(ReadDestinationRequest(RequestReader(ctx.request), "UpdateKinesisStreamingConfiguration",
                                            "updateKinesisStreamingConfiguration", &table, &stream_arn, &precision,
                                            &config_present, &errors));
  if (!precision) {
    return Status::Validation(
        "Streaming destination cannot be updated with given parameters: UpdateKinesisStreamingConfiguration cannot be "
        "null or contain only null values");
  }
  KinesisDestinationView v;
  DP_RETURN_IF_ERROR(
      UpdateKinesisStreamingDestination(ctx.db.writes(), ctx.context, *table, *stream_arn, *precision, &v));
  WriteDestinationAnswer(*table, v, "UpdateKinesisStreamingConfiguration", &ctx.response);
  return Status::OK();
}

Status HandleDescribeKinesisStreamingDestination(OperationContext& ctx) {
  std::string table;
  DP_RETURN_IF_ERROR(ReadTableNameOnly(RequestReader(ctx.request), &table));
  std::vector<KinesisDestinationView> views;
  DP_RETURN_IF_ERROR(DescribeKinesisStreamingDestination(ctx.db.catalog(), ctx.context, table, &views));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("TableName");
  w.String(table);
  w.Key("KinesisDataStreamDestinations");
  w.StartArray();
  for (const auto& v : views) {
    w.StartObject();
    w.Key("StreamArn");
    w.String(v.destination.stream_arn);
    w.Key("DestinationStatus");
    w.String(v.status);
    if (!v.destination.precision.empty()) {
      w.Key("ApproximateCreationDateTimePrecision");
      w.String(v.destination.precision);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
