// BatchGetItem: up to 100 keys across tables; the rest of a response over 16 MB comes back as UnprocessedKeys.

#include "engine/model/json_types.h"
#include "engine/read/batch_get_item.h"
#include "server/operations/operation_table.h"
#include "server/protocol/consumed_capacity_json.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
void WriteKeysAndAttributes(const BatchGetRequest::TableKeys& t, const std::vector<AttributeMap>& keys,
                            JsonWriter* w) {
  w->StartObject();
  w->Key("Keys");
  w->StartArray();
  for (const auto& key : keys) WriteAttributeMap(key, w);
  w->EndArray();
  if (t.consistent_read) {
    w->Key("ConsistentRead");
    w->Bool(true);
  }
  if (t.projection_expression) {
    w->Key("ProjectionExpression");
    w->String(*t.projection_expression);
  }
  if (t.attributes_to_get) {
    w->Key("AttributesToGet");
    w->StartArray();
    for (const auto& a : *t.attributes_to_get) w->String(a);
    w->EndArray();
  }
  if (t.expression_inputs.names) {
    w->Key("ExpressionAttributeNames");
    w->StartObject();
    for (const auto& [k, v] : *t.expression_inputs.names) {
      w->Key(k.c_str(), static_cast<rapidjson::SizeType>(k.size()));
      w->String(v);
    }
    w->EndObject();
  }
  w->EndObject();
}
}  // namespace

Status HandleBatchGetItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> capacity;
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  const rapidjson::Value* items = r.Get("RequestItems");
  ConstraintErrors errors;
  BatchGetRequest request;
  if (items) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*items));
    for (auto t = items->MemberBegin(); t != items->MemberEnd(); ++t) {
      BatchGetRequest::TableKeys table;
      table.table_name.assign(t->name.GetString(), t->name.GetStringLength());
      std::string path = "requestItems." + table.table_name + ".member";
      if (t->value.IsNull()) continue;
      DP_RETURN_IF_ERROR(CheckJsonObject(t->value));
      RequestReader tr(t->value);
      std::optional<bool> consistent;
      DP_RETURN_IF_ERROR(tr.GetBoolean("ConsistentRead", &consistent));
      DP_RETURN_IF_ERROR(tr.GetStringList("AttributesToGet", &table.attributes_to_get));
      DP_RETURN_IF_ERROR(tr.GetString("ProjectionExpression", &table.projection_expression));
      DP_RETURN_IF_ERROR(tr.GetExpressionInputs(&table.expression_inputs));
      table.consistent_read = consistent.value_or(false);
      const rapidjson::Value* keys = tr.Get("Keys");
      if (keys) {
        DP_RETURN_IF_ERROR(CheckJsonList(*keys));
        for (const auto& k : keys->GetArray()) {
          if (k.IsNull()) continue;
          AttributeMap key;
          DP_RETURN_IF_ERROR(DecodeAttributeMap(k, &key));
          table.keys.push_back(std::move(key));
        }
        if (table.keys.empty()) {
          errors.Add("[]", path + ".keys", "Member must have length greater than or equal to 1");
        } else if (table.keys.size() > 100) {
          errors.AddUnechoed("RequestItems." + table.table_name + ".member.Keys",
                             "Member must have length less than or equal to 100");
        }
      } else {
        errors.AddNull(path + ".keys");
      }
      if (table.attributes_to_get && table.attributes_to_get->empty()) {
        errors.Add("[]", path + ".attributesToGet", "Member must have length greater than or equal to 1");
      }
      errors.CheckTableNameOrArn(table.table_name, "requestItems.key");
      request.tables.push_back(std::move(table));
    }
  }
  if (!items) errors.AddNull("requestItems");
  else if (items->MemberCount() == 0) {
    return Status::Validation(CohortText(ctx.context.cohorts, CohortTextId::kBatchGetEmpty));
  }
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  BatchGetResult result;
  DP_RETURN_IF_ERROR(BatchGetItem(ctx.db.catalog(), ctx.context, request, &result));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Responses");
  w.StartObject();
  for (const auto& [name, list] : result.responses) {
    w.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    w.StartArray();
    for (const auto& item : list) WriteAttributeMap(item, &w);
    w.EndArray();
  }
  w.EndObject();
  w.Key("UnprocessedKeys");
  w.StartObject();
  for (const auto& [name, keys] : result.unprocessed) {
    for (const auto& t : request.tables) {
      if (t.table_name != name) continue;
      w.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
      WriteKeysAndAttributes(t, keys, &w);
    }
  }
  w.EndObject();
  WriteConsumedCapacityList(result.capacity, ParseCapacityDetail(capacity), &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
