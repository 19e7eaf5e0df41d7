// WriteCondition: the condition a PutItem, UpdateItem or DeleteItem (or a transaction action) puts on the
// item's current state — a ConditionExpression or the legacy Expected map — and its outcome.
//
// Prepare() parses and validates once, before the write lock is taken; Check() runs under the lock against the
// item as stored. A failed check is ConditionalCheckFailedException "The conditional request failed". A missing
// item is checked as an item without attributes (so attribute_not_exists(pk) holds, as in DynamoDB).
//
// PrepareWriteExpressions() does the request-level work around it: a write's expressions share
// ExpressionAttributeNames/Values, so they are checked and parsed together.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_WRITE_CONDITION_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_WRITE_CONDITION_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/legacy_condition.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

// ExpressionAttributeNames and ExpressionAttributeValues as a request sent them.
struct ExpressionInputs {
  std::optional<std::map<std::string, std::string>> names;
  std::optional<std::map<std::string, AttributeValue>> values;
};

struct ConditionExpr;  // engine/expressions/expression_ast.h
struct UpdateExpr;     // engine/expressions/expression_ast.h
class ExpressionAttributes;

struct WriteCondition {
  std::optional<std::string> expression;
  std::optional<std::vector<LegacyCondition>> expected;
  std::optional<std::string> conditional_operator;
  bool return_old_item_on_failure = false;  // ReturnValuesOnConditionCheckFailure=ALL_OLD

  // Set by Prepare(); null when there is nothing to check (no condition, or an empty Expected).
  std::shared_ptr<const ConditionExpr> parsed;

  bool empty() const { return !expression && !expected; }

  // Parses ConditionExpression through attrs (which the caller then checks for unused placeholders), or
  // validates and converts Expected. REQUIRES: not both (PrepareWriteExpressions refuses that).
  Status Prepare(ExpressionAttributes* attrs);

  // OK if current (nullptr: no item) satisfies the prepared condition, else ConditionFailed.
  Status Check(const AttributeMap* current) const;
};

// Prepares the condition of a write and, for UpdateItem, its UpdateExpression, with DynamoDB's checks in order:
//   1. expression and legacy parameters mixed: "Can not use both expression and non-expression parameters in
//      the same request: Non-expression parameters: {AttributeUpdates, Expected} Expression parameters:
//      {UpdateExpression, ConditionExpression}" (the members present; ConditionalOperator does not count here,
//      unlike in Query and Scan)
//   2. placeholders without an expression to use them: "ExpressionAttributeNames can only be specified when
//      using expressions"; "ExpressionAttributeValues can only be specified when using expressions" (UpdateItem:
//      "…: UpdateExpression and ConditionExpression are null")
//   3. the maps themselves (empty, bad keys); 4. parsing, UpdateExpression first ("Invalid UpdateExpression:
//      …", "Invalid ConditionExpression: …"); 5. unused placeholders; 6. Expected.
// Every ValidationException it returns is marked WithCohortEnvelope() (engine/base/message_cohorts.h).
// is_update selects UpdateItem's rules; then update_expression/has_attribute_updates describe the request and
// *update receives the parsed UpdateExpression (left empty without one).
Status PrepareWriteExpressions(const ExpressionInputs& inputs, bool is_update,
                               const std::optional<std::string>& update_expression, bool has_attribute_updates,
                               WriteCondition* condition, UpdateExpr* update);

// The current validation framework's nesting limit on the ExpressionAttributeValues of a write: a value of 32 or
// more nested L/M levels is refused (kNestingTooDeep, marked WithCohortEnvelope()) before any condition is
// evaluated. The legacy framework has no such check (an item still may not nest deeper than kMaxNestingDepth).
Status CheckExpressionValueNesting(const ExpressionInputs& inputs);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_WRITE_CONDITION_H_
