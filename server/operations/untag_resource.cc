// UntagResource: removes tags from a table, named by its ARN.

#include "engine/write/tags.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleUntagResource(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn;
  std::optional<std::vector<std::string>> keys;
  DP_RETURN_IF_ERROR(r.GetString("ResourceArn", &arn));
  DP_RETURN_IF_ERROR(r.GetStringList("TagKeys", &keys));
  if (!arn) return Status::Validation("Invalid TableArn");
  DP_RETURN_IF_ERROR(CheckArnShape(ctx.context, "UntagResource", *arn));
  ConstraintErrors errors;
  if (!keys) errors.AddNull("tagKeys");
  CheckModelConstraints("UntagResource", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(UntagResource(ctx.db.writes(), ctx.context, *arn, *keys));
  return Status::OK();  // DynamoDB answers with an empty body (Content-Length: 0)
}

}  // namespace dynapage
