#include "server/protocol/auto_scaling_json.h"

#include "engine/base/messages.h"

namespace dynapage {

namespace {
Status ObjectOrError(const rapidjson::Value* v) {
  if (!v || v->IsObject()) return Status::OK();
  return Status::Serialization(v->IsArray() ? "Start of list found where not expected" : "Unexpected field type");
}
}  // namespace

Status ReadAutoScalingUpdate(const RequestReader& r, const char* member, const std::string& path,
                             const AutoScalingSettings& current, const std::string& default_policy,
                             std::optional<AutoScalingSettings>* out, ConstraintErrors* errors) {
  out->reset();
  const rapidjson::Value* value = r.Get(member);
  DP_RETURN_IF_ERROR(ObjectOrError(value));
  if (!value) return Status::OK();
  RequestReader u(*value);
  std::optional<int64_t> min, max;
  std::optional<bool> disabled;
  std::optional<std::string> role;
  DP_RETURN_IF_ERROR(u.GetInteger("MinimumUnits", &min));
  DP_RETURN_IF_ERROR(u.GetInteger("MaximumUnits", &max));
  DP_RETURN_IF_ERROR(u.GetBoolean("AutoScalingDisabled", &disabled));
  DP_RETURN_IF_ERROR(u.GetString("AutoScalingRoleArn", &role));
  errors->CheckMin(min, path + ".minimumUnits", 1);
  errors->CheckMin(max, path + ".maximumUnits", 1);
  AutoScalingSettings s = current;
  s.configured = true;
  const rapidjson::Value* policy = u.Get("ScalingPolicyUpdate");
  DP_RETURN_IF_ERROR(ObjectOrError(policy));
  if (policy) {
    RequestReader p(*policy);
    std::optional<std::string> name;
    DP_RETURN_IF_ERROR(p.GetString("PolicyName", &name));
    const rapidjson::Value* config = p.Get("TargetTrackingScalingPolicyConfiguration");
    DP_RETURN_IF_ERROR(ObjectOrError(config));
    if (!config) {
      errors->AddNull(path + ".scalingPolicyUpdate.targetTrackingScalingPolicyConfiguration");
    } else {
      RequestReader c(*config);
      std::optional<bool> disable_scale_in;
      std::optional<int64_t> scale_in, scale_out;
      const rapidjson::Value* target = c.Get("TargetValue");
      if (!target) {
        errors->AddNull(path + ".scalingPolicyUpdate.targetTrackingScalingPolicyConfiguration.targetValue");
      } else if (!target->IsNumber()) {
        return Status::Serialization("Unexpected field type");
      } else {
        s.target_value = target->GetDouble();
      }
      DP_RETURN_IF_ERROR(c.GetBoolean("DisableScaleIn", &disable_scale_in));
      DP_RETURN_IF_ERROR(c.GetInteger("ScaleInCooldown", &scale_in));
      DP_RETURN_IF_ERROR(c.GetInteger("ScaleOutCooldown", &scale_out));
      s.disable_scale_in = disable_scale_in.value_or(false);
      s.scale_in_cooldown = scale_in.value_or(0);
      s.scale_out_cooldown = scale_out.value_or(0);
    }
    s.policy_name = name.value_or(default_policy);
    s.disabled = false;
  }
  if (min) s.minimum_units = *min;
  if (max) s.maximum_units = *max;
  if (role) s.role_arn = *role;
  if (disabled) s.disabled = *disabled;
  if (!s.disabled && s.policy_name.empty() && !policy) {
    if (min || max) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "Auto scaling MinimumUnits and MaximumUnits need a ScalingPolicyUpdate");
    }
  }
  if (s.minimum_units > 0 && s.maximum_units > 0 && s.minimum_units > s.maximum_units) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Auto scaling MinimumUnits must not be greater than MaximumUnits");
  }
  *out = s;
  return Status::OK();
}

void WriteAutoScalingDescription(const AutoScalingSettings& s, JsonWriter* w) {
  w->StartObject();
  if (s.configured && s.minimum_units > 0) {
    w->Key("MinimumUnits");
    w->Int64(s.minimum_units);
  }
  if (s.configured && s.maximum_units > 0) {
    w->Key("MaximumUnits");
    w->Int64(s.maximum_units);
  }
  w->Key("AutoScalingDisabled");
  w->Bool(!s.configured || s.disabled);
  if (!s.role_arn.empty()) {
    w->Key("AutoScalingRoleArn");
    w->String(s.role_arn);
  }
  w->Key("ScalingPolicies");
  w->StartArray();
  if (s.configured && !s.policy_name.empty()) {
    w->StartObject();
    w->Key("PolicyName");
    w->String(s.policy_name);
    w->Key("TargetTrackingScalingPolicyConfiguration");
    w->StartObject();
    w->Key("DisableScaleIn");
    w->Bool(s.disable_scale_in);
    w->Key("ScaleInCooldown");
    w->Int64(s.scale_in_cooldown);
    w->Key("ScaleOutCooldown");
    w->Int64(s.scale_out_cooldown);
    w->Key("TargetValue");
    w->Double(s.target_value);
    w->EndObject();
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

void WriteTableAutoScalingDescription(const TableDefinition& t, JsonWriter* w) {
  const GlobalTableMembership& m = t.global;
  w->StartObject();
  w->Key("TableName");
  w->String(t.name);
  w->Key("TableStatus");
  w->String("ACTIVE");
  w->Key("Replicas");
  w->StartArray();
  for (const ReplicaMember& r : m.replicas) {
    w->StartObject();
    w->Key("RegionName");
    w->String(r.region);
    w->Key("GlobalSecondaryIndexes");
    w->StartArray();
    for (const IndexDefinition& index : t.indexes) {
      if (!index.global) continue;
      w->StartObject();
      w->Key("IndexName");
      w->String(index.name);
      w->Key("IndexStatus");
      w->String("ACTIVE");
      auto read = r.index_read_scaling.find(index.name);
      w->Key("ProvisionedReadCapacityAutoScalingSettings");
      WriteAutoScalingDescription(read == r.index_read_scaling.end() ? AutoScalingSettings() : read->second, w);
      auto write = m.index_write_scaling.find(index.name);
      w->Key("ProvisionedWriteCapacityAutoScalingSettings");
      WriteAutoScalingDescription(write == m.index_write_scaling.end() ? AutoScalingSettings() : write->second, w);
      w->EndObject();
    }
    w->EndArray();
    w->Key("ReplicaProvisionedReadCapacityAutoScalingSettings");
    WriteAutoScalingDescription(r.read_scaling, w);
    w->Key("ReplicaProvisionedWriteCapacityAutoScalingSettings");
    WriteAutoScalingDescription(m.write_scaling, w);
    w->Key("ReplicaStatus");
    w->String("ACTIVE");
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

void WriteTableAutoScalingResponse(const TableDefinition& table, JsonWriter* w) {
  w->StartObject();
  w->Key("TableAutoScalingDescription");
  WriteTableAutoScalingDescription(table, w);
  w->EndObject();
}

}  // namespace dynapage
