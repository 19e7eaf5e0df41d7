// ExecuteStatement: one PartiQL statement run on the existing read and write paths (docs/partiql.md).
//
// SELECT is planned onto Query or Scan (engine/read/): when every OR branch of the WHERE clause pins the partition
// key of the target (the table, or "table"."index") with = or IN, it is a Query of each pinned partition in turn,
// the sort-key predicates a key condition can express narrowing a single partition's range; otherwise a Scan. The
// WHERE clause is the FilterExpression, judged by the same evaluator, after Limit. Pages are cut by the one page
// loop: Limit counts evaluated items across the partitions of a page, the page stops at --max-page-bytes (1 MB),
// and NextToken (opaque: the partition reached and the last evaluated key) comes back whenever the read stopped
// early. A token is bound to the statement and its parameters: another statement gets "NextToken does not match
// request".
//
// INSERT, UPDATE and DELETE become PutItem (attribute_not_exists on the key: a duplicate is DuplicateItemException),
// UpdateItem (attribute_exists on the key: not an upsert) and DeleteItem (a missing item is no error), so index
// entries and stream records are written by WritePath::ApplyWrites exactly as for those operations.

#ifndef DYNAPAGE_ENGINE_PARTIQL_EXECUTE_STATEMENT_H_
#define DYNAPAGE_ENGINE_PARTIQL_EXECUTE_STATEMENT_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/database/database.h"
#include "engine/expressions/write_condition.h"
#include "engine/partiql/partiql_parser.h"
#include "engine/partiql/statement_request.h"
#include "engine/read/page_reader.h"
#include "engine/write/item_operations.h"

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

// An INSERT, UPDATE, DELETE or EXISTS as the item write it is (shared with ExecuteTransaction).
struct PartiqlWrite {
  PartiqlStatement::Kind kind = PartiqlStatement::Kind::kInsert;
  std::string table_name;
  AttributeMap item_or_key;  // INSERT: the item; otherwise the key
  std::optional<std::string> update_expression;
  std::optional<std::string> condition_expression;
  ExpressionInputs inputs;
  ReturnValues return_values = ReturnValues::kNone;
};

// Resolves the table and turns the statement into its write: the full primary key pinned by equality ("Where
// clause does not contain a mandatory equality on all key attributes"), the other conjuncts as the condition.
Status PrepareStatementWrite(const Catalog& catalog, const PartiqlStatement& statement,
                             const std::vector<AttributeValue>& parameters, PartiqlWrite* out);

// A SELECT of exactly one item (BatchExecuteStatement, ExecuteTransaction): the full primary key by equality and
// nothing else, on a table. *key_only is false when the WHERE clause says more or names an index. The item read
// is answered through PartiqlProjectedItem when the statement projects.
struct PartiqlKeyRead {
  std::string table_name;
  AttributeMap key;
  std::optional<std::string> projection_expression;
  ExpressionInputs inputs;
};
Status PrepareKeyRead(const Catalog& catalog, const PartiqlStatement& statement,
                      const std::vector<AttributeValue>& parameters, bool* key_only, PartiqlKeyRead* out);

// The item a SELECT answers for a stored item projected by its paths: each path under the name of its last step.
AttributeMap PartiqlProjectedItem(const std::vector<DocumentPath>& projection, const AttributeMap& item);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_EXECUTE_STATEMENT_H_
