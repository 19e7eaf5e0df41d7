#include "server/item_response.h"

namespace dynapage {

ReturnValues ParseReturnValues(const std::optional<std::string>& value) {
  if (!value) return ReturnValues::kNone;
  if (*value == "ALL_OLD") return ReturnValues::kAllOld;
  if (*value == "UPDATED_OLD") return ReturnValues::kUpdatedOld;
  if (*value == "ALL_NEW") return ReturnValues::kAllNew;
  if (*value == "UPDATED_NEW") return ReturnValues::kUpdatedNew;
  return ReturnValues::kNone;
}

Status ReadWriteCondition(const RequestReader& r, WriteCondition* condition,
                          std::optional<std::string>* return_on_failure) {
  DP_RETURN_IF_ERROR(r.GetString("ConditionExpression", &condition->expression));
  DP_RETURN_IF_ERROR(r.GetLegacyConditions("Expected", &condition->expected));
  DP_RETURN_IF_ERROR(r.GetString("ConditionalOperator", &condition->conditional_operator));
  DP_RETURN_IF_ERROR(r.GetString("ReturnValuesOnConditionCheckFailure", return_on_failure));
  condition->return_old_item_on_failure = *return_on_failure && **return_on_failure == "ALL_OLD";
  return Status::OK();
}

void WriteWriteItemResponse(const WriteItemResult& result, CapacityDetail detail, JsonWriter* w) {
  w->StartObject();
  if (result.attributes) {
    w->Key("Attributes");
    WriteAttributeMap(*result.attributes, w);
  }
  WriteConsumedCapacityMember(result.capacity, detail, w);
  w->EndObject();
}

std::string ConditionFailureExtra(const WriteItemResult& result) {
  if (!result.condition_failure_item) return "";
  return "\"Item\":" + EncodeAttributeMap(*result.condition_failure_item);
}

}  // namespace dynapage
