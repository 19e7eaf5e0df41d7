// Query: one page of one partition of a table or index.

#include "engine/read/query.h"
#include "server/operations/operation_table.h"

#include "server/operations/read_operation.h"

namespace dynapage {

Status HandleQuery(OperationContext& ctx) {
  RequestReader r(ctx.request);
  QueryRequest request;
  std::optional<std::string> capacity;
  std::optional<bool> forward;
  ConstraintErrors errors;
  DP_RETURN_IF_ERROR(r.GetString("KeyConditionExpression", &request.key_condition_expression));
  DP_RETURN_IF_ERROR(r.GetLegacyConditions("KeyConditions", &request.key_conditions));
  DP_RETURN_IF_ERROR(r.GetBoolean("ScanIndexForward", &forward));
  DP_RETURN_IF_ERROR(ReadCommonReadMembers(r, "QueryFilter", nullptr, &request, &capacity, &errors));
  DP_RETURN_IF_ERROR(errors.ToStatus());
  request.scan_index_forward = forward.value_or(true);
  return WriteReadResponse(ctx, request, ParseCapacityDetail(capacity), [&](ItemSink* sink, ReadResult* result) {
    return Query(ctx.db.catalog(), ctx.context, request, sink, result);
  });
}

}  // namespace dynapage
