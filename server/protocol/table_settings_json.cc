#include "server/protocol/table_settings_json.h"

#include "engine/write/table_settings.h"

namespace dynapage {

namespace {
void WriteOnDemand(const OnDemandThroughput& t, JsonWriter* w) {
  if (!t.any_set()) return;
  w->Key("OnDemandThroughput");
  w->StartObject();
  w->Key("MaxReadRequestUnits");
  w->Int64(t.max_read_request_units);
  w->Key("MaxWriteRequestUnits");
  w->Int64(t.max_write_request_units);
  w->EndObject();
}

void WriteWarm(const TableDescription& d, const std::string& key, const WarmThroughput& t, JsonWriter* w) {
  auto status = d.settings_status.find(key);
  if (status != d.settings_status.end() && status->second.empty()) return;  // hidden (CreateTable's answer)
  if (t.read_units_per_second <= 0 && t.write_units_per_second <= 0) return;
  w->Key("WarmThroughput");
  w->StartObject();
  w->Key("ReadUnitsPerSecond");
  w->Int64(t.read_units_per_second);
  w->Key("WriteUnitsPerSecond");
  w->Int64(t.write_units_per_second);
  w->Key("Status");
  w->String(status != d.settings_status.end() ? status->second : "ACTIVE");
  w->EndObject();
}
}  // namespace

void WriteTableSettingsMembers(const TableDescription& d, JsonWriter* w) {
  const TableSettings& s = d.definition->settings;
  if (!s.table_class.empty()) {
    w->Key("TableClassSummary");
    w->StartObject();
    w->Key("TableClass");
    w->String(s.table_class);
    w->Key("LastUpdateDateTime");
    w->Double(s.table_class_updated_time);
    w->EndObject();
  }
  auto sse_status = d.settings_status.find("sse");
  // The AWS owned key shows no SSEDescription, except UPDATING while a change to it settles.
  if (s.sse_kms || sse_status != d.settings_status.end()) {
    w->Key("SSEDescription");
    w->StartObject();
    w->Key("Status");
    w->String(sse_status != d.settings_status.end() ? sse_status->second : "ENABLED");
    if (s.sse_kms) {
      w->Key("SSEType");
      w->String("KMS");
      w->Key("KMSMasterKeyArn");
      w->String(s.kms_master_key_arn);
    }
    w->EndObject();
  }
  WriteOnDemand(s.capacity.on_demand, w);
  WriteWarm(d, "warm", s.capacity.warm, w);
}

void WriteIndexSettingsMembers(const TableDescription& d, const IndexDefinition& index, JsonWriter* w) {
  WriteOnDemand(index.settings.on_demand, w);
  WriteWarm(d, "warm/" + index.name, index.settings.warm, w);
}

void ApplySettingsTransientStatus(const RequestContext& ctx, TableDescription* d) {
  const TableDefinition& t = *d->definition;
  if (t.settings.sse_updated_time > 0 && StillSettling(ctx, t.settings.sse_updated_time)) {
    d->settings_status.emplace("sse", "UPDATING");
  }
  if (t.settings.capacity.warm.raised_time > 0 && StillSettling(ctx, t.settings.capacity.warm.raised_time)) {
    d->settings_status.emplace("warm", "UPDATING");
  }
  for (const auto& index : t.indexes) {
    if (index.settings.warm.raised_time > 0 && StillSettling(ctx, index.settings.warm.raised_time)) {
      d->settings_status.emplace("warm/" + index.name, "UPDATING");
    }
  }
}

}  // namespace dynapage
