// ExecuteStatement: one PartiQL statement run on the existing read and write paths (docs/partiql.md).
//
// A SELECT is planned onto Query or Scan (select_plan.h) and its page read by the one page loop, one pinned
// partition after another or merged for ORDER BY (select_pages.h): Limit counts evaluated items across the
// partitions of a page, the page stops at --max-page-bytes (1 MB), and NextToken (statement_token.h: opaque, the
// partition reached and the last evaluated key) comes back whenever the read stopped early. A token is bound to the
// statement and its parameters: another statement gets "NextToken does not match request".
//
// INSERT, UPDATE and DELETE are the item writes of statement_write.h.

#ifndef DYNAPAGE_ENGINE_PARTIQL_EXECUTE_STATEMENT_H_
#define DYNAPAGE_ENGINE_PARTIQL_EXECUTE_STATEMENT_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/database/database.h"
#include "engine/model/attribute_value.h"
#include "engine/partiql/partiql_parser.h"
#include "engine/partiql/statement_request.h"
#include "engine/read/page_reader.h"

namespace dynapage {

struct ExecuteStatementRequest : PartiqlStatementRequest {
  std::optional<int64_t> limit;
  std::optional<std::string> next_token;
  bool index_capacity_detail = false;  // ReturnConsumedCapacity=INDEXES
};

struct ExecuteStatementResult {
  std::string table_name;
  std::optional<std::string> next_token;
  std::vector<ConsumedCapacity> capacity;  // the one table read or written
  std::optional<AttributeMap> condition_failure_item;
  double failed_write_units = 0;  // a write that failed its condition (or a duplicate INSERT): what it costs
};

// Parses and runs request.statement: a SELECT streams its page to sink, a write with RETURNING hands its item to it.
Status ExecuteStatement(Database& db, const RequestContext& ctx, const ExecuteStatementRequest& request, ItemSink* sink,
                        ExecuteStatementResult* result);

// The same for a statement already parsed (BatchExecuteStatement).
Status ExecuteParsedStatement(Database& db, const RequestContext& ctx, const PartiqlStatement& statement,
                              const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result);

// "Number of parameters in request and statement don't match." unless there is one parameter per `?`.
Status CheckParameterCount(const PartiqlStatement& statement, const std::vector<AttributeValue>& parameters);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_EXECUTE_STATEMENT_H_
