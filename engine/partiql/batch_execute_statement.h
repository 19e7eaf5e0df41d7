// BatchExecuteStatement: up to 25 PartiQL statements, all reads or all writes, each answered on its own
// (docs/partiql.md).
//
// The whole batch is refused, before anything runs, when it mixes reads and writes ("Read and write requests
// together in the same batch is not supported.") or names one item twice ("Provided list of item keys contains
// duplicates"). Otherwise each statement runs alone and its failure is its own Error {Code, Message}: a read must
// name one item of a table by its full key (it is a GetItem); a write is ExecuteStatement's (not atomic with the
// others, as in DynamoDB).

#ifndef DYNAPAGE_ENGINE_PARTIQL_BATCH_EXECUTE_STATEMENT_H_
#define DYNAPAGE_ENGINE_PARTIQL_BATCH_EXECUTE_STATEMENT_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/database/database.h"
#include "engine/model/attribute_value.h"
#include "engine/partiql/statement_request.h"

namespace dynapage {

// ReturnValuesOnConditionCheckFailure is accepted and, as on DynamoDB, not answered in a batch.
using BatchStatementRequest = PartiqlStatementRequest;

struct BatchStatementResponse {
  std::optional<std::string> table_name;
  std::optional<AttributeMap> item;
  std::string error_code;  // "" on success; else the short code ("ConditionalCheckFailed", "ValidationError", …)
  std::string error_message;
};

Status BatchExecuteStatement(Database& db, const RequestContext& ctx, const std::vector<BatchStatementRequest>& batch,
                             std::vector<BatchStatementResponse>* responses, std::vector<ConsumedCapacity>* capacity);

// The short code of a statement's failure in a batch or a cancellation ("ConditionalCheckFailed", "DuplicateItem",
// "ValidationError", "ResourceNotFound", …).
const char* PartiqlErrorCode(ErrorCode code);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_BATCH_EXECUTE_STATEMENT_H_
