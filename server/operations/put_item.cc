// PutItem: creates or replaces one item, optionally under a condition.

#include "engine/base/messages.h"
#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"

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
    // PutItem's refusals of an Item value are DynamoDB's own messages, enveloped by its current validation framework
    // (docs/behaviour.md "Regions and message cohorts").
    if (item_status.code() == ErrorCode::kValidation) return std::move(item_status).WithCohortEnvelope();
    return item_status;
  }
  DP_RETURN_IF_ERROR(ReadWriteItemMembers(r, &members, &request.condition, &request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckItemTableName(table_name);
  if (!item) errors.AddNull("item");
  CheckWriteItemMembers(members, request.condition, false, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.item = std::move(*item);
  request.return_values = ParseReturnValues(members.return_values);
  WriteItemResult result;
  return AnswerWriteItem(PutItem(ctx.db.writes(), ctx.context, request, &result), result, members, request.table_name,
                         request.item, &ctx);
}

}  // namespace dynapage
