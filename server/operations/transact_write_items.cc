// TransactWriteItems: up to 100 Put/Update/Delete/ConditionCheck actions applied all or nothing.

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "engine/base/messages.h"
#include "engine/model/json_types.h"
#include "engine/write/transactions.h"
#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"
#include "server/protocol/consumed_capacity_json.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {

// The members of one TransactItems entry, in the order DynamoDB's model lists them.
const char* const kActionMembers[] = {"ConditionCheck", "Put", "Delete", "Update"};
const TransactWriteAction::Kind kActionKinds[] = {
    TransactWriteAction::Kind::kConditionCheck, TransactWriteAction::Kind::kPut, TransactWriteAction::Kind::kDelete,
    TransactWriteAction::Kind::kUpdate};
const char* const kActionPaths[] = {"conditionCheck", "put", "delete", "update"};

Status ReadAction(const rapidjson::Value& entry, size_t position, ConstraintErrors* errors,
                  TransactWriteAction* action) {
  DP_RETURN_IF_ERROR(CheckJsonObject(entry));
  RequestReader e(entry);
  int found = -1;
  for (int i = 0; i < 4; i++) {
    if (!e.Has(kActionMembers[i])) continue;
    if (found >= 0) return Status::Validation("TransactItems can only contain one of Check, Put, Update or Delete");
    found = i;
  }
  if (found < 0) return Status::Validation("TransactItems can only contain one of Check, Put, Update or Delete");
  const rapidjson::Value& body = *e.Get(kActionMembers[found]);
  DP_RETURN_IF_ERROR(CheckJsonObject(body));
  action->kind = kActionKinds[found];
  const std::string path = "transactItems." + std::to_string(position) + ".member." + kActionPaths[found];

  RequestReader r(body);
  std::optional<std::string> table_name, return_on_failure;
  std::optional<AttributeMap> item_or_key;
  const bool is_put = action->kind == TransactWriteAction::Kind::kPut;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetAttributeMap(is_put ? "Item" : "Key", &item_or_key));
  DP_RETURN_IF_ERROR(r.GetString("ConditionExpression", &action->condition.expression));
  if (action->kind == TransactWriteAction::Kind::kUpdate) {
    DP_RETURN_IF_ERROR(r.GetString("UpdateExpression", &action->update_expression));
    if (!action->update_expression) errors->AddNull(path + ".updateExpression");
  }
  DP_RETURN_IF_ERROR(r.GetString("ReturnValuesOnConditionCheckFailure", &return_on_failure));
  DP_RETURN_IF_ERROR(r.GetExpressionInputs(&action->expression_inputs));

  errors->CheckTableNameOrArn(table_name, path + ".tableName");
  if (!item_or_key) errors->AddNull(path + (is_put ? ".item" : ".key"));
  if (action->kind == TransactWriteAction::Kind::kConditionCheck && !action->condition.expression) {
    errors->AddNull(path + ".conditionExpression");
  }
  errors->CheckEnum(return_on_failure, path + ".returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  action->table_name = table_name.value_or("");
  if (item_or_key) action->item_or_key = std::move(*item_or_key);
  action->condition.return_old_item_on_failure = return_on_failure && *return_on_failure == "ALL_OLD";
  return Status::OK();
}

}  // namespace

Status HandleTransactWriteItems(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> capacity, metrics;
  TransactWriteRequest request;
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetString("ReturnItemCollectionMetrics", &metrics));
  DP_RETURN_IF_ERROR(r.GetString("ClientRequestToken", &request.client_request_token));
  ConstraintErrors errors;
  const rapidjson::Value* items = r.Get("TransactItems");
  if (items) {
    DP_RETURN_IF_ERROR(CheckJsonList(*items));
    for (const auto& entry : items->GetArray()) {
      if (entry.IsNull()) continue;
      request.actions.emplace_back();
      DP_RETURN_IF_ERROR(ReadAction(entry, request.actions.size(), &errors, &request.actions.back()));
    }
    if (request.actions.empty()) {
      errors.Add("[]", "transactItems", "Member must have length greater than or equal to 1");
    } else if (request.actions.size() > kMaxTransactionActions) {
      errors.AddRaw(TransactItemsLimitMessage("TransactWriteItem", request.actions.size()));
    }
  } else {
    errors.AddNull("transactItems");
  }
  CheckClientRequestToken(request.client_request_token, &errors);
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  errors.CheckEnum(metrics, "returnItemCollectionMetrics", kReturnItemCollectionMetricsValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.fingerprint = JsonFingerprint(ctx.request);
  TransactWriteResult result;
  Status status = TransactWriteItems(ctx.db.writes(), ctx.context, request, &result);
  if (!status.ok()) {
    if (!result.cancellation_reasons.empty()) ctx.error_extra = CancellationReasonsMember(result.cancellation_reasons);
    return status;
  }
  JsonWriter& w = ctx.response;
  w.StartObject();
  WriteConsumedCapacityList(result.capacity, ParseCapacityDetail(capacity), &w);
  if (WantsItemCollectionMetrics(metrics)) {
    std::vector<std::pair<std::string, AttributeMap>> writes;
    for (const TransactWriteAction& a : request.actions) {
      if (a.kind != TransactWriteAction::Kind::kConditionCheck) writes.emplace_back(a.table_name, a.item_or_key);
    }
    WriteItemCollectionMetricsMap(ctx.db.catalog(), writes, &w);
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
