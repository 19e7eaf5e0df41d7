// BatchExecuteStatement: up to 25 PartiQL statements, each answered on its own (docs/partiql.md).

#include "engine/partiql/batch_execute_statement.h"
#include "engine/model/json_types.h"
#include "server/operations/operation_table.h"
#include "server/operations/partiql_members.h"
#include "server/protocol/consumed_capacity_json.h"
#include "server/protocol/wire_error.h"

namespace dynapage {

Status HandleBatchExecuteStatement(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> capacity;
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  ConstraintErrors errors;
  std::vector<BatchStatementRequest> batch;
  const rapidjson::Value* list = r.Get("Statements");
  if (list) {
    DP_RETURN_IF_ERROR(CheckJsonList(*list));
    for (const auto& entry : list->GetArray()) {
      const std::string path = "statements." + std::to_string(batch.size() + 1) + ".member.";
      DP_RETURN_IF_ERROR(ReadPartiqlStatementMembers(entry, path, &errors, &batch.emplace_back()));
    }
    if (batch.empty()) errors.AddUnechoed("statements", "Member must have length greater than or equal to 1");
    if (batch.size() > 25) errors.AddUnechoed("statements", "Member must have length less than or equal to 25");
  } else {
    errors.AddNull("statements");
  }
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  std::vector<BatchStatementResponse> responses;
  std::vector<ConsumedCapacity> consumed;
  DP_RETURN_IF_ERROR(BatchExecuteStatement(ctx.db, ctx.context, batch, &responses, &consumed));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Responses");
  w.StartArray();
  for (const BatchStatementResponse& response : responses) {
    w.StartObject();
    if (!response.error_code.empty()) {
      w.Key("Error");
      w.StartObject();
      w.Key("Code");
      w.String(response.error_code);
      w.Key("Message");
      WriteErrorMessage(response.error_message, &w);
      w.EndObject();
    }
    if (response.table_name) {
      w.Key("TableName");
      w.String(*response.table_name);
    }
    if (response.item) {
      w.Key("Item");
      WriteAttributeMap(*response.item, &w);
    }
    w.EndObject();
  }
  w.EndArray();
  WriteConsumedCapacityList(consumed, ParseCapacityDetail(capacity), &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
