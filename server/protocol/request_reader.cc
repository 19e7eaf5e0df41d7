#include "server/protocol/request_reader.h"

#include <cmath>
#include <cstring>

#include "engine/base/messages.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/json_types.h"

namespace dynapage {

const EnumValues kReturnConsumedCapacityValues = {"INDEXES", "TOTAL", "NONE"};
const EnumValues kReturnValuesValues = {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"};
const EnumValues kReturnItemCollectionMetricsValues = {"SIZE", "NONE"};

// The first member of that name, as FindMember finds it, but with the name's length known where it is written: an
// operation reads ~20 members, and FindMember(const char*) measured each name and built a value of it first
// (~120 instructions a lookup, ~4% of a Query page).
const rapidjson::Value* RequestReader::Get(std::string_view name) const {
  if (!body_.IsObject()) return nullptr;
  for (auto it = body_.MemberBegin(); it != body_.MemberEnd(); ++it) {
    if (it->name.GetStringLength() == name.size() && std::memcmp(it->name.GetString(), name.data(), name.size()) == 0) {
      return it->value.IsNull() ? nullptr : &it->value;
    }
  }
  return nullptr;
}

Status RequestReader::GetString(std::string_view name, std::optional<std::string>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonString(*v));
  out->emplace(v->GetString(), v->GetStringLength());
  return Status::OK();
}

Status RequestReader::GetInteger(std::string_view name, std::optional<int64_t>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonInteger(*v));
  if (v->IsInt64()) {
    *out = v->GetInt64();
  } else if (v->IsUint64()) {
    *out = INT64_MAX;
  } else {
    double d = std::floor(v->GetDouble());
    *out = d > 9.2e18 ? INT64_MAX : d < -9.2e18 ? INT64_MIN : static_cast<int64_t>(d);
  }
  return Status::OK();
}

Status RequestReader::GetBoolean(std::string_view name, std::optional<bool>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonBoolean(*v));
  *out = v->GetBool();
  return Status::OK();
}

Status RequestReader::GetStringList(std::string_view name, std::optional<std::vector<std::string>>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonList(*v));
  std::vector<std::string> list;
  for (const auto& e : v->GetArray()) {
    if (e.IsNull()) continue;
    DP_RETURN_IF_ERROR(CheckJsonString(e));
    list.emplace_back(e.GetString(), e.GetStringLength());
  }
  *out = std::move(list);
  return Status::OK();
}

Status RequestReader::GetStringMap(std::string_view name,
                                   std::optional<std::map<std::string, std::string>>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonObject(*v));
  std::map<std::string, std::string> map;
  for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m) {
    if (m->value.IsNull()) continue;
    DP_RETURN_IF_ERROR(CheckJsonString(m->value));
    map[std::string(m->name.GetString(), m->name.GetStringLength())] =
        std::string(m->value.GetString(), m->value.GetStringLength());
  }
  *out = std::move(map);
  return Status::OK();
}

Status RequestReader::GetAttributeMap(std::string_view name, std::optional<AttributeMap>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  AttributeMap map;
  DP_RETURN_IF_ERROR(DecodeAttributeMap(*v, &map));
  *out = std::move(map);
  return Status::OK();
}

Status RequestReader::GetExpressionInputs(ExpressionInputs* out) const {
  DP_RETURN_IF_ERROR(GetStringMap("ExpressionAttributeNames", &out->names));
  return GetAttributeMap("ExpressionAttributeValues", &out->values);
}

Status RequestReader::GetLegacyConditions(std::string_view name,
                                          std::optional<std::vector<LegacyCondition>>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonObject(*v));
  std::vector<LegacyCondition> conditions;
  for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m) {
    if (m->value.IsNull()) continue;
    DP_RETURN_IF_ERROR(CheckJsonObject(m->value));
    RequestReader c(m->value);
    LegacyCondition input;
    input.attribute.assign(m->name.GetString(), m->name.GetStringLength());
    std::optional<std::string> op;
    DP_RETURN_IF_ERROR(c.GetString("ComparisonOperator", &op));
    input.comparison_operator = op.value_or("");
    DP_RETURN_IF_ERROR(c.GetBoolean("Exists", &input.exists));
    if (const rapidjson::Value* value = c.Get("Value")) {
      AttributeValue decoded;
      DP_RETURN_IF_ERROR(DecodeAttributeValue(*value, &decoded));
      input.value = std::move(decoded);
    }
    if (const rapidjson::Value* list = c.Get("AttributeValueList")) {
      DP_RETURN_IF_ERROR(CheckJsonList(*list));
      std::vector<AttributeValue> values;
      for (const auto& e : list->GetArray()) {
        if (e.IsNull()) continue;
        AttributeValue decoded;
        DP_RETURN_IF_ERROR(DecodeAttributeValue(e, &decoded));
        values.push_back(std::move(decoded));
      }
      input.values = std::move(values);
      input.has_values = true;
    }
    conditions.push_back(std::move(input));
  }
  *out = std::move(conditions);
  return Status::OK();
}

