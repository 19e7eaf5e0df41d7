#include "engine/partiql/select_plan.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/base/check.h"
#include "engine/base/messages.h"
#include "engine/model/value_compare.h"
#include "engine/partiql/statement_projection.h"

namespace dynapage {

namespace {

// An IN may list at most this many partition-key values (another attribute: 100, the parser's limit).
constexpr size_t kMaxInPartitionKeys = 50;

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

// The index a SELECT names, checked: it exists, is read eventually consistent if global, and a global one that
// does not project every attribute projects those the SELECT asks for.
Status CheckIndex(const TableDefinition& table, const PartiqlStatement& s, const ExecuteStatementRequest& request,
                  const IndexDefinition** index) {
  *index = table.FindIndex(*s.index);
  const IndexDefinition* found = *index;
  if (!found && table.FindVectorIndex(*s.index)) {
    return Status::Validation("Scan operation not supported on this index type");  // as Scan names it
  }
  if (!found) return Status::Validation("The table does not have the specified index");
  if (found->global && request.consistent_read) {
    return Status::Validation("Strongly consistent read is not supported on Global Secondary Indexes");
  }
  if (found->global && found->projection != ProjectionType::kAll) {
    std::string missing;
    for (const DocumentPath& p : s.projection) {
      if (found->Projects(p[0].name, table.key)) continue;
      missing += (missing.empty() ? "" : ", ") + p[0].name;
    }
    if (!missing.empty()) {
      return Status::Validation(std::string(kInvalidParameterPrefix) + "Global secondary index " + found->name +
                                " does not project [" + missing + "]");
    }
  }
  return Status::OK();
}

}  // namespace

Status PlanSelect(const Catalog& catalog, const PartiqlStatement& s, const ExecuteStatementRequest& request,
                  SelectPlan* plan) {
  plan->statement = &s;
  plan->request = &request;
  plan->table = catalog.FindTable(s.table);
  if (!plan->table) return Status::NotFound(kResourceNotFound);
  const TableDefinition& table = *plan->table;
  const IndexDefinition* index = nullptr;
  if (s.index) DP_RETURN_IF_ERROR(CheckIndex(table, s, request, &index));
  plan->key = index ? &index->key : &table.key;
  const KeySchema& key = *plan->key;
  const size_t key_values = MaxInCandidates(s.where.get(), key.hash.name);
  if (key_values > kMaxInPartitionKeys) {
    return Status::Validation("The IN operator is provided with too many operands; number of operands: " +
                              std::to_string(key_values));
  }
  std::vector<AttributeValue>& partitions = plan->partitions;
  KeyPins(s.where.get(), key.hash.name, request.parameters, &plan->pinned, &partitions);
  const bool pinned = plan->pinned;
  // A pin of another type than the key's matches no item.
  partitions.erase(std::remove_if(partitions.begin(), partitions.end(),
                                  [&](const AttributeValue& v) { return v.type != key.hash.type; }),
                   partitions.end());
  if (index) DP_RETURN_IF_ERROR(CheckIndexFilter(table, *index, s.where.get(), pinned));
  DP_RETURN_IF_ERROR(CheckOrderBy(s, pinned, key));
  for (const PartiqlOrderKey& k : s.order_by) {
    if (k.path[0].name == key.hash.name) {
      std::stable_sort(partitions.begin(), partitions.end(), [&](const AttributeValue& a, const AttributeValue& b) {
        int c = CompareOrdered(a, b);
        return k.descending ? c > 0 : c < 0;
      });
    } else {
      plan->forward = !k.descending;
    }
  }
  plan->limit = request.limit;
  if (partitions.size() > 1) {
    plan->limit = std::min(plan->limit.value_or(kSeveralPartitionsPageItems), kSeveralPartitionsPageItems);
  }
  // The sort key leads ORDER BY over several partitions: only a merge of the partitions gives that order.
  plan->merged = pinned && partitions.size() > 1 && !s.order_by.empty() && s.order_by[0].path[0].name != key.hash.name;
  if (pinned) {
    // The pins are true of every item of the pinned partitions; the rest of the clause is the filter.
    for (const PartiqlCondition* c : Conjuncts(s.where.get())) {
      if (!IsPurePin(*c, key.hash.name)) plan->rest.push_back(c);
    }
  }
  return Status::OK();
}

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

Status PartitionQuery(const SelectPlan& plan, size_t i, std::vector<const PartiqlCondition*> filter,
                      const std::vector<DocumentPath>& projection, QueryRequest* query) {
  DP_DCHECK(plan.pinned && i < plan.partitions.size());
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

}  // namespace dynapage
