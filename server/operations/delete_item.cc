// DeleteItem: removes one item by key, optionally under a condition.

#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleDeleteItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name;
  std::optional<AttributeMap> key;
  DeleteItemRequest request;
  WriteItemMembers members;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetAttributeMap("Key", &key));
  DP_RETURN_IF_ERROR(ReadWriteItemMembers(r, &members, &request.condition, &request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckItemTableName(table_name);
  if (!key) errors.AddNull("key");
  CheckWriteItemMembers(members, request.condition, false, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.key = std::move(*key);
  request.return_values = ParseReturnValues(members.return_values);
  WriteItemResult result;
  Status status = DeleteItem(ctx.db.writes(), ctx.context, request, &result);
  return AnswerWriteItem(status, result, members, request.table_name, request.key, &ctx);
}

}  // namespace dynapage
