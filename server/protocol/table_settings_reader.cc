#include "server/protocol/table_settings_reader.h"

#include "engine/base/messages.h"
#include "engine/model/json_types.h"

namespace dynapage {

namespace {
// A structure member: nullptr when absent, SerializationException when not an object.
Status GetObject(const RequestReader& r, const char* name, const rapidjson::Value** out) {
  *out = r.Get(name);
  if (*out) DP_RETURN_IF_ERROR(CheckJsonObject(**out));
  return Status::OK();
}

std::string Join(const std::string& path, const char* member) { return path.empty() ? member : path + "." + member; }

// SSESpecification's members as sent; present is false without one.
struct SseMembers {
  bool present = false;
  std::optional<bool> enabled;
  std::optional<std::string> type, key;
};

Status ReadSseMembers(const RequestReader& r, SseMembers* out) {
  const rapidjson::Value* sse = nullptr;
  DP_RETURN_IF_ERROR(GetObject(r, "SSESpecification", &sse));
  if (!sse) return Status::OK();
  RequestReader s(*sse);
  out->present = true;
  DP_RETURN_IF_ERROR(s.GetBoolean("Enabled", &out->enabled));
  DP_RETURN_IF_ERROR(s.GetString("SSEType", &out->type));
  return s.GetString("KMSMasterKeyId", &out->key);
}
}  // namespace

Status ReadCapacitySettings(const RequestReader& r, const std::string& path, CapacitySettingsInput* out,
                            ConstraintErrors* errors) {
  const rapidjson::Value *on_demand = nullptr, *warm = nullptr;
  DP_RETURN_IF_ERROR(GetObject(r, "OnDemandThroughput", &on_demand));
  DP_RETURN_IF_ERROR(GetObject(r, "WarmThroughput", &warm));
  if (on_demand) {
    RequestReader o(*on_demand);
    OnDemandThroughputInput input;
    DP_RETURN_IF_ERROR(o.GetInteger("MaxReadRequestUnits", &input.max_read_request_units));
    DP_RETURN_IF_ERROR(o.GetInteger("MaxWriteRequestUnits", &input.max_write_request_units));
    out->on_demand = input;
  }
  if (warm) {
    RequestReader o(*warm);
    WarmThroughputInput input;
    DP_RETURN_IF_ERROR(o.GetInteger("ReadUnitsPerSecond", &input.read_units_per_second));
    DP_RETURN_IF_ERROR(o.GetInteger("WriteUnitsPerSecond", &input.write_units_per_second));
    const std::string at = Join(path, "warmThroughput");
    errors->CheckMin(input.read_units_per_second, at + ".readUnitsPerSecond", 1);
    errors->CheckMin(input.write_units_per_second, at + ".writeUnitsPerSecond", 1);
    out->warm = input;
  }
  return Status::OK();
}

Status ReadTableSettings(const RequestReader& r, TableSettingsInput* out, ConstraintErrors* errors) {
  DP_RETURN_IF_ERROR(r.GetString("TableClass", &out->table_class));
  SseMembers sse;
  DP_RETURN_IF_ERROR(ReadSseMembers(r, &sse));
  // Enabled true or SSEType KMS (AES256 is refused by CheckSseSpecification) means a KMS key; {} or Enabled false,
  // the AWS owned key.
  if (sse.present) out->sse = SseSettingInput{sse.enabled.value_or(sse.type.has_value()), sse.key.value_or("")};
  return ReadCapacitySettings(r, "", &out->capacity, errors);
}

Status CheckSseSpecification(const RequestReader& r) {
  SseMembers sse;
  DP_RETURN_IF_ERROR(ReadSseMembers(r, &sse));
  if (sse.type && *sse.type == "AES256") {
    return Status::Validation(std::string(kInvalidParameterPrefix) + "Unsupported SSEType: AES256");
  }
  if (sse.enabled && !*sse.enabled && (sse.type || sse.key)) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "SSEType and KMSMasterKeyId can only be specified when SSE is enabled");
  }
  if (sse.key && !sse.type && !sse.enabled) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "KMSMasterKeyId can only be specified when SSEType is KMS");
  }
  return Status::OK();
}

}  // namespace dynapage
