// ExecuteTransaction: up to 100 PartiQL statements run all or nothing (docs/partiql.md), on the machinery of
// TransactGetItems (all SELECTs, each naming one item of a table by its full key) and TransactWriteItems (INSERT,
// UPDATE, DELETE and EXISTS(SELECT …), an EXISTS being a ConditionCheck).
//
// Refused before anything runs, as ValidationExceptions: a mix of reads and writes, RETURNING, a read of an index,
// a SELECT that says more than the key, an EXISTS without a condition besides the key ("Validation failed in
// TransactStatements[i]: …"), NOT EXISTS. A failure under the writer lock cancels the whole transaction:
// TransactionCanceledException with one reason per statement, in statement order (a duplicate INSERT is a
// ValidationError "Duplicate primary key exists in table"). A ClientRequestToken makes the call idempotent for
// 10 minutes, as for TransactWriteItems.

#ifndef DYNAPAGE_ENGINE_PARTIQL_EXECUTE_TRANSACTION_H_
#define DYNAPAGE_ENGINE_PARTIQL_EXECUTE_TRANSACTION_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/database/database.h"
#include "engine/model/attribute_value.h"
#include "engine/partiql/statement_request.h"
#include "engine/write/transactions.h"

namespace dynapage {

using TransactionStatement = PartiqlStatementRequest;  // consistent_read is not used: transactions are consistent

struct ExecuteTransactionRequest {
  std::vector<TransactionStatement> statements;
  std::optional<std::string> client_request_token;
  std::string fingerprint;  // equal for requests that are the same (the token check)
};

struct ExecuteTransactionResult {
  bool reads = false;
  std::vector<std::optional<AttributeMap>> items;  // reads: one per statement, empty where there is no item
  std::vector<ConsumedCapacity> capacity;
  std::vector<CancellationReason> cancellation_reasons;  // on TransactionCanceled
};

Status ExecuteTransaction(Database& db, const RequestContext& ctx, const ExecuteTransactionRequest& request,
                          ExecuteTransactionResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_EXECUTE_TRANSACTION_H_
