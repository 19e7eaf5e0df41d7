// ExecuteTransaction: up to 100 PartiQL statements, all or nothing (docs/partiql.md).

#include "engine/partiql/execute_transaction.h"
#include "engine/base/messages.h"
#include "engine/model/json_types.h"
#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"
#include "server/operations/partiql_members.h"
#include "server/protocol/consumed_capacity_json.h"

namespace dynapage {

Status HandleExecuteTransaction(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> capacity;
  ExecuteTransactionRequest request;
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetString("ClientRequestToken", &request.client_request_token));
  ConstraintErrors errors;
  const rapidjson::Value* list = r.Get("TransactStatements");
  if (list) {
    DP_RETURN_IF_ERROR(CheckJsonList(*list));
    for (const auto& entry : list->GetArray()) {
      const std::string path = "transactStatements." + std::to_string(request.statements.size() + 1) + ".member.";
      DP_RETURN_IF_ERROR(ReadPartiqlStatementMembers(entry, path, &errors, &request.statements.emplace_back()));
    }
    if (request.statements.empty()) {
      errors.AddUnechoed("transactStatements", "Member must have length greater than or equal to 1");
    }
    if (request.statements.size() > kMaxTransactionActions) {
      errors.AddUnechoed("transactStatements", "Member must have length less than or equal to 100");
    }
    // The token's check compares the statements and parameters; ReturnConsumedCapacity may differ.
    request.fingerprint = JsonFingerprint(*list);
  } else {
    errors.AddNull("transactStatements");
  }
  CheckClientRequestToken(request.client_request_token, &errors);
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  ExecuteTransactionResult result;
  Status status = ExecuteTransaction(ctx.db, ctx.context, request, &result);
  if (!status.ok()) {
    if (!result.cancellation_reasons.empty()) ctx.error_extra = CancellationReasonsMember(result.cancellation_reasons);
    return status;
  }
  WriteTransactionItemsResponse(result.items, result.capacity, capacity, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
