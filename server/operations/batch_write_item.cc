// BatchWriteItem: up to 25 PutRequest/DeleteRequest entries across tables.

#include <algorithm>

#include "engine/model/json_types.h"
#include "engine/read/page_chaos.h"
#include "engine/write/batch_write_item.h"
#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"
#include "server/protocol/consumed_capacity_json.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
// The requests a test bench policy left unprocessed, as the client sent them, grouped by table in request order.
// The t-th table of the request is the t-th member of RequestItems, and its e-th entry the e-th non-null one.
void WriteUnprocessedItems(const rapidjson::Value& items, const std::vector<std::pair<size_t, size_t>>& unprocessed,
                           JsonWriter* w) {
  for (size_t i = 0; i < unprocessed.size(); i++) {
    auto [table, entry] = unprocessed[i];
    const auto& member = *(items.MemberBegin() + static_cast<rapidjson::SizeType>(table));
    if (i == 0 || unprocessed[i - 1].first != table) {
      w->Key(member.name.GetString(), member.name.GetStringLength());
      w->StartArray();
    }
    size_t non_null = 0;
    for (const auto& e : member.value.GetArray()) {
      if (e.IsNull()) continue;
      if (non_null++ == entry) {
        e.Accept(*w);
        break;
      }
    }
    if (i + 1 == unprocessed.size() || unprocessed[i + 1].first != table) w->EndArray();
  }
}
}  // namespace

Status HandleBatchWriteItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> capacity, metrics;
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetString("ReturnItemCollectionMetrics", &metrics));
  const rapidjson::Value* items = r.Get("RequestItems");
  ConstraintErrors errors;
  BatchWriteRequest request;
  if (items) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*items));
    for (auto t = items->MemberBegin(); t != items->MemberEnd(); ++t) {
      std::string name(t->name.GetString(), t->name.GetStringLength());
      std::vector<BatchWriteRequest::Entry> entries;
      if (!t->value.IsNull()) {
        DP_RETURN_IF_ERROR(CheckJsonList(t->value));
        // Entries hold items, made in place: growing the vector would move each one. More than the limit is an
        // error.
        entries.reserve(std::min<size_t>(t->value.Size(), kMaxBatchWriteRequests + 1));
        for (const auto& e : t->value.GetArray()) {
          if (e.IsNull()) continue;
          DP_RETURN_IF_ERROR(CheckJsonObject(e));
          RequestReader wr(e);
          const rapidjson::Value* put = wr.Get("PutRequest");
          const rapidjson::Value* del = wr.Get("DeleteRequest");
          // Made in place: every way on from here adds the entry or fails the request.
          BatchWriteRequest::Entry& entry = entries.emplace_back();
          if (put) {
            DP_RETURN_IF_ERROR(CheckJsonObject(*put));
            RequestReader put_reader(*put);
            const rapidjson::Value* item_json = put_reader.Get("Item");
            // Most items are stored straight from the request's JSON; the others, and every error, go
            // through an AttributeMap.
            if (!item_json || !WireItem::FromJson(*item_json, &entry.wire_item.emplace())) {
              entry.wire_item.reset();
              std::optional<AttributeMap> item;
              DP_RETURN_IF_ERROR(put_reader.GetAttributeMap("Item", &item));
              if (!item) {
                errors.AddNull("requestItems." + name + ".member.putRequest.item");
              } else {
                entry.item_or_key = std::move(*item);
              }
            }
          }
          if (del) {
            DP_RETURN_IF_ERROR(CheckJsonObject(*del));
            std::optional<AttributeMap> key;
            DP_RETURN_IF_ERROR(RequestReader(*del).GetAttributeMap("Key", &key));
            if (!key) {
              errors.AddNull("requestItems." + name + ".member.deleteRequest.key");
            } else {
              entry.is_put = false;
              entry.item_or_key = std::move(*key);
            }
          }
          if (!put == !del) {  // neither or both (dynalite's wording for either case)
            return Status::Validation(
                "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported "
                "datatypes");
          }
        }
      }
      errors.CheckTableNameOrArn(name, "requestItems.key");
      if (entries.empty() || entries.size() > 25) {
        errors.AddRaw(
            "Value '{" + name +
            "=[...]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: "
            "[Member must have length less than or equal to 25, Member must have length greater than or equal to 1]");
      }
      request.tables.emplace_back(name, std::move(entries));
    }
  }
  if (!items)
    errors.AddNull("requestItems");
  else if (items->MemberCount() == 0) {
    return Status::Validation(CohortText(ctx.context.cohorts, CohortTextId::kBatchWriteEmpty));
  }
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  errors.CheckEnum(metrics, "returnItemCollectionMetrics", kReturnItemCollectionMetricsValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  // The partition keys of the writes, for ItemCollectionMetrics, taken before the request is given away.
  std::vector<std::pair<std::string, AttributeMap>> collection_keys;
  if (WantsItemCollectionMetrics(metrics)) {
    for (const auto& [name, entries] : request.tables) {
      auto table = TableWithItemCollections(ctx.db.catalog(), name);
      if (!table) continue;
      const std::string& hash = table->key.hash.name;
      for (const auto& e : entries) {
        AttributeMap key;
        AttributeValue value;
        if (e.wire_item) {
          if (e.wire_item->Find(hash, &value)) key.emplace(hash, std::move(value));
        } else if (e.item_or_key.count(hash)) {
          key.emplace(hash, e.item_or_key.at(hash));
        }
        collection_keys.emplace_back(name, std::move(key));
      }
    }
  }
  // Page chaos or a fault rule may leave requests unprocessed (docs/testing-pagination.md).
  size_t total = 0;
  for (const auto& [name, entries] : request.tables) total += entries.size();
  request.leave_unprocessed = ChooseUnprocessed(ctx.context, BatchKind::kWrite, total, &request.unprocessed_note);
  BatchWriteResult result;
  DP_RETURN_IF_ERROR(BatchWriteItem(ctx.db.writes(), ctx.context, std::move(request), &result));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("UnprocessedItems");
  w.StartObject();
  if (!result.unprocessed.empty()) WriteUnprocessedItems(*items, result.unprocessed, &w);
  w.EndObject();
  WriteConsumedCapacityList(result.capacity, ParseCapacityDetail(capacity), &w);
  WriteItemCollectionMetricsMap(ctx.db.catalog(), collection_keys, &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
