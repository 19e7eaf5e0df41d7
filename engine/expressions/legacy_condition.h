// Legacy conditions: the pre-expression API's {attribute: {ComparisonOperator, AttributeValueList}} maps
// (QueryFilter, ScanFilter, KeyConditions, and Expected with its Value/Exists form), validated with DynamoDB's
// messages and converted into the same ConditionExpr the expression parser produces, so one evaluator serves
// both APIs.
//
// Operators and their operands (DOC legacy conditional parameters):
//   EQ, NE                  1 value of any type
//   LT, LE, GT, GE          1 value: S, N or B
//   CONTAINS, NOT_CONTAINS  1 value: S, N, B, BOOL or NULL (an element, not a set, list or map)
//   BEGINS_WITH             1 value: S or B
//   IN                      1 or more values of one type among S, N, B
//   BETWEEN                 2 values of one type among S, N, B, lower <= upper
//   NULL, NOT_NULL          no value
// NE and NOT_CONTAINS are true for a missing attribute in a filter, as their expression counterparts ("<>",
// NOT contains()) are; in Expected, NOT_CONTAINS fails on a missing attribute, as DynamoDB's does.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_LEGACY_CONDITION_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_LEGACY_CONDITION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/expression_ast.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

struct LegacyCondition {
  std::string attribute;
  std::string comparison_operator;     // "EQ", "BETWEEN", …; empty when absent (Expected's Value/Exists form)
  std::vector<AttributeValue> values;  // AttributeValueList
  bool has_values = false;             // AttributeValueList was present in the request
  // Expected only.
  std::optional<AttributeValue> value;  // Value
  std::optional<bool> exists;           // Exists
};

// Checks one condition of QueryFilter, ScanFilter or KeyConditions (or an Expected entry with a
// ComparisonOperator): the number and types of its values, and BETWEEN's bounds. Messages:
//   "One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator"
//   "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"
//   "One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type"
//   "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"
// A missing or unknown operator (normally rejected where the request is decoded, which knows the member's
// full path) gets the constraint message with the path 'comparisonOperator'.
Status ValidateLegacyCondition(const LegacyCondition& condition);

// QueryFilter / ScanFilter: validates every condition (in the given order) and combines them with AND, or with
// OR when use_or (ConditionalOperator OR). REQUIRES: !conditions.empty().
Status ConvertLegacyFilter(const std::vector<LegacyCondition>& conditions, bool use_or,
                           std::unique_ptr<ConditionExpr>* out);

// Expected: as ConvertLegacyFilter, but an entry may instead use Value/Exists ("Exists": false means the
// attribute must be absent; otherwise it must equal Value). Messages for misuse, e.g.
//   "One or more parameter values were invalid: Value must be provided when Exists is null for Attribute: a"
//   "One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: a"
//   "One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: a"
//   "One or more parameter values were invalid: Value and AttributeValueList cannot be used together for Attribute: a"
//   "One or more parameter values were invalid: AttributeValueList can only be used with a ComparisonOperator for
//   Attribute: a"
// REQUIRES: !expected.empty().
Status ConvertLegacyExpected(const std::vector<LegacyCondition>& expected, bool use_or,
                             std::unique_ptr<ConditionExpr>* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_LEGACY_CONDITION_H_
