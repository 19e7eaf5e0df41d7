// DeleteItem: removes one item by key, optionally under a condition.

#include "server/item_response.h"
#include "server/operation.h"

namespace dynapage {

Status HandleDeleteItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name, return_values, capacity, metrics, return_on_failure;
  std::optional<AttributeMap> key;
  DeleteItemRequest request;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetAttributeMap("Key", &key));
  DP_RETURN_IF_ERROR(r.GetString("ReturnValues", &return_values));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetString("ReturnItemCollectionMetrics", &metrics));
  DP_RETURN_IF_ERROR(ReadWriteCondition(r, &request.condition, &return_on_failure));
  DP_RETURN_IF_ERROR(r.GetExpressionInputs(&request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckTableName(table_name, "tableName");
  if (!key) errors.AddNull("key");
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  errors.CheckEnum(metrics, "returnItemCollectionMetrics", kReturnItemCollectionMetricsValues);
  errors.CheckEnum(return_values, "returnValues", kReturnValuesValues);
  errors.CheckEnum(return_on_failure, "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  errors.CheckEnum(request.condition.conditional_operator, "conditionalOperator", {"AND", "OR"});
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.key = std::move(*key);
  request.return_values = ParseReturnValues(return_values);
  WriteItemResult result;
  Status status = DeleteItem(ctx.db, request, &result);
  if (!status.ok()) {
    ctx.error_extra = ConditionFailureExtra(result);
    return status;
  }
  WriteWriteItemResponse(result, ParseCapacityDetail(capacity), &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
