// UpdateItem: edits (or creates) one item with an UpdateExpression or AttributeUpdates, optionally under a
// condition.

#include "engine/write/update_item.h"
#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleUpdateItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name;
  std::optional<AttributeMap> key;
  UpdateItemRequest request;
  WriteItemMembers members;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetAttributeMap("Key", &key));
  DP_RETURN_IF_ERROR(r.GetString("UpdateExpression", &request.update_expression));
  DP_RETURN_IF_ERROR(r.GetAttributeUpdates("AttributeUpdates", &request.attribute_updates));
  DP_RETURN_IF_ERROR(ReadWriteItemMembers(r, &members, &request.condition, &request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckItemTableName(table_name);
  if (!key) errors.AddNull("key");
  if (request.attribute_updates) {
    for (const AttributeUpdate& u : *request.attribute_updates) {
      if (u.action.empty()) continue;
      errors.CheckEnum(u.action, "attributeUpdates." + u.attribute + ".member.action", {"ADD", "PUT", "DELETE"});
    }
  }
  CheckWriteItemMembers(members, request.condition, true, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.key = std::move(*key);
  request.return_values = ParseReturnValues(members.return_values);
  WriteItemResult result;
  Status status = UpdateItem(ctx.db.writes(), ctx.context, request, &result);
  return AnswerWriteItem(status, result, members, request.table_name, request.key, &ctx);
}

}  // namespace dynapage
