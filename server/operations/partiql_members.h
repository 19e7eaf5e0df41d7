// What ExecuteStatement, BatchExecuteStatement and ExecuteTransaction share on the wire: the members of one
// statement and their constraints.

#ifndef DYNAPAGE_SERVER_OPERATIONS_PARTIQL_MEMBERS_H_
#define DYNAPAGE_SERVER_OPERATIONS_PARTIQL_MEMBERS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/partiql/statement_request.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// Reads Statement (1 to 8,192 characters, required), Parameters (AttributeValues, at least one when present),
// ConsistentRead and ReturnValuesOnConditionCheckFailure from object (a request, or one entry of its list), and
// adds their constraint violations to *errors under path_prefix ("" or "statements.1.member.").
Status ReadPartiqlStatementMembers(const rapidjson::Value& object, const std::string& path_prefix,
                                   ConstraintErrors* errors, PartiqlStatementRequest* out);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATIONS_PARTIQL_MEMBERS_H_
