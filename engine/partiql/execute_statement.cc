#include "engine/partiql/execute_statement.h"

#include <optional>
#include <utility>

#include "engine/partiql/partiql_expressions.h"
#include "engine/partiql/select_pages.h"
#include "engine/partiql/select_plan.h"
#include "engine/partiql/statement_projection.h"
#include "engine/partiql/statement_token.h"
#include "engine/partiql/statement_write.h"
#include "engine/read/scan.h"

namespace dynapage {

namespace {

void AddCounters(const RequestCounters& from, RequestCounters* to) {
  to->items_returned += from.items_returned;
  to->items_evaluated += from.items_evaluated;
  to->bytes_read += from.bytes_read;
  if (!from.injected.empty()) to->injected = from.injected;
}

// One page of a SELECT: its plan, where the NextToken says it begins, then a Scan or the pinned partitions' page.
Status ExecuteSelect(Database& db, const RequestContext& ctx, const PartiqlStatement& s,
                     const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result) {
  const Catalog& catalog = db.catalog();
  SelectPlan plan;
  Status planned = PlanSelect(catalog, s, request, &plan);
  if (plan.table) result->table_name = plan.table->name;
  DP_RETURN_IF_ERROR(planned);

  const uint64_t fingerprint = StatementFingerprint(request);
  SelectPosition start;
  if (request.next_token) {
    DP_RETURN_IF_ERROR(DecodeNextToken(*request.next_token, fingerprint, &start));
    bool fits = plan.merged ? start.cursors.size() == plan.partitions.size()
                            : start.cursors.empty() && start.partition <= (plan.pinned ? plan.partitions.size() : 0);
    if (!fits) return Status::Validation("Invalid NextToken");
  }

  RequestCounters counters;
  RequestContext read_ctx = ctx;
  read_ctx.counters = &counters;
  std::optional<SelectPosition> next;
  if (!plan.pinned) {
    // Not every branch pins the partition key: a Scan with the whole clause as its filter.
    PartiqlExpressionBuilder b(request.parameters);
    ScanRequest scan;
    DP_RETURN_IF_ERROR(FillRead(plan, &b, Conjuncts(s.where.get()), s.projection, &scan));
    scan.expression_inputs = b.TakeInputs();
    scan.limit = request.limit;
    scan.exclusive_start_key = start.key;
    ProjectingSink projecting(sink, s.projection);
    ReadResult r;
    DP_RETURN_IF_ERROR(Scan(catalog, read_ctx, scan, &projecting, &r));
    AddCapacity(r.capacity, 1, &result->capacity);
    if (r.last_evaluated_key) next = SelectPosition{0, r.last_evaluated_key, {}};
  } else if (plan.merged) {
    DP_RETURN_IF_ERROR(MergedPage(catalog, read_ctx, plan, start, sink, result, &next));
  } else {
    ProjectingSink projecting(sink, s.projection);
    DP_RETURN_IF_ERROR(PartitionsPage(catalog, read_ctx, plan, start, &projecting, counters, result, &next));
  }
  if (next) result->next_token = EncodeNextToken(fingerprint, *next);
  if (ctx.counters) {
    AddCounters(counters, ctx.counters);
    ctx.counters->used_start_key = request.next_token.has_value();
    ctx.counters->returned_last_key = result->next_token.has_value();
  }
  return Status::OK();
}

}  // namespace

Status CheckParameterCount(const PartiqlStatement& statement, const std::vector<AttributeValue>& parameters) {
  if (statement.parameter_count != parameters.size()) {
    return Status::Validation("Number of parameters in request and statement don't match.");
  }
  return Status::OK();
}

Status ExecuteParsedStatement(Database& db, const RequestContext& ctx, const PartiqlStatement& statement,
                              const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result) {
  DP_RETURN_IF_ERROR(CheckParameterCount(statement, request.parameters));
  if (statement.kind == PartiqlStatement::Kind::kExists) {
    return Status::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
  }
  if (statement.kind == PartiqlStatement::Kind::kSelect) {
    return ExecuteSelect(db, ctx, statement, request, sink, result);
  }
  if (request.next_token) return Status::Validation("NextToken is only valid on a SELECT statement");
  return ExecuteStatementWrite(db, ctx, statement, request, sink, result);
}

Status ExecuteStatement(Database& db, const RequestContext& ctx, const ExecuteStatementRequest& request, ItemSink* sink,
                        ExecuteStatementResult* result) {
  PartiqlStatement statement;
  DP_RETURN_IF_ERROR(ParsePartiql(request.statement, &statement));
  return ExecuteParsedStatement(db, ctx, statement, request, sink, result);
}

}  // namespace dynapage