Status RequestReader::GetAttributeUpdates(std::string_view name,
                                          std::optional<std::vector<AttributeUpdate>>* out) const {
  out->reset();
  const rapidjson::Value* v = Get(name);
  if (!v) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonObject(*v));
  std::vector<AttributeUpdate> updates;
  for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m) {
    if (m->value.IsNull()) continue;
    DP_RETURN_IF_ERROR(CheckJsonObject(m->value));
    RequestReader u(m->value);
    AttributeUpdate update;
    update.attribute.assign(m->name.GetString(), m->name.GetStringLength());
    std::optional<std::string> action;
    DP_RETURN_IF_ERROR(u.GetString("Action", &action));
    update.action = action.value_or("");
    if (const rapidjson::Value* value = u.Get("Value")) {
      AttributeValue decoded;
      DP_RETURN_IF_ERROR(DecodeAttributeValue(*value, &decoded));
      update.value = std::move(decoded);
    }
    updates.push_back(std::move(update));
  }
  *out = std::move(updates);
  return Status::OK();
}

Status ReadTableNameOnly(const RequestReader& r, std::string* table_name) {
  std::optional<std::string> name;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &name));
  ConstraintErrors errors;
  errors.CheckTableNameOrArn(name, "tableName");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  *table_name = std::move(*name);
  return Status::OK();
}

void ConstraintErrors::Add(std::string_view value, std::string_view path, std::string_view rule) {
  std::string text = "Value '";
  text.append(value).append("' at '").append(path).append("' failed to satisfy constraint: ").append(rule);
  AddRaw(std::move(text));
}

void ConstraintErrors::AddUnechoed(std::string_view path, std::string_view rule) {
  std::string text = "Value at '";
  text.append(path).append("' failed to satisfy constraint: ").append(rule);
  AddRaw(std::move(text));
}

void ConstraintErrors::AddNull(std::string_view path) {
  std::string text = "Value null at '";
  text.append(path).append("' failed to satisfy constraint: Member must not be null");
  AddRaw(std::move(text));
}

Status ConstraintErrors::ToStatus() const {
  if (table_name_missing_) {
    return Status::Validation("The parameter 'TableName' is required but was not present in the request");
  }
  if (!sole_error_.empty()) return Status::Validation(kValidationEnvelope + sole_error_);
  if (errors_.empty()) return Status::OK();
  std::string msg = std::to_string(errors_.size()) +
                    (errors_.size() == 1 ? " validation error detected: " : " validation errors detected: ");
  for (size_t i = 0; i < errors_.size() && i < 10; i++) {
    if (i) msg += "; ";
    msg += errors_[i];
  }
  return Status::Validation(msg);
}

void ConstraintErrors::CheckTableName(const std::optional<std::string>& name, std::string_view path,
                                      bool required) {
  if (!name) {
    if (required) AddNull(path);
    return;
  }
  bool pattern_ok = !name->empty();
  for (char c : *name) {
    if (!(isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) pattern_ok = false;
  }
  if (!pattern_ok) Add(*name, path, "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  if (name->size() < 3) Add(*name, path, "Member must have length greater than or equal to 3");
  if (name->size() > 255) Add(*name, path, "Member must have length less than or equal to 255");
}

void ConstraintErrors::CheckTableNameOrArn(const std::optional<std::string>& name, std::string_view path) {
  if (!name) {
    if (path == "tableName") {
      table_name_missing_ = true;
    } else {
      AddNull(path);
    }
    return;
  }
  if (name->empty()) Add(*name, path, "Member must have length greater than or equal to 1");
  if (name->size() > 1024) Add(*name, path, "Member must have length less than or equal to 1024");
}

void ConstraintErrors::CheckItemTableName(const std::optional<std::string>& name) {
  if (name && name->empty()) {
    if (sole_error_.empty()) {
      sole_error_ =
          "Value at 'TableName' failed to satisfy constraint: Member must have length greater than or equal to 1";
    }
  } else if (name && name->compare(0, 4, "arn:") == 0) {
    CheckTableNameOrArn(name, "tableName");
  } else {
    CheckTableName(name, "tableName");
  }
}

void ConstraintErrors::CheckReturnValues(const std::optional<std::string>& value, bool sole) {
  if (!value) return;
  for (std::string_view allowed : kReturnValuesValues) {
    if (*value == allowed) return;
  }
  // UPDATE_NEW is DynamoDB's own misspelling, verbatim.
  static constexpr char kRule[] =
      "Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, "
      "NONE]";
  if (!sole) {
    AddRaw(kRule);
  } else if (sole_error_.empty()) {
    sole_error_ = kRule;
  }
}

void ConstraintErrors::CheckEnum(const std::optional<std::string>& value, std::string_view path,
                                 EnumValues allowed) {
  if (!value) return;
  for (std::string_view a : allowed) {
    if (*value == a) return;
  }
  std::string rule = "Member must satisfy enum value set: [";
  for (std::string_view a : allowed) {
    if (rule.back() != '[') rule += ", ";
    rule.append(a);
  }
  Add(*value, path, rule + "]");
}

void ConstraintErrors::CheckMin(const std::optional<int64_t>& value, std::string_view path, int64_t min) {
  if (value && *value < min) {
    Add(std::to_string(*value), path, "Member must have value greater than or equal to " + std::to_string(min));
  }
}

void ConstraintErrors::CheckMax(const std::optional<int64_t>& value, std::string_view path, int64_t max) {
  if (value && *value > max) {
    Add(std::to_string(*value), path, "Member must have value less than or equal to " + std::to_string(max));
  }
}

}  // namespace dynapage
