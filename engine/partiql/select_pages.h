// The pages of a SELECT that reads pinned partitions (select_plan.h), one partition after another or, for ORDER BY
// a sort key over several partitions, merged into one order (docs/partiql.md). Both read through Query, so the
// one page loop cuts their pages: Limit counts evaluated items across the partitions of a page, and the page stops
// at the request's page size (--max-page-bytes).

#ifndef DYNAPAGE_ENGINE_PARTIQL_SELECT_PAGES_H_
#define DYNAPAGE_ENGINE_PARTIQL_SELECT_PAGES_H_

#include <optional>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/partiql/execute_statement.h"
#include "engine/partiql/select_plan.h"
#include "engine/partiql/statement_token.h"
#include "engine/read/page_reader.h"

namespace dynapage {

// The pinned partitions one after another from start: a page reads on into the next partition until Limit or the
// page size. counters are read_ctx's, which the page's reads add to. *next is where the next page begins, if the
// read stopped early. REQUIRES: plan.pinned and not plan.merged; read_ctx.counters == &counters.
Status PartitionsPage(const Catalog& catalog, const RequestContext& read_ctx, const SelectPlan& plan,
                      const SelectPosition& start, ItemSink* sink, const RequestCounters& counters,
                      ExecuteStatementResult* result, std::optional<SelectPosition>* next);

// ORDER BY a sort key over several partitions: one order over all of them, by the ORDER BY keys, then the written
// order of the partitions. Each partition keeps its own cursor in the NextToken. A page first reads ahead, without
// filter and uncharged, up to the page's Limit (at most 10) of items from each partition's cursor and merges them
// to find which of them the page evaluates (Limit, then the page size); then it reads those, with the filter, from
// each partition, charged and counted, and answers the matches in the merged order. REQUIRES: plan.merged.
Status MergedPage(const Catalog& catalog, const RequestContext& read_ctx, const SelectPlan& plan,
                  const SelectPosition& start, ItemSink* sink, ExecuteStatementResult* result,
                  std::optional<SelectPosition>* next);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_SELECT_PAGES_H_
