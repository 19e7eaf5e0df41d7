// The writes of PartiQL (docs/partiql.md): INSERT, UPDATE and DELETE become PutItem (attribute_not_exists on the
// key: a duplicate is DuplicateItemException), UpdateItem (attribute_exists on the key: not an upsert) and
// DeleteItem (a missing item is no error), so index entries and stream records are written by
// WritePath::ApplyWrites exactly as for those operations. EXISTS (ExecuteTransaction only) is a condition check.

#ifndef DYNAPAGE_ENGINE_PARTIQL_STATEMENT_WRITE_H_
#define DYNAPAGE_ENGINE_PARTIQL_STATEMENT_WRITE_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/database/database.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/partiql/execute_statement.h"
#include "engine/partiql/partiql_parser.h"
#include "engine/read/page_reader.h"
#include "engine/write/item_operations.h"

namespace dynapage {

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

// Runs statement s (an INSERT, UPDATE or DELETE) of request as the item operation it is; RETURNING hands the item
// to sink. REQUIRES: the parameter count was checked.
Status ExecuteStatementWrite(Database& db, const RequestContext& ctx, const PartiqlStatement& s,
                             const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_STATEMENT_WRITE_H_
