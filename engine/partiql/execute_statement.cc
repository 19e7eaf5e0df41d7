#include "engine/partiql/execute_statement.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>

#include "engine/base/base64.h"
#include "engine/base/messages.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/value_compare.h"
#include "engine/partiql/partiql_expressions.h"
#include "engine/read/query.h"
#include "engine/read/scan.h"
#include "engine/write/update_item.h"

namespace dynapage {

namespace {

constexpr char kKeyNotPinned[] = "Where clause does not contain a mandatory equality on all key attributes";

// An IN may list at most this many partition-key values (another attribute: 100, the parser's limit).
constexpr size_t kMaxInPartitionKeys = 50;
// A read of several partitions (IN or OR) evaluates at most this many items a page, whatever the Limit.
constexpr int64_t kSeveralPartitionsPageItems = 10;

// FNV-1a: a NextToken names the statement and parameters it continues without holding them.
uint64_t Fingerprint(const ExecuteStatementRequest& request) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::string_view bytes) {
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  };
  mix(request.statement);
  for (const AttributeValue& p : request.parameters) mix(EncodeAttributeMap(AttributeMap{{"p", p}}));
  return h;
}

// Where a page of a SELECT begins: the partition reached and the last key evaluated in it; for ORDER BY a sort key
// over several partitions (a merge), where each partition was left instead.
struct PartitionCursor {
  bool done = false;
  std::optional<AttributeMap> after;  // the last key evaluated in the partition; none: not read yet
};
struct SelectPosition {
  size_t partition = 0;
  std::optional<AttributeMap> key;
  std::vector<PartitionCursor> cursors;  // a merge's, one per partition; empty otherwise
};

// A NextToken: base64 of {"f": fingerprint, "p": partition reached, "k": last evaluated key, "m": [cursor, …]},
// a cursor being null (not read yet), true (done) or the last key evaluated in its partition.
std::string EncodeToken(uint64_t fingerprint, const SelectPosition& position) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("f");
  w.String(std::to_string(fingerprint));
  w.Key("p");
  w.Uint64(position.partition);
  if (position.key) {
    w.Key("k");
    WriteAttributeMap(*position.key, &w);
  }
  if (!position.cursors.empty()) {
    w.Key("m");
    w.StartArray();
    for (const PartitionCursor& c : position.cursors) {
      if (c.done) {
        w.Bool(true);
      } else if (c.after) {
        WriteAttributeMap(*c.after, &w);
      } else {
        w.Null();
      }
    }
    w.EndArray();
  }
  w.EndObject();
  return Base64Encode(std::string_view(buffer.GetString(), buffer.GetSize()));
}

