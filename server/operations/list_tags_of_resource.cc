// ListTagsOfResource: the tags of a table, named by its ARN, in key order and in one page.

#include "engine/write/tags.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleListTagsOfResource(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn, next_token;
  DP_RETURN_IF_ERROR(r.GetString("ResourceArn", &arn));
  DP_RETURN_IF_ERROR(r.GetString("NextToken", &next_token));  // never handed out: all tags fit one page
  if (!arn) return Status::Validation("Invalid TableArn");
  DP_RETURN_IF_ERROR(CheckArnShape(ctx.context, "ListTagsOfResource", *arn));
  ConstraintErrors errors;
  CheckModelConstraints("ListTagsOfResource", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  std::map<std::string, std::string> tags;
  DP_RETURN_IF_ERROR(ListTagsOfResource(ctx.db.catalog(), ctx.context, *arn, &tags));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Tags");
  w.StartArray();
  for (const auto& [key, value] : tags) {
    w.StartObject();
    w.Key("Key");
    w.String(key);
    w.Key("Value");
    w.String(value);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
