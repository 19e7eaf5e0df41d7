// WriteCondition: the condition a PutItem, UpdateItem or DeleteItem (or a transaction action) puts on the
// item's current state — a ConditionExpression or the legacy Expected map — and its outcome.
//
// Prepare() parses and validates once, before the write lock is taken; Check() runs under the lock against the
// item as stored. A failed check is ConditionalCheckFailedException "The conditional request failed".

#ifndef DYNAPAGE_ENGINE_WRITE_CONDITION_H_
#define DYNAPAGE_ENGINE_WRITE_CONDITION_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/legacy_condition.h"
#include "engine/status.h"

namespace dynapage {

// ExpressionAttributeNames and ExpressionAttributeValues as a request sent them.
struct ExpressionInputs {
  std::optional<std::map<std::string, std::string>> names;
  std::optional<std::map<std::string, AttributeValue>> values;
};

struct ConditionExpr;  // engine/expression_ast.h

struct WriteCondition {
  std::optional<std::string> expression;
  std::optional<std::vector<LegacyCondition>> expected;
  std::optional<std::string> conditional_operator;
  bool return_old_item_on_failure = false;  // ReturnValuesOnConditionCheckFailure=ALL_OLD

  // Set by Prepare().
  std::shared_ptr<const ConditionExpr> parsed;

  bool empty() const { return !expression && !expected; }
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_CONDITION_H_
