// TagResource: adds tags to a table, named by its ARN.

#include "engine/write/tags.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/tag_list_reader.h"

namespace dynapage {

Status HandleTagResource(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn;
  DP_RETURN_IF_ERROR(r.GetString("ResourceArn", &arn));
  if (!arn) return Status::Validation("Invalid TableArn");
  DP_RETURN_IF_ERROR(CheckArnShape(ctx.context, "TagResource", *arn));
  ConstraintErrors errors;
  std::vector<std::pair<std::string, std::string>> tags;
  bool present = false;
  DP_RETURN_IF_ERROR(ReadTagList(r, &tags, &present, &errors));
  if (!present) errors.AddNull("tags");
  CheckModelConstraints("TagResource", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(TagResource(ctx.db.writes(), ctx.context, *arn, tags));
  return Status::OK();  // DynamoDB answers with an empty body (Content-Length: 0)
}

}  // namespace dynapage
