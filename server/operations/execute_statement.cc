// ExecuteStatement: one PartiQL statement (docs/partiql.md).

#include "engine/partiql/execute_statement.h"
#include "engine/model/json_types.h"
#include "server/operations/operation_table.h"
#include "server/operations/partiql_members.h"
#include "server/operations/read_operation.h"

namespace dynapage {

Status HandleExecuteStatement(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ExecuteStatementRequest request;
  std::optional<std::string> capacity;
  ConstraintErrors errors;
  DP_RETURN_IF_ERROR(ReadPartiqlStatementMembers(ctx.request, "", &errors, &request));
  DP_RETURN_IF_ERROR(r.GetString("NextToken", &request.next_token));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &request.limit));
  if (request.next_token) {
    const std::string& token = *request.next_token;
    if (token.empty()) errors.Add(token, "nextToken", "Member must have length greater than or equal to 1");
    if (token.size() > 32768) errors.Add(token, "nextToken", "Member must have length less than or equal to 32768");
  }
  if (request.limit && *request.limit < 1) {
    errors.Add(std::to_string(*request.limit), "limit", "Member must have value greater than or equal to 1");
  }
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.index_capacity_detail = capacity && *capacity == "INDEXES";

  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Items");
  w.StartArray();
  ResponseSink sink(&w);
  ExecuteStatementResult result;
  Status status = ExecuteStatement(ctx.db, ctx.context, request, &sink, &result);
  if (!status.ok()) {
    if (result.condition_failure_item) {
      ctx.error_extra = "\"Item\":" + EncodeAttributeMap(*result.condition_failure_item);
    }
    return status;
  }
  w.EndArray();
  if (result.next_token) {
    w.Key("NextToken");
    w.String(*result.next_token);
  }
  if (!result.capacity.empty()) WriteConsumedCapacityMember(result.capacity[0], ParseCapacityDetail(capacity), &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
