// ReadPlan: a Query or Scan request checked and parsed, ready for the page loop.
//
// PrepareRead makes the checks Query and Scan share, in DynamoDB's order (docs/behaviour.md §3.2, §4, §7.1): expression
// and non-expression parameters not mixed; Select against the projection; ExpressionAttributeNames/Values
// present only with expressions, well-formed, all used; the expressions parsed; then the table, the index,
// ConsistentRead on a GSI, and the ExclusiveStartKey's shape. Query and Scan add their own checks (key
// condition, segments) around it, end with CheckIndexSelect, and read the page with ReadPlannedPage.

#ifndef DYNAPAGE_ENGINE_READ_READ_PLAN_H_
#define DYNAPAGE_ENGINE_READ_READ_PLAN_H_

#include <memory>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/catalog/catalog.h"
#include "engine/expressions/expression_ast.h"
#include "engine/expressions/key_condition.h"
#include "engine/expressions/projection.h"
#include "engine/model/document_path.h"
#include "engine/read/page_reader.h"
#include "engine/read/read_request.h"
#include "engine/read/start_key.h"

namespace dynapage {

struct ReadPlan {
  std::shared_ptr<const TableDefinition> table;
  const IndexDefinition* index = nullptr;  // points into *table
  std::optional<ParsedKeyCondition> key_condition;  // Query: KeyConditionExpression or KeyConditions, not yet bound
  std::unique_ptr<ConditionExpr> filter;
  bool has_projection = false;
  std::vector<DocumentPath> projection;
  std::optional<Projection> compiled_projection;  // of projection, once the plan is complete
  bool count_only = false;
  bool fetch_base_items = false;  // LSI read of attributes outside its projection
  std::vector<std::string> needed_attributes;  // top-level attributes the filter and projection read
  std::optional<std::string> start_storage_key;
};

// key_condition_expression / key_conditions: Query's (nullptr for Scan), parsed into plan->key_condition with
// the request's other expressions so that unused placeholders are judged across all of them.
Status PrepareRead(const Catalog& catalog, const ReadRequest& request, ReadKind kind,
                   const std::optional<std::string>* key_condition_expression,
                   const std::optional<std::vector<LegacyCondition>>* key_conditions, ReadPlan* plan);

// Select ALL_ATTRIBUTES on a GSI that does not project every attribute: DynamoDB checks it after everything
// else (docs/behaviour.md §3.2), so Query and Scan call this once their own checks have passed.
Status CheckIndexSelect(const ReadPlan& plan, const ReadRequest& request);

// The end of a Query or Scan whose range, order and single_item_range are in *spec: the page limit (the request's
// Limit, ctx's page size), the plan's filter, projection and start key, base items for an LSI read outside its
// projection, page chaos when ctx's policies ask for it (docs/testing-pagination.md); reads the page into sink and
// fills *result: count, LastEvaluatedKey and consumed capacity. Reports what the page did to ctx.counters when
// someone counts.
Status ReadPlannedPage(const Catalog& catalog, const RequestContext& ctx, const ReadPlan& plan,
                       const ReadRequest& request, PageSpec* spec, ItemSink* sink, ReadResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_READ_PLAN_H_