Status DecodeToken(const std::string& token, uint64_t fingerprint, SelectPosition* position) {
  const Status invalid = Status::Validation("Invalid NextToken");
  std::string json;
  if (!Base64Decode(token, &json).ok()) return invalid;
  rapidjson::Document doc;
  // Iterative: a token is the client's text, and its nesting must not drive the parser's recursion.
  doc.Parse<rapidjson::kParseIterativeFlag>(json.c_str(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return invalid;
  auto f = doc.FindMember("f");
  auto p = doc.FindMember("p");
  if (f == doc.MemberEnd() || !f->value.IsString() || p == doc.MemberEnd() || !p->value.IsUint64()) return invalid;
  if (f->value.GetString() != std::to_string(fingerprint)) {
    return Status::Validation("NextToken does not match request");
  }
  position->partition = p->value.GetUint64();
  auto k = doc.FindMember("k");
  if (k != doc.MemberEnd()) {
    AttributeMap start;
    if (!k->value.IsObject() || !DecodeAttributeMap(k->value, &start).ok()) return invalid;
    position->key = std::move(start);
  }
  auto m = doc.FindMember("m");
  if (m != doc.MemberEnd()) {
    if (!m->value.IsArray() || m->value.Empty()) return invalid;
    for (const auto& entry : m->value.GetArray()) {
      PartitionCursor c;
      if (entry.IsTrue()) {
        c.done = true;
      } else if (entry.IsObject()) {
        c.after.emplace();
        if (!DecodeAttributeMap(entry, &*c.after).ok()) return invalid;
      } else if (!entry.IsNull()) {
        return invalid;
      }
      position->cursors.push_back(std::move(c));
    }
  }
  return Status::OK();
}

// A projection of nested paths is answered from the whole item, each path under the name of its last step
// ("tags[1]"); a ProjectionExpression would nest them ({"tags": [the element]}) instead.
bool ProjectsNestedPaths(const std::vector<DocumentPath>& projection) {
  for (const DocumentPath& p : projection) {
    if (p.size() > 1) return true;
  }
  return false;
}

// Projects whole items for a projection of nested paths; otherwise (the read projected them) passes them through.
class ProjectingSink : public ItemSink {
 public:
  ProjectingSink(ItemSink* out, const std::vector<DocumentPath>& projection)
      : out_(out), projection_(projection), nested_(ProjectsNestedPaths(projection)) {}
  void AddJson(std::string_view item_json) override {
    AttributeMap item;
    if (!nested_ || !DecodeStoredAttributeMap(item_json, &item)) {
      out_->AddJson(item_json);
      return;
    }
    AddItem(item);
  }
  void AddItem(const AttributeMap& item) override {
    if (!nested_) {
      out_->AddItem(item);
      return;
    }
    out_->AddItem(PartiqlProjectedItem(projection_, item));
  }

 private:
  ItemSink* out_;
  const std::vector<DocumentPath>& projection_;
  const bool nested_;
};

std::string JoinConditions(PartiqlExpressionBuilder* b, const std::vector<const PartiqlCondition*>& parts,
                           Status* status) {
  std::string text;
  for (const PartiqlCondition* c : parts) {
    std::string one;
    Status s = b->Condition(*c, &one);
    if (!s.ok()) {
      *status = s;
      return "";
    }
    bool compound = c->kind == PartiqlCondition::Kind::kAnd || c->kind == PartiqlCondition::Kind::kOr;
    if (!text.empty()) text += " AND ";
    text += compound && parts.size() > 1 ? "(" + one + ")" : one;
  }
  return text;
}

std::string ProjectionText(PartiqlExpressionBuilder* b, const std::vector<DocumentPath>& projection) {
  std::string text;
  for (const DocumentPath& p : projection) text += (text.empty() ? "" : ", ") + b->Path(p);
  return text;
}

// A conjunct a KeyConditionExpression can hold for the sort key: sk op value, sk BETWEEN a AND b,
// begins_with(sk, value), with values of the key's type.
bool IsSortKeyCondition(const PartiqlCondition& c, const KeyAttribute& sort, const PartiqlExpressionBuilder& b) {
  auto is_sort = [&](const PartiqlOperand& o) {
    return o.kind == PartiqlOperand::Kind::kPath && o.path.size() == 1 && !o.path[0].is_index &&
           o.path[0].name == sort.name;
  };
  auto is_value = [&](const PartiqlOperand& o) {
    return (o.kind == PartiqlOperand::Kind::kLiteral || o.kind == PartiqlOperand::Kind::kParameter) &&
           b.ValueOf(o).type == sort.type;
  };
  switch (c.kind) {
    case PartiqlCondition::Kind::kCompare:
      return c.comparator != Comparator::kNe && is_sort(c.operands[0]) && is_value(c.operands[1]);
    case PartiqlCondition::Kind::kBetween:
      return is_sort(c.operands[0]) && is_value(c.operands[1]) && is_value(c.operands[2]) &&
             CompareOrdered(b.ValueOf(c.operands[1]), b.ValueOf(c.operands[2])) <= 0;
    case PartiqlCondition::Kind::kFunction:
      return c.function == "begins_with" && sort.type != AttrType::kN && is_sort(c.operands[0]) &&
             is_value(c.operands[1]);
    default:
      return false;
  }
}

void AddCounters(const RequestCounters& from, RequestCounters* to) {
  to->items_returned += from.items_returned;
  to->items_evaluated += from.items_evaluated;
  to->bytes_read += from.bytes_read;
  if (!from.injected.empty()) to->injected = from.injected;
}

// The top-level attributes a condition reads, in order without repeats; *has_or when an OR is anywhere in it.
// The parser bounds the depth of the tree, and so this recursion.
void ConditionAttributes(const PartiqlCondition& c, std::vector<std::string>* names, bool* has_or) {
  if (c.kind == PartiqlCondition::Kind::kOr) *has_or = true;
  for (const auto& child : c.children) ConditionAttributes(*child, names, has_or);
  for (const PartiqlOperand& o : c.operands) {
    if (o.kind != PartiqlOperand::Kind::kPath && o.kind != PartiqlOperand::Kind::kSize) continue;
    if (std::find(names->begin(), names->end(), o.path[0].name) == names->end()) names->push_back(o.path[0].name);
  }
}

// A keyed read of an index (its partition key pinned, no OR) may filter only on what the index holds; an unkeyed
// one simply matches nothing where an attribute is missing.
Status CheckIndexFilter(const TableDefinition& table, const IndexDefinition& index, const PartiqlCondition* where,
                        bool pinned) {
  if (!where || !pinned || index.projection == ProjectionType::kAll) return Status::OK();
  std::vector<std::string> names;
  bool has_or = false;
  ConditionAttributes(*where, &names, &has_or);
  if (has_or) return Status::OK();
  std::string missing;
  for (const std::string& name : names) {
    if (!index.Projects(name, table.key)) missing += (missing.empty() ? "" : ", ") + name;
  }
  if (missing.empty()) return Status::OK();
  return Status::Validation(std::string(kInvalidParameterPrefix) + "Secondary index " + index.name +
                            " does not project one or more filter attributes: [" + missing + "]");
}

Status CheckOrderBy(const PartiqlStatement& s, bool pinned, const KeySchema& key) {
  if (s.order_by.empty()) return Status::OK();
  if (!s.where) return Status::Validation("Must have WHERE clause in the statement when using ORDER BY clause.");
  if (!pinned) {
    return Status::Validation(
        "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.");
  }
  for (const PartiqlOrderKey& k : s.order_by) {
    if (k.path.size() != 1 || k.path[0].is_index || !key.IsKeyAttribute(k.path[0].name)) {
      return Status::Validation("Variable reference " + PartiqlPathText(k.path) +
                                " in ORDER BY clause must be part of the primary key");
    }
  }
  return Status::OK();
}

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

// A SELECT as planned: the target, the pinned partitions (in the order they are read) and the rest of the clause.
struct SelectPlan {
  const PartiqlStatement* statement = nullptr;
  const ExecuteStatementRequest* request = nullptr;
  const TableDefinition* table = nullptr;
  const KeySchema* key = nullptr;  // the target's
  std::vector<AttributeValue> partitions;
  bool forward = true;                        // the sort key's direction
  std::vector<const PartiqlCondition*> rest;  // the conjuncts that are not pure pins: the filter
  std::optional<int64_t> limit;               // evaluated items a page
};

// Fills what a Query and a Scan of the plan share: the target, the filter and the projected paths.
Status FillRead(const SelectPlan& plan, PartiqlExpressionBuilder* b, const std::vector<const PartiqlCondition*>& filter,
                const std::vector<DocumentPath>& projection, ReadRequest* r) {
  r->table_name = plan.table->name;
  r->index_name = plan.statement->index;
  Status status;
  if (!filter.empty()) r->filter_expression = JoinConditions(b, filter, &status);
  DP_RETURN_IF_ERROR(status);
  if (!projection.empty() && !ProjectsNestedPaths(projection)) r->projection_expression = ProjectionText(b, projection);
  r->consistent_read = plan.request->consistent_read;
  r->index_capacity_detail = plan.request->index_capacity_detail;
  return Status::OK();
}

// The Query of pinned partition i with that filter; a single partition's range is narrowed by the first sort-key
// condition of the filter.
Status PartitionQuery(const SelectPlan& plan, size_t i, std::vector<const PartiqlCondition*> filter,
                      const std::vector<DocumentPath>& projection, QueryRequest* query) {
  PartiqlExpressionBuilder b(plan.request->parameters);
  query->filter_may_read_keys = true;
  std::string key_condition = b.Path({PathElement::Name(plan.key->hash.name)}) + " = " + b.Value(plan.partitions[i]);
  if (plan.partitions.size() == 1 && plan.key->range) {
    for (size_t j = 0; j < filter.size(); j++) {
      if (!IsSortKeyCondition(*filter[j], *plan.key->range, b)) continue;
      std::string sort_condition;
      DP_RETURN_IF_ERROR(b.Condition(*filter[j], &sort_condition));
      key_condition += " AND " + sort_condition;
      filter.erase(filter.begin() + static_cast<std::ptrdiff_t>(j));
      break;
    }
  }
  query->key_condition_expression = key_condition;
  DP_RETURN_IF_ERROR(FillRead(plan, &b, filter, projection, query));
  query->expression_inputs = b.TakeInputs();
  query->scan_index_forward = plan.forward;
  return Status::OK();
}

// The pinned partitions one after another: a page reads on into the next partition until Limit or the page size.
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

// ORDER BY a sort key over several partitions: one order over all of them, by the ORDER BY keys, then the written
// order of the partitions. Each partition keeps its own cursor in the NextToken. A page first reads ahead, without
// filter and uncharged, up to the page's Limit (at most 10) of items from each partition's cursor and merges them
// to find which of them the page evaluates (Limit, then the page size); then it reads those, with the filter, from
// each partition, charged and counted, and answers the matches in the merged order.
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

Status ExecuteSelect(Database& db, const RequestContext& ctx, const PartiqlStatement& s,
                     const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result) {
  const Catalog& catalog = db.catalog();
  std::shared_ptr<const TableDefinition> table = catalog.FindTable(s.table);
  if (!table) return Status::NotFound(kResourceNotFound);
  result->table_name = table->name;
  const IndexDefinition* index = nullptr;
  if (s.index) {
    index = table->FindIndex(*s.index);
    if (!index) return Status::Validation("The table does not have the specified index");
    if (index->global && request.consistent_read) {
      return Status::Validation("Strongly consistent read is not supported on Global Secondary Indexes");
    }
    if (index->global && index->projection != ProjectionType::kAll) {
      std::string missing;
      for (const DocumentPath& p : s.projection) {
        if (index->Projects(p[0].name, table->key)) continue;
        missing += (missing.empty() ? "" : ", ") + p[0].name;
      }
      if (!missing.empty()) {
        return Status::Validation(std::string(kInvalidParameterPrefix) + "Global secondary index " + index->name +
                                  " does not project [" + missing + "]");
      }
    }
  }
  SelectPlan plan;
  plan.statement = &s;
  plan.request = &request;
  plan.table = table.get();
  plan.key = index ? &index->key : &table->key;
  const KeySchema& key = *plan.key;
  const size_t key_values = MaxInCandidates(s.where.get(), key.hash.name);
  if (key_values > kMaxInPartitionKeys) {
    return Status::Validation("The IN operator is provided with too many operands; number of operands: " +
                              std::to_string(key_values));
  }
  bool pinned = false;
  std::vector<AttributeValue>& partitions = plan.partitions;
  KeyPins(s.where.get(), key.hash.name, request.parameters, &pinned, &partitions);
  // A pin of another type than the key's matches no item.
  partitions.erase(std::remove_if(partitions.begin(), partitions.end(),
                                  [&](const AttributeValue& v) { return v.type != key.hash.type; }),
                   partitions.end());
  if (index) DP_RETURN_IF_ERROR(CheckIndexFilter(*table, *index, s.where.get(), pinned));
  DP_RETURN_IF_ERROR(CheckOrderBy(s, pinned, key));
  for (const PartiqlOrderKey& k : s.order_by) {
    if (k.path[0].name == key.hash.name) {
      std::stable_sort(partitions.begin(), partitions.end(), [&](const AttributeValue& a, const AttributeValue& b) {
        int c = CompareOrdered(a, b);
        return k.descending ? c > 0 : c < 0;
      });
    } else {
      plan.forward = !k.descending;
    }
  }
  plan.limit = request.limit;
  if (partitions.size() > 1) {
    plan.limit = std::min(plan.limit.value_or(kSeveralPartitionsPageItems), kSeveralPartitionsPageItems);
  }
  // The sort key leads ORDER BY over several partitions: only a merge of the partitions gives that order.
  const bool merged =
      pinned && partitions.size() > 1 && !s.order_by.empty() && s.order_by[0].path[0].name != key.hash.name;

  const uint64_t fingerprint = Fingerprint(request);
  SelectPosition start;
  if (request.next_token) {
    DP_RETURN_IF_ERROR(DecodeToken(*request.next_token, fingerprint, &start));
    bool fits = merged ? start.cursors.size() == partitions.size()
                       : start.cursors.empty() && start.partition <= (pinned ? partitions.size() : 0);
    if (!fits) return Status::Validation("Invalid NextToken");
  }

  RequestCounters counters;
  RequestContext read_ctx = ctx;
  read_ctx.counters = &counters;
  std::optional<SelectPosition> next;
  if (!pinned) {
    // Not every branch pins the partition key: a Scan with the whole clause as its filter.
    PartiqlExpressionBuilder b(request.parameters);
    ScanRequest scan;
    DP_RETURN_IF_ERROR(FillRead(plan, &b, Conjuncts(s.where.get()), s.projection, &scan));
    scan.expression_inputs = b.TakeInputs();
    scan.limit = request.limit;
    scan.exclusive_start_key = start.key;
    ProjectingSink projecting(sink, s.projection);
    ReadResult r;
    DP_RETURN_IF_ERROR(Scan(catalog, read_ctx, scan, &projecting, &r));
    AddCapacity(r.capacity, 1, &result->capacity);
    if (r.last_evaluated_key) next = SelectPosition{0, r.last_evaluated_key, {}};
  } else {
    // The pins are true of every item of the pinned partitions; the rest of the clause is the filter.
    for (const PartiqlCondition* c : Conjuncts(s.where.get())) {
      if (!IsPurePin(*c, key.hash.name)) plan.rest.push_back(c);
    }
    if (merged) {
      DP_RETURN_IF_ERROR(MergedPage(catalog, read_ctx, plan, start, sink, result, &next));
    } else {
      ProjectingSink projecting(sink, s.projection);
      DP_RETURN_IF_ERROR(PartitionsPage(catalog, read_ctx, plan, start, &projecting, counters, result, &next));
    }
  }
  if (next) result->next_token = EncodeToken(fingerprint, *next);
  if (ctx.counters) {
    AddCounters(counters, ctx.counters);
    ctx.counters->used_start_key = request.next_token.has_value();
    ctx.counters->returned_last_key = result->next_token.has_value();
  }
  return Status::OK();
}

// The values of the key attributes pinned by equality among the conjuncts; the others become the condition.
Status PinnedKey(const KeySchema& schema, const PartiqlStatement& s, const std::vector<AttributeValue>& parameters,
                 AttributeMap* key, std::vector<const PartiqlCondition*>* rest) {
  std::vector<const PartiqlCondition*> conjuncts = Conjuncts(s.where.get());
  std::vector<std::string> names = {schema.hash.name};
  if (schema.range) names.push_back(schema.range->name);
  PartiqlExpressionBuilder values(parameters);
  std::vector<bool> used(conjuncts.size(), false);
  for (const std::string& name : names) {
    bool found = false;
    for (size_t i = 0; i < conjuncts.size() && !found; i++) {
      const PartiqlCondition& c = *conjuncts[i];
      if (used[i] || c.kind != PartiqlCondition::Kind::kCompare || !IsPurePin(c, name)) continue;
      const PartiqlOperand& value = c.operands[0].kind == PartiqlOperand::Kind::kPath ? c.operands[1] : c.operands[0];
      (*key)[name] = values.ValueOf(value);
      used[i] = true;
      found = true;
    }
    if (!found) return Status::Validation(kKeyNotPinned);
  }
  for (size_t i = 0; i < conjuncts.size(); i++) {
    if (!used[i]) rest->push_back(conjuncts[i]);
  }
  return Status::OK();
}

ReturnValues ReturnValuesOf(PartiqlReturning r) {
  switch (r) {
    case PartiqlReturning::kNone:
      return ReturnValues::kNone;
    case PartiqlReturning::kAllOld:
      return ReturnValues::kAllOld;
    case PartiqlReturning::kAllNew:
      return ReturnValues::kAllNew;
    case PartiqlReturning::kModifiedOld:
      return ReturnValues::kUpdatedOld;
    case PartiqlReturning::kModifiedNew:
      return ReturnValues::kUpdatedNew;
  }
  return ReturnValues::kNone;
}

Status ExecuteWrite(Database& db, const RequestContext& ctx, const PartiqlStatement& s,
                    const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result) {
  PartiqlWrite write;
  DP_RETURN_IF_ERROR(PrepareStatementWrite(db.catalog(), s, request.parameters, &write));
  result->table_name = write.table_name;
  // What PutItem, UpdateItem and DeleteItem take alike; an INSERT returns nothing and never the old item.
  auto fill = [&](auto* r) {
    r->table_name = write.table_name;
    r->condition.expression = write.condition_expression;
    r->expression_inputs = std::move(write.inputs);
    if (write.kind == PartiqlStatement::Kind::kInsert) return;
    r->return_values = write.return_values;
    r->condition.return_old_item_on_failure = request.return_old_item_on_failure;
  };
  WriteItemResult w;
  Status status;
  switch (write.kind) {
    case PartiqlStatement::Kind::kInsert: {
      PutItemRequest put;
      fill(&put);
      put.item = std::move(write.item_or_key);
      status = PutItem(db.writes(), ctx, put, &w);
      if (status.code() == ErrorCode::kConditionalCheckFailed) {
        status = Status::Error(ErrorCode::kDuplicateItem, "Duplicate primary key exists in table");
      }
      break;
    }
    case PartiqlStatement::Kind::kUpdate: {
      UpdateItemRequest update;
      fill(&update);
      update.key = std::move(write.item_or_key);
      update.update_expression = write.update_expression;
      status = UpdateItem(db.writes(), ctx, update, &w);
      break;
    }
    default: {
      DeleteItemRequest del;
      fill(&del);
      del.key = std::move(write.item_or_key);
      status = DeleteItem(db.writes(), ctx, del, &w);
      break;
    }
  }
  if (!status.ok()) {
    result->condition_failure_item = std::move(w.condition_failure_item);
    result->failed_write_units = w.failed_write_units;
    return status;
  }
  AddCapacity(w.capacity, 1, &result->capacity);
  if (w.attributes && !w.attributes->empty()) sink->AddItem(*w.attributes);
  return Status::OK();
}

}  // namespace

Status CheckParameterCount(const PartiqlStatement& statement, const std::vector<AttributeValue>& parameters) {
  if (statement.parameter_count != parameters.size()) {
    return Status::Validation("Number of parameters in request and statement don't match.");
  }
  return Status::OK();
}

AttributeMap PartiqlProjectedItem(const std::vector<DocumentPath>& projection, const AttributeMap& item) {
  AttributeMap out;
  for (const DocumentPath& p : projection) {
    const AttributeValue* v = ResolvePath(item, p);
    if (v) out[PartiqlProjectedName(p)] = *v;
  }
  return out;
}

Status PrepareStatementWrite(const Catalog& catalog, const PartiqlStatement& s,
                             const std::vector<AttributeValue>& parameters, PartiqlWrite* out) {
  std::shared_ptr<const TableDefinition> table = catalog.FindTable(s.table);
  if (!table) return Status::NotFound(kResourceNotFound);
  out->kind = s.kind;
  out->table_name = table->name;
  PartiqlExpressionBuilder b(parameters);
  const KeySchema& schema = table->key;
  if (s.kind == PartiqlStatement::Kind::kInsert) {
    for (const auto& [name, operand] : s.item) out->item_or_key[name] = b.ValueOf(operand);
    std::vector<const KeyAttribute*> keys = {&schema.hash};
    if (schema.range) keys.push_back(&*schema.range);
    for (const KeyAttribute* k : keys) {
      auto it = out->item_or_key.find(k->name);
      if (it == out->item_or_key.end()) {
        return Status::Validation("Key attribute should be present in the item: Key " + k->name);
      }
      if (it->second.type != k->type) {
        return Status::Validation("Key attribute's data type should match its data type in table's schema: Key " +
                                  k->name);
      }
    }
    out->condition_expression = "attribute_not_exists(" + b.Name(schema.hash.name) + ")";
    out->inputs = b.TakeInputs();
    return Status::OK();
  }
  std::vector<const PartiqlCondition*> rest;
  DP_RETURN_IF_ERROR(PinnedKey(schema, s, parameters, &out->item_or_key, &rest));
  Status status;
  std::string extra = JoinConditions(&b, rest, &status);
  DP_RETURN_IF_ERROR(status);
  auto pk = [&]() { return b.Name(schema.hash.name); };
  auto wrapped = [&]() {
    return rest.size() == 1 && (rest[0]->kind == PartiqlCondition::Kind::kOr) ? "(" + extra + ")" : extra;
  };
  switch (s.kind) {
    case PartiqlStatement::Kind::kUpdate: {
      // Not an upsert: the item must exist, and the rest of the clause hold.
      std::string update;
      DP_RETURN_IF_ERROR(b.Update(s, &update));
      out->update_expression = update;
      out->condition_expression = "attribute_exists(" + pk() + ")" + (extra.empty() ? "" : " AND " + wrapped());
      break;
    }
    case PartiqlStatement::Kind::kExists:
      if (extra.empty())
        return Status::Validation("EXISTS() must contain a single item read with additional condition");
      out->condition_expression = "attribute_exists(" + pk() + ")" + " AND " + wrapped();
      break;
    default:
      // DELETE of a missing item is no error; of an item that fails the rest of the clause, it is.
      if (!extra.empty()) out->condition_expression = "attribute_not_exists(" + pk() + ") OR (" + extra + ")";
      break;
  }
  out->return_values = ReturnValuesOf(s.returning);
  out->inputs = b.TakeInputs();
  return Status::OK();
}

Status PrepareKeyRead(const Catalog& catalog, const PartiqlStatement& s, const std::vector<AttributeValue>& parameters,
                      bool* key_only, PartiqlKeyRead* out) {
  *key_only = false;
  std::shared_ptr<const TableDefinition> table = catalog.FindTable(s.table);
  if (!table) return Status::NotFound(kResourceNotFound);
  out->table_name = table->name;
  if (s.index) return Status::OK();
  std::vector<const PartiqlCondition*> rest;
  if (!PinnedKey(table->key, s, parameters, &out->key, &rest).ok() || !rest.empty()) return Status::OK();
  *key_only = true;
  if (!s.projection.empty() && !ProjectsNestedPaths(s.projection)) {
    PartiqlExpressionBuilder b(parameters);
    out->projection_expression = ProjectionText(&b, s.projection);
    out->inputs = b.TakeInputs();
  }
  return Status::OK();
}

Status ExecuteParsedStatement(Database& db, const RequestContext& ctx, const PartiqlStatement& statement,
                              const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result) {
  DP_RETURN_IF_ERROR(CheckParameterCount(statement, request.parameters));
  if (statement.kind == PartiqlStatement::Kind::kExists) {
    return Status::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
  }
  if (statement.kind == PartiqlStatement::Kind::kSelect) {
    return ExecuteSelect(db, ctx, statement, request, sink, result);
  }
  if (request.next_token) return Status::Validation("NextToken is only valid on a SELECT statement");
  return ExecuteWrite(db, ctx, statement, request, sink, result);
}

Status ExecuteStatement(Database& db, const RequestContext& ctx, const ExecuteStatementRequest& request, ItemSink* sink,
                        ExecuteStatementResult* result) {
  PartiqlStatement statement;
  DP_RETURN_IF_ERROR(ParsePartiql(request.statement, &statement));
  return ExecuteParsedStatement(db, ctx, statement, request, sink, result);
}

}  // namespace dynapage
