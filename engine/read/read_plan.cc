#include "engine/read/read_plan.h"

#include "engine/base/messages.h"

#include <algorithm>
#include <set>

#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/expression_parser.h"
#include "engine/expressions/legacy_condition.h"
#include "engine/read/page_chaos.h"
#include "engine/storage/item_key.h"
#include "engine/storage/table_items.h"

namespace dynapage {

namespace {

// Select and projection rules (docs/behaviour.md §4). Query's messages carry "1 validation error detected: ", Scan's
// don't.
Status CheckSelect(const ReadRequest& r, ReadKind kind) {
  const std::string prefix = kind == ReadKind::kQuery ? kValidationEnvelope : "";
  if (!r.select) return Status::OK();
  const std::string& select = *r.select;
  bool has_projection = r.projection_expression.has_value();
  bool has_attributes = r.attributes_to_get.has_value();
  if (select == "SPECIFIC_ATTRIBUTES" && !has_projection && !has_attributes) {
    return Status::Validation(
               prefix +
               "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")
        .WithDetail(ErrorDetail::kSpecificAttributesWithoutProjection);
  }
  if (select != "SPECIFIC_ATTRIBUTES" && (has_projection || has_attributes)) {
    std::string what = select == "COUNT" ? "only the Count" : select;
    return Status::Validation(prefix + "Cannot specify the " +
                              (has_projection ? "ProjectionExpression" : "AttributesToGet") + " when choosing to get " +
                              what);
  }
  if (select == "ALL_PROJECTED_ATTRIBUTES" && !r.index_name) {
    return Status::Validation(prefix + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  return Status::OK();
}

Status CheckMixedParameters(const ReadRequest& r, ReadKind kind,
                            const std::optional<std::string>* key_condition_expression,
                            const std::optional<std::vector<LegacyCondition>>* key_conditions) {
  // KeyConditions conflicts only with KeyConditionExpression: DynamoDB accepts it beside a FilterExpression or a
  // ProjectionExpression, and names it only when KeyConditionExpression is there too.
  std::vector<std::string> legacy, modern;
  const bool has_key_expression = key_condition_expression && *key_condition_expression;
  if (r.attributes_to_get) legacy.push_back("AttributesToGet");
  if (r.legacy_filter) legacy.push_back(kind == ReadKind::kQuery ? "QueryFilter" : "ScanFilter");
  if (r.conditional_operator) legacy.push_back("ConditionalOperator");
  if (key_conditions && *key_conditions && has_key_expression) legacy.push_back("KeyConditions");
  if (r.projection_expression) modern.push_back("ProjectionExpression");
  if (r.filter_expression) modern.push_back("FilterExpression");
  if (has_key_expression) modern.push_back("KeyConditionExpression");
  if (legacy.empty() || modern.empty()) return Status::OK();
  return Status::Validation(ExpressionAttributes::MixedParametersMessage(legacy, modern));
}

// The attributes an index entry holds: table and index keys, and an INCLUDE projection's attributes.
std::vector<DocumentPath> ProjectedPaths(const TableDefinition& table, const IndexDefinition& index) {
  std::set<std::string> names(index.non_key_attributes.begin(), index.non_key_attributes.end());
  for (const KeySchema* key : {&table.key, &index.key}) {
    for (size_t i = 0; i < key->hash_count(); i++) names.insert(key->hash_at(i).name);
    for (size_t i = 0; i < key->range_count(); i++) names.insert(key->range_at(i).name);
  }
  std::vector<DocumentPath> paths;
  for (const auto& name : names) paths.push_back(DocumentPath{PathElement::Name(name)});
  return paths;
}

void AddRootName(const DocumentPath& path, std::vector<std::string>* names) {
  if (path.empty() || path[0].is_index) return;
  for (const auto& n : *names) {
    if (n == path[0].name) return;
  }
  names->push_back(path[0].name);
}
}  // namespace

Status PrepareRead(const Catalog& catalog, const ReadRequest& r, ReadKind kind,
                   const std::optional<std::string>* key_condition_expression,
                   const std::optional<std::vector<LegacyCondition>>* key_conditions, ReadPlan* plan) {
  DP_RETURN_IF_ERROR(CheckMixedParameters(r, kind, key_condition_expression, key_conditions));
  DP_RETURN_IF_ERROR(CheckSelect(r, kind));
  if (r.attributes_to_get) {
    std::set<std::string> seen;
    for (const auto& a : *r.attributes_to_get) {
      if (!seen.insert(a).second) {
        return Status::Validation(std::string(kInvalidParameterPrefix) + "Duplicate value in attribute name: " + a);
      }
    }
  }

  // Placeholders are allowed only alongside expressions that can use them.
  bool has_key_expression = key_condition_expression && *key_condition_expression;
  const ExpressionNameMap* names = r.expression_inputs.names ? &*r.expression_inputs.names : nullptr;
  const ExpressionValueMap* values = r.expression_inputs.values ? &*r.expression_inputs.values : nullptr;
  if (names && !r.filter_expression && !r.projection_expression && !has_key_expression) {
    return Status::Validation(ExpressionAttributes::NamesWithoutExpressionsMessage());
  }
  if (values && !r.filter_expression && !has_key_expression) {
    std::vector<std::string> missing = {"FilterExpression"};
    if (kind == ReadKind::kQuery) missing.push_back("KeyConditionExpression");
    return Status::Validation(ExpressionAttributes::ValuesWithoutExpressionsMessage(missing));
  }
  DP_RETURN_IF_ERROR(ExpressionAttributes::ValidateNames(names));
  DP_RETURN_IF_ERROR(ExpressionAttributes::ValidateValues(values));
  ExpressionAttributes attrs(names, values);
  if (has_key_expression) {
    plan->key_condition.emplace();
    DP_RETURN_IF_ERROR(ParseKeyConditionExpression(**key_condition_expression, &attrs, &*plan->key_condition));
  }
  if (r.filter_expression) {
    DP_RETURN_IF_ERROR(ParseCondition(*r.filter_expression, "FilterExpression", &attrs, &plan->filter));
  }
  if (r.projection_expression) {
    DP_RETURN_IF_ERROR(ParseProjection(*r.projection_expression, &attrs, &plan->projection));
    plan->has_projection = true;
  }
  DP_RETURN_IF_ERROR(attrs.CheckAllUsed());
  if (key_conditions && *key_conditions) {
    plan->key_condition.emplace();
    DP_RETURN_IF_ERROR(ParseLegacyKeyConditions(**key_conditions, &*plan->key_condition));
  }
  if (r.legacy_filter) {
    bool use_or = r.conditional_operator && *r.conditional_operator == "OR";
    if (!r.legacy_filter->empty()) DP_RETURN_IF_ERROR(ConvertLegacyFilter(*r.legacy_filter, use_or, &plan->filter));
  }
  if (r.attributes_to_get) {
    for (const auto& a : *r.attributes_to_get) plan->projection.push_back(DocumentPath{PathElement::Name(a)});
    plan->has_projection = true;
  }
  plan->count_only = r.select && *r.select == "COUNT";

  plan->table = catalog.FindTable(r.table_name);
  if (!plan->table) return Status::NotFound(kResourceNotFound);
  if (r.index_name) {
    plan->index = plan->table->FindIndex(*r.index_name);
    // A vector index is read only by SearchVectors (docs/vector-search.md).
    if (!plan->index && plan->table->FindVectorIndex(*r.index_name)) {
      if (r.consistent_read)
        return Status::Validation("Consistent reads are not supported on global secondary indexes");
      return Status::Validation(kind == ReadKind::kQuery ? "Query operation not supported on this index type."
                                                         : "Scan operation not supported on this index type");
    }
    if (!plan->index) {
      return Status::Validation("The table does not have the specified index: " + *r.index_name);
    }
    if (plan->index->global && r.consistent_read) {
      return Status::Validation("Consistent reads are not supported on global secondary indexes");
    }
    bool all_attributes = r.select && *r.select == "ALL_ATTRIBUTES";
    if (plan->index->projection != ProjectionType::kAll) {
      if (plan->index->global) {
        // A GSI cannot fetch from the table: asking for what it does not hold is an error, not an empty item.
        // DynamoDB lists the attributes in brackets ("does not project [a]"); several are listed in expression order.
        std::vector<std::string_view> missing;
        for (const auto& p : plan->projection) {
          if (!p.empty() && !p[0].is_index && !plan->index->Projects(p[0].name, plan->table->key) &&
              std::find(missing.begin(), missing.end(), p[0].name) == missing.end()) {
            missing.push_back(p[0].name);
          }
        }
        if (!missing.empty()) {
          std::string names;
          for (std::string_view name : missing) names.append(names.empty() ? "" : ", ").append(name);
          return Status::Validation(std::string(kInvalidParameterPrefix) + "Global secondary index " +
                                    plan->index->name + " does not project [" + names + "]");
        }
      } else {
        bool outside = all_attributes;
        for (const auto& p : plan->projection) {
          if (!p.empty() && !p[0].is_index && !plan->index->Projects(p[0].name, plan->table->key)) outside = true;
        }
        if (plan->filter) {
          std::vector<DocumentPath> paths;
          CollectConditionPaths(*plan->filter, &paths);
          for (const auto& p : paths) {
            if (!p.empty() && !p[0].is_index && !plan->index->Projects(p[0].name, plan->table->key)) outside = true;
          }
        }
        plan->fetch_base_items = outside;
        // Fetched for the filter alone: the answer still holds only what the index projects.
        if (outside && !all_attributes && !plan->has_projection) {
          plan->projection = ProjectedPaths(*plan->table, *plan->index);
          plan->has_projection = true;
        }
      }
    }
  }
  if (r.exclusive_start_key) {
    DP_RETURN_IF_ERROR(ValidateStartKey(*plan->table, plan->index, kind, *r.exclusive_start_key));
    plan->start_storage_key = StartKeyToStorageKey(*plan->table, plan->index, *r.exclusive_start_key);
  }
  if (plan->has_projection) plan->compiled_projection.emplace(plan->projection);
  if (plan->filter && !plan->fetch_base_items) {
    std::vector<DocumentPath> paths;
    CollectConditionPaths(*plan->filter, &paths);
    for (const auto& p : paths) AddRootName(p, &plan->needed_attributes);
    for (const auto& p : plan->projection) AddRootName(p, &plan->needed_attributes);
  }
  return Status::OK();
}

Status CheckIndexSelect(const ReadPlan& plan, const ReadRequest& r) {
  if (plan.index && plan.index->global && plan.index->projection != ProjectionType::kAll && r.select &&
      *r.select == "ALL_ATTRIBUTES") {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Select type ALL_ATTRIBUTES is not supported for global secondary index " +
                              plan.index->name + " because its projection type is not ALL");
  }
  return Status::OK();
}

namespace {
class TableItemFetcher : public BaseItemFetcher {
 public:
  TableItemFetcher(const Catalog& catalog, const TableDefinition& table) : catalog_(catalog), table_(table) {}
  bool Fetch(AttributeMap* entry, uint64_t* bytes) override {
    AttributeMap key = KeyOf(table_.key, *entry);
    AttributeMap item;
    bool found = false;
    uint64_t size = 0;
    if (!ReadTableItem(catalog_.storage(), table_, key, &item, &found, &size).ok() || !found) return false;
    *bytes += size;
    *entry = std::move(item);
    return true;
  }

