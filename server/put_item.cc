// PutItem: creates or replaces one item, optionally under a condition.

#include "server/item_response.h"
#include "server/operation.h"

namespace dynapage {

Status HandlePutItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name, return_values, capacity, metrics, return_on_failure;
  std::optional<AttributeMap> item;
  PutItemRequest request;
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
  DP_RETURN_IF_ERROR(r.GetString("ReturnValues", &return_values));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetString("ReturnItemCollectionMetrics", &metrics));
  DP_RETURN_IF_ERROR(ReadWriteCondition(r, &request.condition, &return_on_failure));
  DP_RETURN_IF_ERROR(r.GetExpressionInputs(&request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckTableName(table_name, "tableName");
  if (!item) errors.AddNull("item");
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  errors.CheckEnum(metrics, "returnItemCollectionMetrics", kReturnItemCollectionMetricsValues);
  errors.CheckEnum(return_values, "returnValues", kReturnValuesValues);
  errors.CheckEnum(return_on_failure, "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  errors.CheckEnum(request.condition.conditional_operator, "conditionalOperator", {"AND", "OR"});
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.item = std::move(*item);
  request.return_values = ParseReturnValues(return_values);
  WriteItemResult result;
  Status status = PutItem(ctx.db, request, &result);
  if (!status.ok()) {
    ctx.error_extra = ConditionFailureExtra(result);
    return status;
  }
  WriteWriteItemResponse(result, ParseCapacityDetail(capacity), &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
