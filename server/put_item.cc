// PutItem: creates or replaces one item, optionally under a condition.

#include "server/item_response.h"
#include "server/operation.h"

namespace dynapage {

Status HandlePutItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name;
  std::optional<AttributeMap> item;
  PutItemRequest request;
  WriteItemMembers members;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  Status item_status = r.GetAttributeMap("Item", &item);
  if (!item_status.ok()) {
    // PutItem reports an empty set with the newer "1 validation error detected: " prefix (spec §8.7).
    const std::string& m = item_status.message();
    if (m.find("may not be empty") != std::string::npos || m.find("should not be empty") != std::string::npos) {
      return Status::Validation("1 validation error detected: " + m);
    }
    return item_status;
  }
  DP_RETURN_IF_ERROR(ReadWriteItemMembers(r, &members, &request.condition, &request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckTableName(table_name, "tableName");
  if (!item) errors.AddNull("item");
  CheckWriteItemMembers(members, request.condition, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.item = std::move(*item);
  request.return_values = ParseReturnValues(members.return_values);
  WriteItemResult result;
  return AnswerWriteItem(PutItem(ctx.db, request, &result), result, members, &ctx);
}

}  // namespace dynapage
