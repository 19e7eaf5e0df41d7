// Query: one page of the items of one partition of a table or index, in sort-key order (docs/behaviour.md §5, §2, §3).
//
// Validation runs in DynamoDB's order (§3.2): request-level checks (Select, expressions), table, index,
// ConsistentRead on a GSI, the ExclusiveStartKey's shape, the key condition against the schema, the start key
// against the key condition, a filter on key attributes. The page itself is one range scan (page_reader.h).

#ifndef DYNAPAGE_ENGINE_READ_QUERY_H_
#define DYNAPAGE_ENGINE_READ_QUERY_H_

#include "engine/base/request_context.h"
#include "engine/catalog/catalog.h"
#include "engine/read/page_reader.h"
#include "engine/read/read_request.h"

namespace dynapage {

struct QueryRequest : ReadRequest {
  std::optional<std::string> key_condition_expression;
  std::optional<std::vector<LegacyCondition>> key_conditions;
  bool scan_index_forward = true;
  // PartiQL: the filter is the rest of a WHERE clause, which may name key attributes (docs/partiql.md).
  bool filter_may_read_keys = false;
};

// Streams the page's items to sink (nothing for Select=COUNT) and fills *result.
Status Query(const Catalog& catalog, const RequestContext& ctx, const QueryRequest& request, ItemSink* sink,
             ReadResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_QUERY_H_
