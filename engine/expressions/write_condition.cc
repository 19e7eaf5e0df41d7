#include "engine/expressions/write_condition.h"

#include "engine/base/messages.h"

#include "engine/expressions/condition_evaluator.h"
#include "engine/expressions/expression_ast.h"
#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/expression_parser.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

Status WriteCondition::Prepare(ExpressionAttributes* attrs) {
  parsed.reset();
  if (expression) {
    std::unique_ptr<ConditionExpr> condition;
    DP_RETURN_IF_ERROR(ParseCondition(*expression, "ConditionExpression", attrs, &condition));
    parsed = std::move(condition);
  } else if (conditional_operator && (!expected || expected->empty())) {
    // The wording is ours: DynamoDB's was not recorded (docs/behaviour.md).
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "ConditionalOperator can only be used when Expected is present");
  } else if (expected && !expected->empty()) {
    std::unique_ptr<ConditionExpr> condition;
    bool use_or = conditional_operator && *conditional_operator == "OR";
    DP_RETURN_IF_ERROR(ConvertLegacyExpected(*expected, use_or, &condition));
    parsed = std::move(condition);
  }
  return Status::OK();
}

Status WriteCondition::Check(const AttributeMap* current) const {
  if (!parsed) return Status::OK();
  static const AttributeMap kNoItem;
  if (!EvaluateCondition(*parsed, current ? *current : kNoItem)) return Status::ConditionFailed();
  return Status::OK();
}

namespace {
// True if value nests at least levels L/M levels (a map holding a map: 2). Decoding has bounded the depth.
bool NestsAtLeast(const AttributeValue& value, int levels) {
  if (value.type != AttrType::kL && value.type != AttrType::kM) return levels <= 0;
  if (levels <= 1) return true;
  for (const AttributeValue& element : value.list) {
    if (NestsAtLeast(element, levels - 1)) return true;
  }
  for (const auto& [name, element] : value.map) {
    if (NestsAtLeast(element, levels - 1)) return true;
  }
  return false;
}

Status PrepareExpressions(const ExpressionInputs& inputs, bool is_update,
                          const std::optional<std::string>& update_expression, bool has_attribute_updates,
                          WriteCondition* condition, UpdateExpr* update) {
  std::vector<std::string> legacy, modern;
  if (has_attribute_updates) legacy.push_back("AttributeUpdates");
  if (condition->expected) legacy.push_back("Expected");
  if (update_expression) modern.push_back("UpdateExpression");
  if (condition->expression) modern.push_back("ConditionExpression");
  if (!legacy.empty() && !modern.empty()) {
    return Status::Validation(ExpressionAttributes::MixedParametersMessage(legacy, modern));
  }

  const ExpressionNameMap* names = inputs.names ? &*inputs.names : nullptr;
  const ExpressionValueMap* values = inputs.values ? &*inputs.values : nullptr;
  if (modern.empty()) {
    if (names) return Status::Validation(ExpressionAttributes::NamesWithoutExpressionsMessage());
    if (values) {
      // PutItem and DeleteItem name no expression (us-east-1, September 2026); UpdateItem's wording is older.
      std::vector<std::string> missing;
      if (is_update) missing.push_back("UpdateExpression");
      if (is_update) missing.push_back("ConditionExpression");
      return Status::Validation(ExpressionAttributes::ValuesWithoutExpressionsMessage(missing));
    }
  }
  DP_RETURN_IF_ERROR(ExpressionAttributes::ValidateNames(names));
  DP_RETURN_IF_ERROR(ExpressionAttributes::ValidateValues(values));

  ExpressionAttributes attrs(names, values);
  if (update_expression) DP_RETURN_IF_ERROR(ParseUpdate(*update_expression, &attrs, update));
  // With Expected there are no placeholders (step 2), so converting it before the unused check is in order.
  DP_RETURN_IF_ERROR(condition->Prepare(&attrs));
  return attrs.CheckAllUsed();
}
}  // namespace

Status CheckExpressionValueNesting(const ExpressionInputs& inputs) {
  if (!inputs.values) return Status::OK();
  for (const auto& [placeholder, value] : *inputs.values) {
    if (NestsAtLeast(value, kMaxNestingDepth)) return Status::Validation(kNestingTooDeep).WithCohortEnvelope();
  }
  return Status::OK();
}

Status PrepareWriteExpressions(const ExpressionInputs& inputs, bool is_update,
                               const std::optional<std::string>& update_expression, bool has_attribute_updates,
                               WriteCondition* condition, UpdateExpr* update) {
  Status s = PrepareExpressions(inputs, is_update, update_expression, has_attribute_updates, condition, update);
  // Every refusal here is one of DynamoDB's own messages, which its current validation framework envelopes.
  if (!s.ok() && s.code() == ErrorCode::kValidation) return std::move(s).WithCohortEnvelope();
  return s;
}

}  // namespace dynapage
