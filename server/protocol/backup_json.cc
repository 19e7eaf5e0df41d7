#include "server/protocol/backup_json.h"

#include "engine/model/json_types.h"
#include "server/protocol/table_description_json.h"
#include "server/protocol/table_schema_reader.h"

namespace dynapage {

namespace {
double Seconds(int64_t ms) { return static_cast<double>(ms) / 1000; }

void WriteSourceTableDetails(const BackupRecord& b, JsonWriter* w) {
  const TableDefinition& t = b.table;
  w->Key("SourceTableDetails");
  w->StartObject();
  w->Key("TableName");
  w->String(t.name);
  w->Key("TableId");
  w->String(t.table_id);
  w->Key("TableArn");
  w->String(t.arn);
  w->Key("TableSizeBytes");
  w->Int64(b.size_bytes);
  w->Key("KeySchema");
  WriteKeySchema(t.key, w);
  w->Key("TableCreationDateTime");
  w->Double(t.creation_time);
  w->Key("ProvisionedThroughput");
  w->StartObject();
  w->Key("ReadCapacityUnits");
  w->Int64(t.pay_per_request ? 0 : t.throughput.read_capacity_units);
  w->Key("WriteCapacityUnits");
  w->Int64(t.pay_per_request ? 0 : t.throughput.write_capacity_units);
  w->EndObject();
  const OnDemandThroughput& on_demand = t.settings.capacity.on_demand;
  if (on_demand.any_set()) {
    w->Key("OnDemandThroughput");
    w->StartObject();
    w->Key("MaxReadRequestUnits");
    w->Int64(on_demand.max_read_request_units);
    w->Key("MaxWriteRequestUnits");
    w->Int64(on_demand.max_write_request_units);
    w->EndObject();
  }
  w->Key("ItemCount");
  w->Int64(b.item_count);
  w->Key("BillingMode");
  w->String(t.pay_per_request ? "PAY_PER_REQUEST" : "PROVISIONED");
  w->EndObject();
}

// Members only for the features the table had; a SYSTEM backup records none.
void WriteSourceTableFeatureDetails(const BackupRecord& b, JsonWriter* w) {
  const TableDefinition& t = b.table;
  w->Key("SourceTableFeatureDetails");
  w->StartObject();
  if (!b.system) {
    for (bool global : {false, true}) {
      bool any = false;
      for (const auto& index : t.indexes) any |= index.global == global;
      if (!any) continue;
      w->Key(global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
      w->StartArray();
      for (const auto& index : t.indexes) {
        if (index.global != global) continue;
        w->StartObject();
        w->Key("IndexName");
        w->String(index.name);
        w->Key("KeySchema");
        WriteKeySchema(index.key, w);
        w->Key("Projection");
        WriteProjection(index.projection, index.non_key_attributes, w);
        if (global) {
          w->Key("ProvisionedThroughput");
          w->StartObject();
          w->Key("ReadCapacityUnits");
          w->Int64(t.pay_per_request ? 0 : index.throughput.read_capacity_units);
          w->Key("WriteCapacityUnits");
          w->Int64(t.pay_per_request ? 0 : index.throughput.write_capacity_units);
          w->EndObject();
        }
        w->EndObject();
      }
      w->EndArray();
    }
    if (!t.stream_view_type.empty()) {
      w->Key("StreamDescription");
      w->StartObject();
      w->Key("StreamEnabled");
      w->Bool(true);
      w->Key("StreamViewType");
      w->String(t.stream_view_type);
      w->EndObject();
    }
    if (!t.ttl_attribute.empty()) {
      w->Key("TimeToLiveDescription");
      w->StartObject();
      w->Key("TimeToLiveStatus");
      w->String("ENABLED");
      w->Key("AttributeName");
      w->String(t.ttl_attribute);
      w->EndObject();
    }
    if (t.settings.sse_kms) {
      w->Key("SSEDescription");
      w->StartObject();
      w->Key("Status");
      w->String("ENABLED");
      w->Key("SSEType");
      w->String("KMS");
      w->Key("KMSMasterKeyArn");
      w->String(t.settings.kms_master_key_arn);
      w->EndObject();
    }
  }
  w->EndObject();
}
}  // namespace

const char* BackupStatusOf(const RequestContext& ctx, const BackupRecord& backup) {
  const bool held = ctx.transient_status_ms > 0 &&
                    ctx.clock->NowMillis() - backup.creation_ms < static_cast<int64_t>(ctx.transient_status_ms);
  return held ? "CREATING" : "AVAILABLE";
}

void WriteBackupDetails(const BackupRecord& b, const char* status, JsonWriter* w) {
  w->StartObject();
  w->Key("BackupArn");
  w->String(b.arn);
  w->Key("BackupName");
  w->String(b.name);
  w->Key("BackupSizeBytes");
  w->Int64(b.size_bytes);
  w->Key("BackupStatus");
  w->String(status);
  w->Key("BackupType");
  w->String(b.system ? "SYSTEM" : "USER");
  w->Key("BackupCreationDateTime");
  w->Double(Seconds(b.creation_ms));
  if (b.expiry_ms > 0) {
    w->Key("BackupExpiryDateTime");
    w->Double(Seconds(b.expiry_ms));
  }
  w->EndObject();
}

void WriteBackupDescriptionResponse(const BackupRecord& b, const char* status, JsonWriter* w) {
  w->StartObject();
  w->Key("BackupDescription");
  w->StartObject();
  w->Key("BackupDetails");
  WriteBackupDetails(b, status, w);
  WriteSourceTableDetails(b, w);
  WriteSourceTableFeatureDetails(b, w);
  w->EndObject();
  w->EndObject();
}

void WriteBackupSummary(const BackupRecord& b, const char* status, JsonWriter* w) {
  w->StartObject();
  w->Key("TableName");
  w->String(b.table.name);
  w->Key("TableId");
  w->String(b.table.table_id);
  w->Key("TableArn");
  w->String(b.table.arn);
  w->Key("BackupArn");
  w->String(b.arn);
  w->Key("BackupName");
  w->String(b.name);
  w->Key("BackupCreationDateTime");
  w->Double(Seconds(b.creation_ms));
  if (b.expiry_ms > 0) {
    w->Key("BackupExpiryDateTime");
    w->Double(Seconds(b.expiry_ms));
  }
  w->Key("BackupStatus");
  w->String(status);
  w->Key("BackupType");
  w->String(b.system ? "SYSTEM" : "USER");
  w->Key("BackupSizeBytes");
  w->Int64(b.size_bytes);
  w->EndObject();
}

Status ReadTimestamp(const RequestReader& r, const char* name, std::optional<double>* out) {
  out->reset();
  const rapidjson::Value* v = r.Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonInteger(*v, "Date"));
  *out = v->GetDouble();
  return Status::OK();
}

namespace {
Status ReadIndexOverrides(const RequestReader& r, const char* member, const std::string& path, bool global,
                          std::optional<std::vector<SecondaryIndexInput>>* out, ConstraintErrors* errors) {
  std::vector<const rapidjson::Value*> elements;
  bool present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, member, &elements, &present));
  if (!present) return Status::OK();
  out->emplace();
  for (size_t i = 0; i < elements.size(); i++) {
    SecondaryIndexInput index;
    DP_RETURN_IF_ERROR(ReadSecondaryIndex(RequestReader(*elements[i]), path + "." + std::to_string(i + 1) + ".member",
                                          global, &index, errors));
    (*out)->push_back(std::move(index));
  }
  return Status::OK();
}
}  // namespace

