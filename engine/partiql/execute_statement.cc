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

// A NextToken: base64 of {"f": fingerprint, "p": partition reached, "k": last evaluated key}.
std::string EncodeToken(uint64_t fingerprint, size_t partition, const std::optional<AttributeMap>& key) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("f");
  w.String(std::to_string(fingerprint));
  w.Key("p");
  w.Uint64(partition);
  if (key) {
    w.Key("k");
    WriteAttributeMap(*key, &w);
  }
  w.EndObject();
  return Base64Encode(std::string_view(buffer.GetString(), buffer.GetSize()));
}

Status DecodeToken(const std::string& token, uint64_t fingerprint, size_t* partition,
                   std::optional<AttributeMap>* key) {
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
  *partition = p->value.GetUint64();
  auto k = doc.FindMember("k");
  if (k != doc.MemberEnd()) {
    AttributeMap start;
    if (!k->value.IsObject() || !DecodeAttributeMap(k->value, &start).ok()) return invalid;
    *key = std::move(start);
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
  const KeySchema& key = index ? index->key : table->key;
  bool pinned = false;
  std::vector<AttributeValue> partitions;
  KeyPins(s.where.get(), key.hash.name, request.parameters, &pinned, &partitions);
  // A pin of another type than the key's matches no item.
  partitions.erase(std::remove_if(partitions.begin(), partitions.end(),
                                  [&](const AttributeValue& v) { return v.type != key.hash.type; }),
                   partitions.end());
  if (index) DP_RETURN_IF_ERROR(CheckIndexFilter(*table, *index, s.where.get(), pinned));
  DP_RETURN_IF_ERROR(CheckOrderBy(s, pinned, key));
  bool forward = true;
  for (const PartiqlOrderKey& k : s.order_by) {
    if (k.path[0].name == key.hash.name) {
      std::stable_sort(partitions.begin(), partitions.end(), [&](const AttributeValue& a, const AttributeValue& b) {
        int c = CompareOrdered(a, b);
        return k.descending ? c > 0 : c < 0;
      });
    } else {
      forward = !k.descending;
    }
  }

  const uint64_t fingerprint = Fingerprint(request);
  size_t start_partition = 0;
  std::optional<AttributeMap> start_key;
  if (request.next_token) {
    DP_RETURN_IF_ERROR(DecodeToken(*request.next_token, fingerprint, &start_partition, &start_key));
    if (start_partition > (pinned ? partitions.size() : 0)) return Status::Validation("Invalid NextToken");
  }

  ProjectingSink projecting(sink, s.projection);
  std::vector<const PartiqlCondition*> conjuncts = Conjuncts(s.where.get());
  RequestCounters counters;
  RequestContext read_ctx = ctx;
  read_ctx.counters = &counters;
  auto fill_common = [&](PartiqlExpressionBuilder* b, const std::vector<const PartiqlCondition*>& filter,
                         ReadRequest* r) -> Status {
    r->table_name = table->name;
    r->index_name = s.index;
    Status status;
    if (!filter.empty()) r->filter_expression = JoinConditions(b, filter, &status);
    DP_RETURN_IF_ERROR(status);
    if (!s.projection.empty() && !ProjectsNestedPaths(s.projection)) {
      r->projection_expression = ProjectionText(b, s.projection);
    }
    r->consistent_read = request.consistent_read;
    r->index_capacity_detail = request.index_capacity_detail;
    return Status::OK();
  };

  if (!pinned) {
    // Not every branch pins the partition key: a Scan with the whole clause as its filter.
    PartiqlExpressionBuilder b(request.parameters);
    ScanRequest scan;
    DP_RETURN_IF_ERROR(fill_common(&b, conjuncts, &scan));
    scan.expression_inputs = b.TakeInputs();
    scan.limit = request.limit;
    scan.exclusive_start_key = start_key;
    ReadResult r;
    DP_RETURN_IF_ERROR(Scan(catalog, read_ctx, scan, &projecting, &r));
    AddCapacity(r.capacity, 1, &result->capacity);
    if (r.last_evaluated_key) result->next_token = EncodeToken(fingerprint, 0, r.last_evaluated_key);
  } else {
    // The pins are true of every item of the pinned partitions; the rest of the clause is the filter.
    std::vector<const PartiqlCondition*> rest;
    for (const PartiqlCondition* c : conjuncts) {
      if (!IsPurePin(*c, key.hash.name)) rest.push_back(c);
    }
    uint64_t evaluated = 0;
    for (size_t i = start_partition; i < partitions.size(); i++) {
      PartiqlExpressionBuilder b(request.parameters);
      QueryRequest query;
      query.filter_may_read_keys = true;
      std::string key_condition = b.Path({PathElement::Name(key.hash.name)}) + " = " + b.Value(partitions[i]);
      std::vector<const PartiqlCondition*> filter = rest;
      if (partitions.size() == 1 && key.range) {
        for (size_t j = 0; j < filter.size(); j++) {
          if (!IsSortKeyCondition(*filter[j], *key.range, b)) continue;
          std::string sort_condition;
          DP_RETURN_IF_ERROR(b.Condition(*filter[j], &sort_condition));
          key_condition += " AND " + sort_condition;
          filter.erase(filter.begin() + static_cast<std::ptrdiff_t>(j));
          break;
        }
      }
      query.key_condition_expression = key_condition;
      DP_RETURN_IF_ERROR(fill_common(&b, filter, &query));
      query.expression_inputs = b.TakeInputs();
      query.scan_index_forward = forward;
      if (request.limit) query.limit = *request.limit - static_cast<int64_t>(evaluated);
      if (i == start_partition) query.exclusive_start_key = start_key;
      read_ctx.max_page_bytes = ctx.max_page_bytes - std::min(ctx.max_page_bytes - 1, counters.bytes_read);
      ReadResult r;
      DP_RETURN_IF_ERROR(Query(catalog, read_ctx, query, &projecting, &r));
      AddCapacity(r.capacity, 1, &result->capacity);
      evaluated += r.scanned_count;
      if (r.last_evaluated_key) {
        result->next_token = EncodeToken(fingerprint, i, r.last_evaluated_key);
        break;
      }
      bool full = (request.limit && evaluated >= static_cast<uint64_t>(*request.limit)) ||
                  counters.bytes_read >= ctx.max_page_bytes;
      if (full && i + 1 < partitions.size()) {
        result->next_token = EncodeToken(fingerprint, i + 1, std::nullopt);
        break;
      }
    }
  }
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
  WriteCondition condition;
  condition.expression = write.condition_expression;
  WriteItemResult w;
  Status status;
  switch (write.kind) {
    case PartiqlStatement::Kind::kInsert: {
      PutItemRequest put;
      put.table_name = write.table_name;
      put.item = std::move(write.item_or_key);
      put.condition = condition;
      put.expression_inputs = std::move(write.inputs);
      status = PutItem(db.writes(), ctx, put, &w);
      if (status.code() == ErrorCode::kConditionalCheckFailed) {
        status = Status::Error(ErrorCode::kDuplicateItem, "Duplicate primary key exists in table");
      }
      break;
    }
    case PartiqlStatement::Kind::kUpdate: {
      UpdateItemRequest update;
      update.table_name = write.table_name;
      update.key = std::move(write.item_or_key);
      update.update_expression = write.update_expression;
      update.return_values = write.return_values;
      update.condition = condition;
      update.condition.return_old_item_on_failure = request.return_old_item_on_failure;
      update.expression_inputs = std::move(write.inputs);
      status = UpdateItem(db.writes(), ctx, update, &w);
      break;
    }
    default: {
      DeleteItemRequest del;
      del.table_name = write.table_name;
      del.key = std::move(write.item_or_key);
      del.return_values = write.return_values;
      del.condition = condition;
      del.condition.return_old_item_on_failure = request.return_old_item_on_failure;
      del.expression_inputs = std::move(write.inputs);
      status = DeleteItem(db.writes(), ctx, del, &w);
      break;
    }
  }
  if (!status.ok()) {
    result->condition_failure_item = std::move(w.condition_failure_item);
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
