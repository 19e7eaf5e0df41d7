#include "engine/write/table_settings.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <tuple>

#include "engine/base/messages.h"

namespace dynapage {

namespace {

// FNV-1a, 64 bits: a stable hash of text (the same in every build and run).
uint64_t StableHash(const std::string& text, uint64_t seed) {
  uint64_t h = 14695981039346656037ULL ^ seed;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string KmsKeyArn(const RequestContext& ctx, const std::string& key_id) {
  return "arn:aws:kms:" + ctx.caller.region + ":" + ctx.caller.account_id + ":key/" + key_id;
}

Status ApplySse(const RequestContext& ctx, const SseSettingInput& sse, TableSettings* settings) {
  settings->sse_kms = sse.kms;
  if (!sse.kms) {
    settings->kms_master_key_arn.clear();
  } else if (sse.kms_master_key_id.empty()) {
    settings->kms_master_key_arn = DefaultKmsKeyArn(ctx);
  } else if (sse.kms_master_key_id.rfind("arn:", 0) == 0) {
    settings->kms_master_key_arn = sse.kms_master_key_id;  // a key ARN (or an alias ARN), kept as given
  } else {
    settings->kms_master_key_arn = KmsKeyArn(ctx, sse.kms_master_key_id);  // a key id or alias/…
  }
  settings->sse_updated_time = ctx.clock->NowSeconds();
  return Status::OK();
}

// Merges input into *limits: each member sent replaces that limit (-1 clears it).
Status ApplyOnDemand(const OnDemandThroughputInput& input, bool pay_per_request, OnDemandThroughput* limits) {
  for (auto [units, what] : {std::make_pair(input.max_read_request_units, "MaxReadRequestUnits"),
                             std::make_pair(input.max_write_request_units, "MaxWriteRequestUnits")}) {
    if (units && *units != -1 && *units < 1) {
      return Status::Validation(std::string("Requested ") + what + " for OnDemandThroughput is outside of valid range");
    }
  }
  if (!pay_per_request) {
    const char* what = input.max_write_request_units ? "MaxWriteRequestUnits" : "MaxReadRequestUnits";
    return Status::Validation(std::string(kInvalidParameterPrefix) + what +
                              " for OnDemandThroughput cannot be specified when table BillingMode is PROVISIONED.");
  }
  if (input.max_read_request_units) limits->max_read_request_units = *input.max_read_request_units;
  if (input.max_write_request_units) limits->max_write_request_units = *input.max_write_request_units;
  return Status::OK();
}

// Raises *warm to input's units (equal values are accepted; lower ones refused, as DynamoDB cannot cool a table).
// owner: "table" or "index <name>", as the message names it.
Status ApplyWarm(const WarmThroughputInput& input, double now, const std::string& owner, WarmThroughput* warm) {
  for (auto [units, current, what] :
       {std::make_tuple(input.read_units_per_second, warm->read_units_per_second, "ReadUnitsPerSecond"),
        std::make_tuple(input.write_units_per_second, warm->write_units_per_second, "WriteUnitsPerSecond")}) {
    if (units && *units < current) {
      return Status::Validation(std::string(kInvalidParameterPrefix) + "Requested " + what +
                                " for WarmThroughput for " + owner +
                                " is lower than current WarmThroughput, decreasing WarmThroughput is not supported");
    }
  }
  if (input.read_units_per_second) warm->read_units_per_second = *input.read_units_per_second;
  if (input.write_units_per_second) warm->write_units_per_second = *input.write_units_per_second;
  warm->raised_time = now;
  return Status::OK();
}

void RaiseTo(int64_t read, int64_t write, WarmThroughput* warm) {
  warm->read_units_per_second = std::max(warm->read_units_per_second, read);
  warm->write_units_per_second = std::max(warm->write_units_per_second, write);
}

Status ApplyCapacity(double now, const CapacitySettingsInput& input, bool pay_per_request, const std::string& owner,
                     CapacitySettings* settings) {
  if (input.on_demand) DP_RETURN_IF_ERROR(ApplyOnDemand(*input.on_demand, pay_per_request, &settings->on_demand));
  if (input.warm) DP_RETURN_IF_ERROR(ApplyWarm(*input.warm, now, owner, &settings->warm));
  return Status::OK();
}
}  // namespace

std::string DefaultKmsKeyArn(const RequestContext& ctx) {
  const std::string scope = ctx.caller.account_id + "/" + ctx.caller.region + "/aws/dynamodb";
  uint64_t high = StableHash(scope, 1), low = StableHash(scope, 2);
  char uuid[37];
  std::snprintf(uuid, sizeof uuid, "%08" PRIx64 "-%04" PRIx64 "-4%03" PRIx64 "-a%03" PRIx64 "-%012" PRIx64, high >> 32,
                (high >> 16) & 0xffff, high & 0xfff, (low >> 48) & 0xfff, low & uint64_t{0xffffffffffff});
  return KmsKeyArn(ctx, uuid);
}

bool StillSettling(const RequestContext& ctx, double changed_time) {
  return ctx.transient_status_ms > 0 &&
         (ctx.clock->NowSeconds() - changed_time) * 1000 < static_cast<double>(ctx.transient_status_ms);
}

void RaiseWarmThroughputFloors(TableDefinition* table) {
  auto floor = [&](const ProvisionedThroughput& units, WarmThroughput* warm) {
    if (table->pay_per_request) {
      RaiseTo(kOnDemandWarmReadUnits, kOnDemandWarmWriteUnits, warm);
    } else {
      RaiseTo(units.read_capacity_units, units.write_capacity_units, warm);
    }
  };
  floor(table->throughput, &table->settings.capacity.warm);
  for (auto& index : table->indexes) {
    if (index.global) floor(index.throughput, &index.settings.warm);
  }
}

Status ApplyCreateTableSettings(const RequestContext& ctx, const TableSettingsInput& input,
                                const std::vector<SecondaryIndexInput>& gsis, TableDefinition* table) {
  const double now = ctx.clock->NowSeconds();
  if (input.table_class) {
    table->settings.table_class = *input.table_class;
    table->settings.table_class_updated_time = now;
  }
  if (input.sse) DP_RETURN_IF_ERROR(ApplySse(ctx, *input.sse, &table->settings));
  table->settings.sse_updated_time = 0;  // created so: not a change that settles
  // Warm throughput asked for at creation starts from the floor and may not be below it.
  RaiseWarmThroughputFloors(table);
  DP_RETURN_IF_ERROR(ApplyCapacity(now, input.capacity, table->pay_per_request, "table", &table->settings.capacity));
  for (const auto& gsi : gsis) {
    for (auto& index : table->indexes) {
      if (index.global && index.name == gsi.name)
        DP_RETURN_IF_ERROR(ApplyIndexSettings(now, gsi.settings, *table, &index));
    }
  }
  // Only the request that raises warm throughput shows it UPDATING; creation is not a raise.
  if (!input.capacity.warm) table->settings.capacity.warm.raised_time = 0;
  return Status::OK();
}

Status ApplyUpdateTableSettings(const RequestContext& ctx, const TableSettingsInput& input, TableDefinition* next) {
  const double now = ctx.clock->NowSeconds();
  if (input.table_class) {
    next->settings.table_class = *input.table_class;
    next->settings.table_class_updated_time = now;
  }
  if (input.sse) DP_RETURN_IF_ERROR(ApplySse(ctx, *input.sse, &next->settings));
  return ApplyCapacity(now, input.capacity, next->pay_per_request, "table", &next->settings.capacity);
}

Status ApplyIndexSettings(double now, const CapacitySettingsInput& input, const TableDefinition& table,
                          IndexDefinition* index) {
  return ApplyCapacity(now, input, table.pay_per_request, "index " + index->name, &index->settings);
}

}  // namespace dynapage
