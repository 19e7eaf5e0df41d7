#include "engine/vector/search_condition.h"

#include "engine/storage/vector_item.h"

namespace dynapage {

namespace {
constexpr char kPrefix[] = "Invalid SearchConditionExpression: ";

// The equalities of condition, in expression order, each as (attribute path, value). Anything but `=` between a
// path and a value, joined by AND, is refused.
Status CollectEqualities(const ConditionExpr& condition,
                         std::vector<std::pair<const DocumentPath*, const AttributeValue*>>* out) {
  if (condition.kind == ConditionExpr::Kind::kAnd) {
    for (const auto& child : condition.children) DP_RETURN_IF_ERROR(CollectEqualities(*child, out));
    return Status::OK();
  }
  const Status bad_comparator =
      Status::Validation(std::string(kPrefix) + "Invalid comparator used in SearchConditionExpression");
  if (condition.kind != ConditionExpr::Kind::kCompare || condition.comparator != Comparator::kEq ||
      condition.operands.size() != 2) {
    return bad_comparator;
  }
  const Operand& a = condition.operands[0];
  const Operand& b = condition.operands[1];
  const Operand* path = a.kind == Operand::Kind::kPath ? &a : b.kind == Operand::Kind::kPath ? &b : nullptr;
  const Operand* value = a.kind == Operand::Kind::kValue ? &a : b.kind == Operand::Kind::kValue ? &b : nullptr;
  if (!path || !value) return bad_comparator;
  out->emplace_back(&path->path, &value->value);
  return Status::OK();
}
}  // namespace

Status BindSearchCondition(const ConditionExpr* condition, const VectorIndexDefinition& index, SearchCondition* out) {
  *out = SearchCondition();
  const SearchSchemaElement* hash = index.HashElement();
  const Status hash_required =
      Status::Validation("SearchConditionExpression must be provided when SearchSchema has a HASH key");
  if (!condition) return hash ? hash_required : Status::OK();
  std::vector<std::pair<const DocumentPath*, const AttributeValue*>> equalities;
  DP_RETURN_IF_ERROR(CollectEqualities(*condition, &equalities));
  std::vector<std::string> seen;
  for (const auto& [path, value] : equalities) {
    if (path->size() != 1 || path->front().is_index) {
      return Status::Validation(std::string(kPrefix) +
                                "SearchConditionExpression cannot have conditions on nested attributes");
    }
    const std::string& name = path->front().name;
    const SearchSchemaElement* element = index.FindSearchAttribute(name);
    if (!element) {
      return Status::Validation(
          "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
          "attribute: " +
          name);
    }
    for (const auto& s : seen) {
      if (s == name) {
        return Status::Validation(std::string(kPrefix) +
                                  "SearchConditionExpression must only contain one condition per attribute");
      }
    }
    seen.push_back(name);
    if (element->hash) {
      if (value->type != element->attribute.type) {
        return Status::Validation("Type of '" + name + "' attribute in SearchConditionExpression (" +
                                  AttrTypeName(value->type) + ") does not match type in search schema (" +
                                  AttrTypeName(element->attribute.type) + ")");
      }
      if (value->type != AttrType::kN && value->scalar.empty()) {
        return Status::Validation(
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an "
            "empty string value. Key: " +
            name);
      }
      out->bucket = VectorBucketOf(*value);
      continue;
    }
    size_t position = 0;
    for (const auto& e : index.search_schema) {
      if (&e == element) break;
      if (!e.hash) position++;
    }
    out->filters.emplace_back(position, *value);
  }
  if (hash && !out->bucket) return hash_required;
  return Status::OK();
}

}  // namespace dynapage
