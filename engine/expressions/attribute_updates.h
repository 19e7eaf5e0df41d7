// AttributeUpdates: UpdateItem's legacy form, {attribute: {Action, Value}}, validated with DynamoDB's messages
// and converted into an UpdateExpr, so that one evaluator (engine/expressions/update_evaluator.h) serves both APIs.
//
//   PUT (the default)  Value required: sets the attribute
//   DELETE             without Value: removes the attribute; with a set Value: removes those elements
//   ADD                Value N, a set or L: adds to a number, unites with a set, appends to a list; a missing
//                      attribute becomes Value
// Misuse is refused before anything is read:
//   "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"
//   "One or more parameter values were invalid: ADD action is not supported for the type S"
//   "One or more parameter values were invalid: DELETE action with value is not supported for the type S"

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_ATTRIBUTE_UPDATES_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_ATTRIBUTE_UPDATES_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/expression_ast.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

struct AttributeUpdate {
  std::string attribute;
  std::string action;  // "PUT", "ADD" or "DELETE" (checked where the request is decoded); empty means PUT
  std::optional<AttributeValue> value;
};

// REQUIRES: the attributes are distinct (they are the keys of a JSON object).
Status ConvertAttributeUpdates(const std::vector<AttributeUpdate>& updates, UpdateExpr* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_ATTRIBUTE_UPDATES_H_