Status ReadRestoreOverrides(const RequestReader& r, RestoreOverrides* out, ConstraintErrors* errors) {
  DP_RETURN_IF_ERROR(r.GetString("BillingModeOverride", &out->billing_mode));
  errors->CheckEnum(out->billing_mode, "billingModeOverride", {"PROVISIONED", "PAY_PER_REQUEST"});
  DP_RETURN_IF_ERROR(
      ReadThroughput(r, "provisionedThroughputOverride", &out->throughput, errors, "ProvisionedThroughputOverride"));
  if (const rapidjson::Value* on_demand = r.Get("OnDemandThroughputOverride")) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*on_demand));
    RequestReader o(*on_demand);
    OnDemandThroughputInput input;
    DP_RETURN_IF_ERROR(o.GetInteger("MaxReadRequestUnits", &input.max_read_request_units));
    DP_RETURN_IF_ERROR(o.GetInteger("MaxWriteRequestUnits", &input.max_write_request_units));
    out->on_demand = input;
  }
  DP_RETURN_IF_ERROR(ReadIndexOverrides(r, "GlobalSecondaryIndexOverride", "globalSecondaryIndexOverride", true,
                                        &out->global_indexes, errors));
  DP_RETURN_IF_ERROR(ReadIndexOverrides(r, "LocalSecondaryIndexOverride", "localSecondaryIndexOverride", false,
                                        &out->local_indexes, errors));
  if (const rapidjson::Value* sse = r.Get("SSESpecificationOverride")) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*sse));
    RequestReader s(*sse);
    std::optional<bool> enabled;
    DP_RETURN_IF_ERROR(s.GetBoolean("Enabled", &enabled));
    DP_RETURN_IF_ERROR(s.GetString("SSEType", &out->sse_type));
    DP_RETURN_IF_ERROR(s.GetString("KMSMasterKeyId", &out->kms_key));
    errors->CheckEnum(out->sse_type, "sSESpecificationOverride.sSEType", {"AES256", "KMS"});
    // Enabled true or SSEType KMS: a KMS key; {} or Enabled false: the AWS owned key.
    out->sse_enabled = enabled.value_or(false) || (out->sse_type && *out->sse_type == "KMS");
  }
  return Status::OK();
}

}  // namespace dynapage
