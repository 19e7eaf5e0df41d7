#include "engine/read/batch_get_item.h"

#include <set>

#include "engine/base/messages.h"
#include "engine/read/get_item.h"
#include "engine/read/page_chaos.h"
#include "engine/storage/item_key.h"
#include "engine/storage/table_items.h"

namespace dynapage {

namespace {
const char kDuplicates[] = "Provided list of item keys contains duplicates";
}  // namespace

Status BatchGetItem(const Catalog& catalog, const RequestContext& ctx, const BatchGetRequest& request,
                    BatchGetResult* result) {
  size_t total = 0;
  for (const auto& t : request.tables) total += t.keys.size();
  if (total > kMaxBatchGetKeys) return Status::Validation("Too many items requested for the BatchGetItem call");
  std::vector<std::shared_ptr<const TableDefinition>> tables;
  std::vector<std::optional<Projection>> projections(request.tables.size());
  for (size_t i = 0; i < request.tables.size(); i++) {
    const auto& t = request.tables[i];
    DP_RETURN_IF_ERROR(
        PrepareItemProjection(t.projection_expression, t.attributes_to_get, t.expression_inputs, &projections[i]));
  }
  for (const auto& t : request.tables) {
    auto table = catalog.FindTable(t.table_name);
    if (!table) return Status::NotFound(kResourceNotFound);
    std::set<std::string> seen;
    for (const auto& key : t.keys) {
      DP_RETURN_IF_ERROR(ValidateKey(table->key, key));
      if (!seen.insert(TableItemKey(*table, key)).second) return Status::Validation(kDuplicates);
    }
    tables.push_back(table);
  }
  // Page chaos or a fault rule may leave keys unprocessed (docs/testing-pagination.md): they are not read.
  std::string injected;
  std::vector<bool> left = ChooseUnprocessed(ctx, BatchKind::kGet, total, &injected);
  if (ctx.counters && !injected.empty()) ctx.counters->injected = "BatchGetItem: " + injected;
  size_t position = 0;
  uint64_t response_bytes = 0;
  for (size_t i = 0; i < request.tables.size(); i++) {
    const auto& t = request.tables[i];
    std::vector<AttributeMap> items, unprocessed;
    double units = 0;
    for (const auto& key : t.keys) {
      bool left_by_policy = !left.empty() && left[position];
      position++;
      if (left_by_policy || response_bytes >= kMaxBatchGetResponseBytes) {
        unprocessed.push_back(key);
        continue;
      }
      AttributeMap item;
      bool found = false;
      uint64_t size = 0;
      DP_RETURN_IF_ERROR(ReadTableItem(catalog.storage(), *tables[i], key, &item, &found, &size));
      units += ReadUnits(found ? size : 0, t.consistent_read);
      if (found) {
        response_bytes += size;
        items.push_back(projections[i] ? projections[i]->Apply(item) : std::move(item));
      }
    }
    result->responses.emplace_back(t.table_name, std::move(items));
    if (!unprocessed.empty()) result->unprocessed.emplace_back(t.table_name, std::move(unprocessed));
    ConsumedCapacity c;
    c.table_name = t.table_name;
    c.table_units = units;
    result->capacity.push_back(c);
  }
  return Status::OK();
}

}  // namespace dynapage
