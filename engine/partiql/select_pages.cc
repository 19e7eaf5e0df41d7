#include "engine/partiql/select_pages.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/base/check.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/value_compare.h"
#include "engine/partiql/statement_projection.h"
#include "engine/read/query.h"

namespace dynapage {

namespace {

// Collects a page's items decoded (a merge orders them before they are answered).
class ItemCollector : public ItemSink {
 public:
  void AddJson(std::string_view item_json) override {
    AttributeMap item;
    if (DecodeStoredAttributeMap(item_json, &item)) items.push_back(std::move(item));
  }
  void AddItem(const AttributeMap& item) override { items.push_back(item); }
  std::vector<AttributeMap> items;
};

}  // namespace

Status PartitionsPage(const Catalog& catalog, const RequestContext& read_ctx, const SelectPlan& plan,
                      const SelectPosition& start, ItemSink* sink, const RequestCounters& counters,
                      ExecuteStatementResult* result, std::optional<SelectPosition>* next) {
  uint64_t evaluated = 0;
  const uint64_t max_page_bytes = read_ctx.max_page_bytes;
  RequestContext query_ctx = read_ctx;
  for (size_t i = start.partition; i < plan.partitions.size(); i++) {
    QueryRequest query;
    DP_RETURN_IF_ERROR(PartitionQuery(plan, i, plan.rest, plan.statement->projection, &query));
    if (plan.limit) query.limit = *plan.limit - static_cast<int64_t>(evaluated);
    if (i == start.partition) query.exclusive_start_key = start.key;
    query_ctx.max_page_bytes = max_page_bytes - std::min(max_page_bytes - 1, counters.bytes_read);
    ReadResult r;
    DP_RETURN_IF_ERROR(Query(catalog, query_ctx, query, sink, &r));
    AddCapacity(r.capacity, 1, &result->capacity);
    evaluated += r.scanned_count;
    if (r.last_evaluated_key) {
      *next = SelectPosition{i, r.last_evaluated_key, {}};
      return Status::OK();
    }
    bool full =
        (plan.limit && evaluated >= static_cast<uint64_t>(*plan.limit)) || counters.bytes_read >= max_page_bytes;
    if (full && i + 1 < plan.partitions.size()) {
      *next = SelectPosition{i + 1, std::nullopt, {}};
      return Status::OK();
    }
  }
  return Status::OK();
}

Status MergedPage(const Catalog& catalog, const RequestContext& read_ctx, const SelectPlan& plan,
                  const SelectPosition& start, ItemSink* sink, ExecuteStatementResult* result,
                  std::optional<SelectPosition>* next) {
  const PartiqlStatement& s = *plan.statement;
  const size_t n = plan.partitions.size();
  auto before = [&](const AttributeMap& a, size_t pa, const AttributeMap& b, size_t pb) {
    for (const PartiqlOrderKey& k : s.order_by) {
      auto x = a.find(k.path[0].name), y = b.find(k.path[0].name);
      if (x == a.end() || y == b.end()) continue;
      int c = CompareOrdered(x->second, y->second);
      if (c != 0) return k.descending ? c > 0 : c < 0;
    }
    return pa < pb;
  };
  // The partition whose next item comes first, or n when none is left; *blocked when a partition read ahead no
  // further than the items already taken but holds more (its next item is unknown).
  auto first = [&](const std::vector<std::vector<AttributeMap>>& items, const std::vector<size_t>& taken,
                   const std::vector<bool>& more, bool* blocked) {
    size_t best = n;
    *blocked = false;
    for (size_t p = 0; p < n; p++) {
      if (taken[p] == items[p].size()) {
        if (more[p]) *blocked = true;
        continue;
      }
      if (best == n || before(items[p][taken[p]], p, items[best][taken[best]], best)) best = p;
    }
    return best;
  };
  std::vector<PartitionCursor> cursors = start.cursors.empty() ? std::vector<PartitionCursor>(n) : start.cursors;
  const int64_t page_items = plan.limit.value_or(kSeveralPartitionsPageItems);

  // Read ahead: page chaos and the counters see only the reads of the page itself.
  RequestContext ahead_ctx = read_ctx;
  ahead_ctx.counters = nullptr;
  ahead_ctx.policies = nullptr;
  std::vector<std::vector<AttributeMap>> ahead(n);
  std::vector<bool> more(n, false);
  for (size_t p = 0; p < n; p++) {
    if (cursors[p].done) continue;
    QueryRequest query;
    DP_RETURN_IF_ERROR(PartitionQuery(plan, p, {}, {}, &query));
    query.limit = page_items;
    query.exclusive_start_key = cursors[p].after;
    ItemCollector collector;
    ReadResult r;
    DP_RETURN_IF_ERROR(Query(catalog, ahead_ctx, query, &collector, &r));
    ahead[p] = std::move(collector.items);
    more[p] = r.last_evaluated_key.has_value();
  }
  std::vector<size_t> evaluate(n, 0);
  uint64_t bytes = 0;
  for (int64_t taken = 0; taken < page_items && bytes < read_ctx.max_page_bytes; taken++) {
    bool blocked = false;
    size_t p = first(ahead, evaluate, more, &blocked);
    if (p == n || blocked) break;
    bytes += ItemSize(ahead[p][evaluate[p]]);
    evaluate[p]++;
  }

  // The page: each partition's share read with the filter, the keys kept for the merge.
  std::vector<DocumentPath> projection = s.projection;
  if (!projection.empty()) {
    for (const KeySchema* schema : {plan.key, &plan.table->key}) {
      for (const KeyAttribute* k : {&schema->hash, schema->range ? &*schema->range : nullptr}) {
        if (!k) continue;
        bool named = std::any_of(projection.begin(), projection.end(),
                                 [&](const DocumentPath& path) { return path[0].name == k->name; });
        if (!named) projection.push_back({PathElement::Name(k->name)});
      }
    }
  }
  RequestContext page_ctx = read_ctx;
  page_ctx.policies = nullptr;  // the read-ahead decided where this page ends
  std::vector<std::vector<AttributeMap>> matches(n);
  bool all_done = true;
  for (size_t p = 0; p < n; p++) {
    if (evaluate[p] > 0) {
      QueryRequest query;
      DP_RETURN_IF_ERROR(PartitionQuery(plan, p, plan.rest, projection, &query));
      query.limit = static_cast<int64_t>(evaluate[p]);
      query.exclusive_start_key = cursors[p].after;
      ItemCollector collector;
      ReadResult r;
      DP_RETURN_IF_ERROR(Query(catalog, page_ctx, query, &collector, &r));
      AddCapacity(r.capacity, 1, &result->capacity);
      matches[p] = std::move(collector.items);
      cursors[p].after = r.last_evaluated_key;
      if (!r.last_evaluated_key) cursors[p].done = true;  // the partition ran out (or lost items meanwhile)
    }
    if (!cursors[p].done) cursors[p].done = evaluate[p] == ahead[p].size() && !more[p];
    all_done = all_done && cursors[p].done;
  }
  std::vector<size_t> answered(n, 0);
  const std::vector<bool> none(n, false);
  for (;;) {
    bool blocked = false;
    size_t p = first(matches, answered, none, &blocked);
    if (p == n) break;
    const AttributeMap& item = matches[p][answered[p]++];
    sink->AddItem(s.projection.empty() ? item : PartiqlProjectedItem(s.projection, item));
  }
  if (!all_done) *next = SelectPosition{0, std::nullopt, std::move(cursors)};
  return Status::OK();
}

}  // namespace dynapage
