// Condition evaluator: decides whether an item satisfies a parsed condition (FilterExpression,
// ConditionExpression, or a converted legacy QueryFilter/ScanFilter/Expected).
//
// Semantics (DynamoDB's):
//   - An operand whose path is missing is absent. Every test involving an absent operand is false, except
//     "<>", which is true (as DynamoDB, and NE in the legacy API: a missing attribute is "not equal"), and
//     attribute_not_exists.
//   - "=" and "<>" work on every type: values of different types are unequal; sets compare as sets, L and M
//     deeply, N by value. "<", "<=", ">", ">=" and BETWEEN hold only between values of one type among S
//     (unsigned UTF-8 bytes), N (numeric) and B (unsigned bytes); anything else is false.
//   - size(): S and B their byte length, sets/L/M their element count. size() of N, BOOL, NULL or of a
//     missing attribute has no value, and a comparison involving it is false (also for "<>").
//   - begins_with: S with S, B with B. contains: S in S (substring), B in B (byte substring), an element of
//     the set's element type in SS/NS/BS, an element equal (deeply) to some member of an L.
// Evaluation allocates nothing (a size() result is a short number text) and resolving paths copies nothing,
// because a filtered Scan evaluates once per scanned item.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_CONDITION_EVALUATOR_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_CONDITION_EVALUATOR_H_

#include "engine/expressions/expression_ast.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

// REQUIRES: condition came from ParseCondition() or the legacy converters (its shape rules hold).
bool EvaluateCondition(const ConditionExpr& condition, const AttributeMap& item);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_CONDITION_EVALUATOR_H_
