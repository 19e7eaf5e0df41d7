// The plan of a PartiQL SELECT (docs/partiql.md): which reads answer it. When every OR branch of the WHERE clause
// pins the partition key of the target (the table, or "table"."index") with = or IN, the SELECT is a Query of each
// pinned partition in turn, in the order ORDER BY gives them, the sort-key predicates a key condition can express
// narrowing a single partition's range; otherwise it is a Scan with the whole clause as its filter. ORDER BY led
// by the sort key over several partitions is a merge of them (select_pages.h).
//
// Planning makes the checks DynamoDB makes before reading, in its order: the table, the index (and what it
// projects), the count of IN operands, the filter of a keyed index read, ORDER BY.

#ifndef DYNAPAGE_ENGINE_PARTIQL_SELECT_PLAN_H_
#define DYNAPAGE_ENGINE_PARTIQL_SELECT_PLAN_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/model/table_definition.h"
#include "engine/partiql/execute_statement.h"
#include "engine/partiql/partiql_expressions.h"
#include "engine/partiql/partiql_parser.h"
#include "engine/read/query.h"
#include "engine/read/read_request.h"

namespace dynapage {

// A read of several partitions (IN or OR) evaluates at most this many items a page, whatever the Limit.
constexpr int64_t kSeveralPartitionsPageItems = 10;

// A SELECT as planned: the target, the pinned partitions (in the order they are read) and the rest of the clause.
struct SelectPlan {
  const PartiqlStatement* statement = nullptr;
  const ExecuteStatementRequest* request = nullptr;
  std::shared_ptr<const TableDefinition> table;  // set as soon as the table is found
  const KeySchema* key = nullptr;                // the target's
  bool pinned = false;                           // every OR branch pins the partition key: Query, not Scan
  std::vector<AttributeValue> partitions;
  bool merged = false;                        // ORDER BY the sort key over several partitions
  bool forward = true;                        // the sort key's direction
  std::vector<const PartiqlCondition*> rest;  // pinned: the conjuncts that are not pure pins, the filter
  std::optional<int64_t> limit;               // evaluated items a page
};

// Plans statement s (a SELECT) of request. On failure plan->table is the table when it was found.
// REQUIRES: s and request outlive the plan; the parameter count was checked.
Status PlanSelect(const Catalog& catalog, const PartiqlStatement& s, const ExecuteStatementRequest& request,
                  SelectPlan* plan);

// Fills what a Query and a Scan of the plan share: the target, the filter and the projected paths.
Status FillRead(const SelectPlan& plan, PartiqlExpressionBuilder* b, const std::vector<const PartiqlCondition*>& filter,
                const std::vector<DocumentPath>& projection, ReadRequest* r);

// The Query of pinned partition i with that filter; a single partition's range is narrowed by the first sort-key
// condition of the filter. REQUIRES: plan.pinned, i < plan.partitions.size().
Status PartitionQuery(const SelectPlan& plan, size_t i, std::vector<const PartiqlCondition*> filter,
                      const std::vector<DocumentPath>& projection, QueryRequest* query);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_SELECT_PLAN_H_
