// TransactGetItems: up to 100 items read from one consistent snapshot.

#include <utility>
#include <vector>

#include "engine/base/messages.h"
#include "engine/model/json_types.h"
#include "engine/read/transact_get_items.h"
#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"
#include "server/protocol/consumed_capacity_json.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleTransactGetItems(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> capacity;
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  ConstraintErrors errors;
  std::vector<TransactGetAction> actions;
  const rapidjson::Value* items = r.Get("TransactItems");
  if (items) {
    DP_RETURN_IF_ERROR(CheckJsonList(*items));
    for (const auto& entry : items->GetArray()) {
      if (entry.IsNull()) continue;
      DP_RETURN_IF_ERROR(CheckJsonObject(entry));
      const std::string path = "transactItems." + std::to_string(actions.size() + 1) + ".member.get";
      actions.emplace_back();
      TransactGetAction& action = actions.back();
      const rapidjson::Value* get = RequestReader(entry).Get("Get");
      if (!get) {
        errors.AddNull(path);
        continue;
      }
      DP_RETURN_IF_ERROR(CheckJsonObject(*get));
      RequestReader g(*get);
      std::optional<std::string> table_name;
      std::optional<AttributeMap> key;
      DP_RETURN_IF_ERROR(g.GetString("TableName", &table_name));
      DP_RETURN_IF_ERROR(g.GetAttributeMap("Key", &key));
      DP_RETURN_IF_ERROR(g.GetString("ProjectionExpression", &action.projection_expression));
      DP_RETURN_IF_ERROR(g.GetExpressionInputs(&action.expression_inputs));
      errors.CheckTableNameOrArn(table_name, path + ".tableName");
      if (!key) errors.AddNull(path + ".key");
      action.table_name = table_name.value_or("");
      if (key) action.key = std::move(*key);
    }
    if (actions.empty()) {
      errors.Add("[]", "transactItems", "Member must have length greater than or equal to 1");
    } else if (actions.size() > kMaxTransactionActions) {
      errors.AddRaw(TransactItemsLimitMessage("TransactGetItem", actions.size()));
    }
  } else {
    errors.AddNull("transactItems");
  }
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  TransactGetResult result;
  Status status = TransactGetItems(ctx.db.catalog(), ctx.context, actions, &result);
  if (!status.ok()) {
    if (!result.cancellation_messages.empty()) {
      std::vector<CancellationReason> reasons;
      for (std::string& message : result.cancellation_messages) {
        reasons.push_back({message.empty() ? "None" : "ValidationError", std::move(message), std::nullopt});
      }
      ctx.error_extra = CancellationReasonsMember(reasons);
    }
    return status;
  }
  WriteTransactionItemsResponse(result.items, result.capacity, capacity, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
