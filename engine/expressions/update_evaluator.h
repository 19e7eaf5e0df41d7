// Update evaluator: applies a parsed UpdateExpression (or UpdateItem's legacy AttributeUpdates, converted into
// the same form) to an item.
//
// Semantics (DynamoDB's):
//   - Every value is computed from the item as it was before the update, so "SET a = b, b = a" swaps a and b.
//   - SET path = v: the parent of path must exist and be a map (path ends in a name) or a list (path ends in an
//     index; an index past the end appends). Otherwise "The document path provided in the update expression is
//     invalid for update".
//   - A path read by a value must exist: "The provided expression refers to an attribute that does not exist in
//     the item". if_not_exists(p, v) is p's value if p exists, else v.
//   - x + y and x - y need numbers (exact decimals, with Decimal's overflow messages); list_append(x, y) needs
//     lists. Otherwise "An operand in the update expression has an incorrect data type".
//   - REMOVE: a missing attribute, map member or list element is no error; a missing or mistyped parent is
//     (the invalid-path message). Indexes of one list refer to the list before any removal.
//   - ADD p v: a missing p becomes v; a number is added to a number, a set is united with a set of its type.
//   - DELETE p set: removes the elements present; a set left empty is removed; a missing p is no error.
//   - The result may nest L and M at most 32 deep: kNestingTooDeep (engine/base/messages.h).
// Clauses apply in the order SET, ADD, DELETE, REMOVE; within a clause, in written order (the parser ensures
// no two targets overlap, so only list appends and removals can tell).
// Key attributes, item size and index keys are the caller's to check (engine/write/update_item.h).

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_UPDATE_EVALUATOR_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_UPDATE_EVALUATOR_H_

#include "engine/base/status.h"
#include "engine/expressions/expression_ast.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

// Which API's message a type mismatch gets: the expression one above, or AttributeUpdates' "Type mismatch for
// attribute to update".
enum class UpdateDialect { kExpression, kAttributeUpdates };

// Applies update to *item (the stored item, or only the key attributes of an item to be created).
// REQUIRES: update came from ParseUpdate() or ConvertAttributeUpdates(). On error *item is unspecified:
// callers apply updates to a copy.
Status ApplyUpdate(const UpdateExpr& update, UpdateDialect dialect, AttributeMap* item);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_UPDATE_EVALUATOR_H_
