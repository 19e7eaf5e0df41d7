#include "server/operations/partiql_members.h"

#include "engine/model/attribute_value_json.h"
#include "engine/model/json_types.h"

namespace dynapage {

Status ReadPartiqlStatementMembers(const rapidjson::Value& object, const std::string& path_prefix,
                                   ConstraintErrors* errors, PartiqlStatementRequest* out) {
  DP_RETURN_IF_ERROR(CheckJsonObject(object));
  RequestReader r(object);
  std::optional<std::string> statement, return_on_failure;
  std::optional<bool> consistent;
  DP_RETURN_IF_ERROR(r.GetString("Statement", &statement));
  const rapidjson::Value* parameters = r.Get("Parameters");
  if (parameters) {
    DP_RETURN_IF_ERROR(CheckJsonList(*parameters));
    for (const auto& v : parameters->GetArray()) {
      out->parameters.emplace_back();
      DP_RETURN_IF_ERROR(DecodeAttributeValue(v, &out->parameters.back()));
    }
  }
  DP_RETURN_IF_ERROR(r.GetBoolean("ConsistentRead", &consistent));
  DP_RETURN_IF_ERROR(r.GetString("ReturnValuesOnConditionCheckFailure", &return_on_failure));

  const std::string path = path_prefix + "statement";
  if (!statement) {
    errors->AddNull(path);
  } else if (statement->empty()) {
    errors->Add(*statement, path, "Member must have length greater than or equal to 1");
  } else if (statement->size() > 8192) {
    errors->Add(*statement, path, "Member must have length less than or equal to 8192");
  }
  if (parameters && out->parameters.empty()) {
    errors->Add("[]", path_prefix + "parameters", "Member must have length greater than or equal to 1");
  }
  errors->CheckEnum(return_on_failure, path_prefix + "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  out->statement = statement.value_or("");
  out->consistent_read = consistent.value_or(false);
  out->return_old_item_on_failure = return_on_failure && *return_on_failure == "ALL_OLD";
  return Status::OK();
}

}  // namespace dynapage
