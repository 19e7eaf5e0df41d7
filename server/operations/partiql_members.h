// What ExecuteStatement, BatchExecuteStatement and ExecuteTransaction share on the wire: the members of one
// statement and their constraints.

#ifndef DYNAPAGE_SERVER_OPERATIONS_PARTIQL_MEMBERS_H_
#define DYNAPAGE_SERVER_OPERATIONS_PARTIQL_MEMBERS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/partiql/statement_request.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/request_targets.h"

namespace dynapage {

// Reads Statement (1 to 8,192 characters, required), Parameters (AttributeValues, at least one when present),
// ConsistentRead and ReturnValuesOnConditionCheckFailure from object (a request, or one entry of its list), and
// adds their constraint violations to *errors under path_prefix ("" or "statements.1.member.").
Status ReadPartiqlStatementMembers(const rapidjson::Value& object, const std::string& path_prefix,
                                   ConstraintErrors* errors, PartiqlStatementRequest* out);

// Adds the tables and indexes named by the statements of a PartiQL request (a StatementTargetAdder): Statement's
// table (also targets->statement_table; its index is targets->index unless IndexName gave one), and the tables and
// indexes of the Statements or TransactStatements. A statement that does not parse names none.
void AddStatementTargets(const rapidjson::Value& request, RequestTargets* targets);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATIONS_PARTIQL_MEMBERS_H_
