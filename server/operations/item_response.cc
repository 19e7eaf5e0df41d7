#include "server/operations/item_response.h"

namespace dynapage {

ReturnValues ParseReturnValues(const std::optional<std::string>& value) {
  if (!value) return ReturnValues::kNone;
  if (*value == "ALL_OLD") return ReturnValues::kAllOld;
  if (*value == "UPDATED_OLD") return ReturnValues::kUpdatedOld;
  if (*value == "ALL_NEW") return ReturnValues::kAllNew;
  if (*value == "UPDATED_NEW") return ReturnValues::kUpdatedNew;
  return ReturnValues::kNone;
}

Status ReadWriteItemMembers(const RequestReader& r, WriteItemMembers* members, WriteCondition* condition,
                            ExpressionInputs* inputs) {
  DP_RETURN_IF_ERROR(r.GetString("ReturnValues", &members->return_values));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &members->return_consumed_capacity));
  DP_RETURN_IF_ERROR(r.GetString("ReturnItemCollectionMetrics", &members->return_item_collection_metrics));
  DP_RETURN_IF_ERROR(r.GetString("ConditionExpression", &condition->expression));
  DP_RETURN_IF_ERROR(r.GetLegacyConditions("Expected", &condition->expected));
  DP_RETURN_IF_ERROR(r.GetString("ConditionalOperator", &condition->conditional_operator));
  DP_RETURN_IF_ERROR(r.GetString("ReturnValuesOnConditionCheckFailure", &members->return_on_failure));
  condition->return_old_item_on_failure = members->return_on_failure && *members->return_on_failure == "ALL_OLD";
  return r.GetExpressionInputs(inputs);
}

void CheckWriteItemMembers(const WriteItemMembers& members, const WriteCondition& condition, ConstraintErrors* errors) {
  errors->CheckEnum(members.return_consumed_capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  errors->CheckEnum(members.return_item_collection_metrics, "returnItemCollectionMetrics",
                    kReturnItemCollectionMetricsValues);
  errors->CheckEnum(members.return_values, "returnValues", kReturnValuesValues);
  errors->CheckEnum(members.return_on_failure, "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  errors->CheckEnum(condition.conditional_operator, "conditionalOperator", {"AND", "OR"});
}

Status AnswerWriteItem(const Status& status, const WriteItemResult& result, const WriteItemMembers& members,
                       OperationContext* ctx) {
  if (!status.ok()) {
    if (result.condition_failure_item) {
      ctx->error_extra = "\"Item\":" + EncodeAttributeMap(*result.condition_failure_item);
    }
    return status;
  }
  JsonWriter* w = &ctx->response;
  w->StartObject();
  if (result.attributes) {
    w->Key("Attributes");
    WriteAttributeMap(*result.attributes, w);
  }
  WriteConsumedCapacityMember(result.capacity, ParseCapacityDetail(members.return_consumed_capacity), w);
  w->EndObject();
  return Status::OK();
}

}  // namespace dynapage
