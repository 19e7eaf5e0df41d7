#include "server/operations/item_response.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "server/protocol/wire_error.h"

namespace dynapage {

ReturnValues ParseReturnValues(const std::optional<std::string>& value) {
  if (!value) return ReturnValues::kNone;
  if (*value == "ALL_OLD") return ReturnValues::kAllOld;
  if (*value == "UPDATED_OLD") return ReturnValues::kUpdatedOld;
  if (*value == "ALL_NEW") return ReturnValues::kAllNew;
  if (*value == "UPDATED_NEW") return ReturnValues::kUpdatedNew;
  return ReturnValues::kNone;
}

Status ReadWriteItemMembers(const RequestReader& r, WriteItemMembers* members, WriteCondition* condition,
                            ExpressionInputs* inputs) {
  DP_RETURN_IF_ERROR(r.GetString("ReturnValues", &members->return_values));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &members->return_consumed_capacity));
  DP_RETURN_IF_ERROR(r.GetString("ReturnItemCollectionMetrics", &members->return_item_collection_metrics));
  DP_RETURN_IF_ERROR(r.GetString("ConditionExpression", &condition->expression));
  DP_RETURN_IF_ERROR(r.GetLegacyConditions("Expected", &condition->expected));
  DP_RETURN_IF_ERROR(r.GetString("ConditionalOperator", &condition->conditional_operator));
  DP_RETURN_IF_ERROR(r.GetString("ReturnValuesOnConditionCheckFailure", &members->return_on_failure));
  condition->return_old_item_on_failure = members->return_on_failure && *members->return_on_failure == "ALL_OLD";
  return r.GetExpressionInputs(inputs);
}

void CheckWriteItemMembers(const WriteItemMembers& members, const WriteCondition& condition, bool is_update,
                           ConstraintErrors* errors) {
  errors->CheckEnum(members.return_consumed_capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  errors->CheckReturnValues(members.return_values, is_update);
  errors->CheckEnum(members.return_item_collection_metrics, "returnItemCollectionMetrics",
                    kReturnItemCollectionMetricsValues);
  errors->CheckEnum(members.return_on_failure, "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  errors->CheckEnum(condition.conditional_operator, "conditionalOperator", {"AND", "OR"});
}

bool WantsItemCollectionMetrics(const std::optional<std::string>& return_item_collection_metrics) {
  return return_item_collection_metrics && *return_item_collection_metrics == "SIZE";
}

std::shared_ptr<const TableDefinition> TableWithItemCollections(const Catalog& catalog, const std::string& name) {
  auto table = catalog.FindTable(name);
  if (!table) return nullptr;
  for (const IndexDefinition& index : table->indexes) {
    if (!index.global) return table;
  }
  return nullptr;
}

void WriteItemCollectionMetrics(const TableDefinition& table, const AttributeMap& item_or_key, JsonWriter* w) {
  auto key = item_or_key.find(table.key.hash.name);
  if (key == item_or_key.end()) return;
  w->StartObject();
  w->Key("ItemCollectionKey");
  w->StartObject();
  w->Key(key->first.c_str(), static_cast<rapidjson::SizeType>(key->first.size()));
  WriteAttributeValue(key->second, w);
  w->EndObject();
  w->Key("SizeEstimateRangeGB");
  w->StartArray();
  w->Double(0.0);
  w->Double(1.0);
  w->EndArray();
  w->EndObject();
}

void WriteItemCollectionMetricsMap(const Catalog& catalog,
                                   const std::vector<std::pair<std::string, AttributeMap>>& writes, JsonWriter* w) {
  std::vector<std::string> tables;  // in order of first appearance
  for (const auto& [name, item] : writes) {
    if (std::find(tables.begin(), tables.end(), name) == tables.end()) tables.push_back(name);
  }
  bool started = false;
  for (const std::string& name : tables) {
    auto table = TableWithItemCollections(catalog, name);
    if (!table) continue;
    if (!started) {
      w->Key("ItemCollectionMetrics");
      w->StartObject();
      started = true;
    }
    w->Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    w->StartArray();
    for (const auto& [write_table, item] : writes) {
      if (write_table == name) WriteItemCollectionMetrics(*table, item, w);
    }
    w->EndArray();
  }
  if (started) w->EndObject();
}

Status AnswerWriteItem(const Status& status, const WriteItemResult& result, const WriteItemMembers& members,
                       const std::string& table_name, const AttributeMap& item_or_key, OperationContext* ctx) {
  if (!status.ok()) {
    if (result.condition_failure_item) {
      ctx->error_extra = "\"Item\":" + EncodeAttributeMap(*result.condition_failure_item);
    }
    return status;
  }
  JsonWriter* w = &ctx->response;
  w->StartObject();
  if (result.attributes) {
    w->Key("Attributes");
    WriteAttributeMap(*result.attributes, w);
  }
  WriteConsumedCapacityMember(result.capacity, ParseCapacityDetail(members.return_consumed_capacity), w);
  if (WantsItemCollectionMetrics(members.return_item_collection_metrics)) {
    auto table = TableWithItemCollections(ctx->db.catalog(), table_name);
    if (table && item_or_key.count(table->key.hash.name)) {
      w->Key("ItemCollectionMetrics");
      WriteItemCollectionMetrics(*table, item_or_key, w);
    }
  }
  w->EndObject();
  return Status::OK();
}

std::string CancellationReasonsMember(const std::vector<CancellationReason>& reasons) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartArray();
  for (const CancellationReason& r : reasons) {
    w.StartObject();
    w.Key("Code");
    w.String(r.code);
    if (!r.message.empty()) {
      w.Key("Message");
      WriteErrorMessage(r.message, &w);
    }
    if (r.item) {
      w.Key("Item");
      WriteAttributeMap(*r.item, &w);
    }
    w.EndObject();
  }
  w.EndArray();
  return "\"CancellationReasons\":" + std::string(buffer.GetString(), buffer.GetSize());
}

std::string JsonFingerprint(const rapidjson::Value& request) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  request.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

void CheckClientRequestToken(const std::optional<std::string>& token, ConstraintErrors* errors) {
  if (!token) return;
  if (token->empty()) errors->Add(*token, "clientRequestToken", "Member must have length greater than or equal to 1");
  if (token->size() > 36) errors->Add(*token, "clientRequestToken", "Member must have length less than or equal to 36");
}

void WriteTransactionItemsResponse(const std::vector<std::optional<AttributeMap>>& items,
                                   const std::vector<ConsumedCapacity>& capacity,
                                   const std::optional<std::string>& return_consumed_capacity, JsonWriter* w) {
  w->StartObject();
  w->Key("Responses");
  w->StartArray();
  for (const auto& item : items) {
    w->StartObject();
    if (item) {
      w->Key("Item");
      WriteAttributeMap(*item, w);
    }
    w->EndObject();
  }
  w->EndArray();
  WriteConsumedCapacityList(capacity, ParseCapacityDetail(return_consumed_capacity), w);
  w->EndObject();
}

}  // namespace dynapage
