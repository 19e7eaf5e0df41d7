// PartiqlStatementRequest: one statement as ExecuteStatement, BatchExecuteStatement and ExecuteTransaction receive
// it (docs/partiql.md): its text, the values of its `?`s, and the options a statement carries on its own.

#ifndef DYNAPAGE_ENGINE_PARTIQL_STATEMENT_REQUEST_H_
#define DYNAPAGE_ENGINE_PARTIQL_STATEMENT_REQUEST_H_

#include <string>
#include <vector>

#include "engine/model/attribute_value.h"

namespace dynapage {

struct PartiqlStatementRequest {
  std::string statement;
  std::vector<AttributeValue> parameters;
  bool consistent_read = false;             // SELECT (ExecuteStatement, BatchExecuteStatement)
  bool return_old_item_on_failure = false;  // ReturnValuesOnConditionCheckFailure=ALL_OLD
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_STATEMENT_REQUEST_H_