 private:
  const Catalog& catalog_;
  const TableDefinition& table_;
};

std::unique_ptr<BaseItemFetcher> NewBaseItemFetcher(const Catalog& catalog, const ReadPlan& plan) {
  if (!plan.fetch_base_items) return nullptr;
  return std::make_unique<TableItemFetcher>(catalog, *plan.table);
}

void ApplyPlanToPage(const ReadPlan& plan, PageSpec* spec) {
  spec->filter = plan.filter.get();
  spec->projection = plan.compiled_projection ? &*plan.compiled_projection : nullptr;
  spec->count_only = plan.count_only;
  spec->exclusive_start = plan.start_storage_key;
  if (!plan.needed_attributes.empty()) spec->needed_attributes = &plan.needed_attributes;
}

Status FinishRead(const RequestContext& ctx, const ReadPlan& plan, const ReadRequest& request, const PageResult& page,
                  ReadResult* result) {
  result->count = page.count;
  result->scanned_count = page.scanned_count;
  if (ctx.counters) {
    RequestCounters& counters = *ctx.counters;
    counters.items_returned += page.count;
    counters.items_evaluated += page.scanned_count;
    counters.bytes_read += page.bytes_read + page.base_bytes_read;
    counters.used_start_key = request.exclusive_start_key.has_value();
    counters.returned_last_key = page.last_evaluated.has_value();
    if (page.cut_applied) counters.injected = std::string("page chaos: ") + page.cut_applied;
  }
  if (page.last_evaluated) {
    AttributeMap key;
    if (!StorageKeyToAttributes(*plan.table, plan.index, *page.last_evaluated, &key)) {
      return Status::Internal("corrupt key in table " + plan.table->name);
    }
    result->last_evaluated_key = std::move(key);
  }
  ConsumedCapacity& c = result->capacity;
  c = ConsumedCapacity();
  c.table_name = plan.table->name;
  double units = ReadUnits(page.bytes_read, request.consistent_read);
  if (!plan.index) {
    c.table_units = units;
  } else if (plan.index->global) {
    c.global_index_units[plan.index->name] = units;
  } else {
    c.local_index_units[plan.index->name] = units;
    c.table_units = page.base_bytes_read ? ReadUnits(page.base_bytes_read, request.consistent_read) : 0;
  }
  return Status::OK();
}

}  // namespace

Status ReadPlannedPage(const Catalog& catalog, const RequestContext& ctx, const ReadPlan& plan,
                       const ReadRequest& request, PageSpec* spec, ItemSink* sink, ReadResult* result) {
  spec->limit = request.limit ? static_cast<uint64_t>(*request.limit) : 0;
  spec->max_page_bytes = ctx.max_page_bytes;
  ApplyPlanToPage(plan, spec);
  std::unique_ptr<BaseItemFetcher> fetcher = NewBaseItemFetcher(catalog, plan);
  spec->fetch_base = fetcher.get();
  PageCut cut;
  ChoosePageCut(ctx, *plan.table, plan.index, &cut, spec);
  PageResult page;
  DP_RETURN_IF_ERROR(ReadPage(catalog.storage(), *spec, sink, &page));
  return FinishRead(ctx, plan, request, page, result);
}

}  // namespace dynapage
