// TagResource: adds tags to a table, named by its ARN.

#include "engine/model/json_types.h"
#include "engine/write/tags.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleTagResource(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn;
  DP_RETURN_IF_ERROR(r.GetString("ResourceArn", &arn));
  if (!arn) return Status::Validation("Invalid TableArn");
  ConstraintErrors errors;
  std::vector<std::pair<std::string, std::string>> tags;
  const rapidjson::Value* list = r.Get("Tags");
  if (list) {
    DP_RETURN_IF_ERROR(CheckJsonList(*list));
    for (const auto& e : list->GetArray()) {
      if (e.IsNull()) continue;
      DP_RETURN_IF_ERROR(CheckJsonObject(e));
      RequestReader t(e);
      std::optional<std::string> key, value;
      DP_RETURN_IF_ERROR(t.GetString("Key", &key));
      DP_RETURN_IF_ERROR(t.GetString("Value", &value));
      const std::string path = "tags." + std::to_string(tags.size() + 1) + ".member";
      if (!key) errors.AddNull(path + ".key");
      if (key && key->empty()) errors.Add("", path + ".key", "Member must have length greater than or equal to 1");
      if (key && key->size() > 128)
        errors.Add(*key, path + ".key", "Member must have length less than or equal to 128");
      if (!value) errors.AddNull(path + ".value");
      if (value && value->size() > 256) {
        errors.Add(*value, path + ".value", "Member must have length less than or equal to 256");
      }
      tags.emplace_back(key.value_or(""), value.value_or(""));
    }
  } else {
    errors.AddNull("tags");
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(TagResource(ctx.db.writes(), ctx.context, *arn, tags));
  return Status::OK();  // DynamoDB answers with an empty body (Content-Length: 0)
}

}  // namespace dynapage
