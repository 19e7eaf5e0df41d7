#include "engine/expressions/key_condition.h"

#include <memory>

#include "engine/expressions/expression_ast.h"
#include "engine/expressions/expression_parser.h"
#include "engine/model/value_compare.h"

namespace dynapage {

namespace {

using SortOp = KeyCondition::SortOp;

Status InvalidOperator(const char* op) {
  return Status::Validation(std::string("Invalid operator used in KeyConditionExpression: ") + op);
}

// The operator DynamoDB names when a key condition uses something it cannot index, or nullptr.
const char* ForbiddenOperator(const ConditionExpr& c) {
  switch (c.kind) {
    case ConditionExpr::Kind::kOr: return "OR";
    case ConditionExpr::Kind::kNot: return "NOT";
    case ConditionExpr::Kind::kIn: return "IN";
    case ConditionExpr::Kind::kCompare: return c.comparator == Comparator::kNe ? "<>" : nullptr;
    case ConditionExpr::Kind::kAttributeExists: return "attribute_exists";
    case ConditionExpr::Kind::kAttributeNotExists: return "attribute_not_exists";
    case ConditionExpr::Kind::kAttributeType: return "attribute_type";
    case ConditionExpr::Kind::kContains: return "contains";
    default: return nullptr;
  }
}

// Preorder, so that "a = :a AND (b = :b OR NOT c = :c)" reports OR.
Status CheckOperators(const ConditionExpr& c) {
  if (const char* op = ForbiddenOperator(c)) return InvalidOperator(op);
  for (const auto& child : c.children) DP_RETURN_IF_ERROR(CheckOperators(*child));
  return Status::OK();
}

void FlattenAnd(const ConditionExpr& c, std::vector<const ConditionExpr*>* out) {
  if (c.kind == ConditionExpr::Kind::kAnd) {
    for (const auto& child : c.children) FlattenAnd(*child, out);
  } else {
    out->push_back(&c);
  }
}

SortOp Flip(SortOp op) {
  switch (op) {
    case SortOp::kLt: return SortOp::kGt;
    case SortOp::kLe: return SortOp::kGe;
    case SortOp::kGt: return SortOp::kLt;
    case SortOp::kGe: return SortOp::kLe;
    default: return op;
  }
}

SortOp FromComparator(Comparator c) {
  switch (c) {
    case Comparator::kLt: return SortOp::kLt;
    case Comparator::kLe: return SortOp::kLe;
    case Comparator::kGt: return SortOp::kGt;
    case Comparator::kGe: return SortOp::kGe;
    default: return SortOp::kEq;
  }
}

Status TermFromCondition(const ConditionExpr& c, KeyConditionTerm* term) {
  for (const Operand& op : c.operands) {
    if (op.kind == Operand::Kind::kSize) {
      return Status::Validation("KeyConditionExpressions cannot contain nested operations");
    }
  }
  bool between = c.kind == ConditionExpr::Kind::kBetween;
  bool begins_with = c.kind == ConditionExpr::Kind::kBeginsWith;
  if ((between || begins_with) && c.operands[0].kind != Operand::Kind::kPath) {
    return Status::Validation(std::string("Invalid condition in KeyConditionExpression: ") +
                              (between ? "BETWEEN" : "begins_with") +
                              " operator must have the key attribute as its first operand");
  }
  int path_index = -1;
  int paths = 0;
  for (size_t i = 0; i < c.operands.size(); i++) {
    if (c.operands[i].kind == Operand::Kind::kPath) {
      paths++;
      if (path_index < 0) path_index = static_cast<int>(i);
    }
  }
  if (paths == 0) {
    return Status::Validation("Invalid condition in KeyConditionExpression: No key attribute specified");
  }
  if (paths > 1) {
    return Status::Validation(
        "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
  }
  const DocumentPath& path = c.operands[path_index].path;
  if (path.size() > 1) {
    return Status::Validation("KeyConditionExpressions cannot have conditions on nested attributes");
  }
  term->attribute = path[0].name;
  if (between) {
    term->op = SortOp::kBetween;
    term->lower = c.operands[1].value;
    term->upper = c.operands[2].value;
  } else if (begins_with) {
    term->op = SortOp::kBeginsWith;
    term->lower = c.operands[1].value;
  } else {
    term->op = FromComparator(c.comparator);
    if (path_index == 1) term->op = Flip(term->op);
    term->lower = c.operands[1 - path_index].value;
  }
  return Status::OK();
}

Status ConditionCountError() { return Status::Validation("Conditions can be of length 1 or 2 only"); }

Status CheckTermSet(const ParsedKeyCondition& parsed) {
  if (parsed.terms.empty() || parsed.terms.size() > kMaxKeyConditionTerms) return ConditionCountError();
  for (size_t i = 0; i < parsed.terms.size(); i++) {
    for (size_t j = i + 1; j < parsed.terms.size(); j++) {
      if (parsed.terms[i].attribute == parsed.terms[j].attribute) {
        return Status::Validation("KeyConditionExpressions must only contain one condition per key");
      }
    }
  }
  return Status::OK();
}

Status TypeMismatch() {
  return Status::Validation(
      "One or more parameter values were invalid: Condition parameter type does not match schema type");
}

bool IsKeyName(const std::string& name, const KeySchema& schema) { return schema.IsKeyAttribute(name); }

}  // namespace

Status ParseKeyConditionExpression(std::string_view text, ExpressionAttributes* attrs, ParsedKeyCondition* out) {
  std::unique_ptr<ConditionExpr> condition;
  DP_RETURN_IF_ERROR(ParseCondition(text, "KeyConditionExpression", attrs, &condition));
  DP_RETURN_IF_ERROR(CheckOperators(*condition));
  std::vector<const ConditionExpr*> conditions;
  FlattenAnd(*condition, &conditions);
  ParsedKeyCondition parsed;
  for (const ConditionExpr* c : conditions) {
    KeyConditionTerm term;
    DP_RETURN_IF_ERROR(TermFromCondition(*c, &term));
    parsed.terms.push_back(std::move(term));
  }
  DP_RETURN_IF_ERROR(CheckTermSet(parsed));
  *out = std::move(parsed);
  return Status::OK();
}

Status ParseLegacyKeyConditions(const std::vector<LegacyCondition>& conditions, ParsedKeyCondition* out) {
  ParsedKeyCondition parsed;
  for (const LegacyCondition& c : conditions) {
    DP_RETURN_IF_ERROR(ValidateLegacyCondition(c));
    const std::string& op = c.comparison_operator;
    KeyConditionTerm term;
    term.attribute = c.attribute;
    if (op == "EQ") {
      term.op = SortOp::kEq;
    } else if (op == "LT") {
      term.op = SortOp::kLt;
    } else if (op == "LE") {
      term.op = SortOp::kLe;
    } else if (op == "GT") {
      term.op = SortOp::kGt;
    } else if (op == "GE") {
      term.op = SortOp::kGe;
    } else if (op == "BEGINS_WITH") {
      term.op = SortOp::kBeginsWith;
    } else if (op == "BETWEEN") {
      term.op = SortOp::kBetween;
      term.upper = c.values[1];
    } else {
      return Status::Validation("Attempted conditional constraint is not an indexable operation");
    }
    term.lower = c.values[0];
    parsed.terms.push_back(std::move(term));
  }
  // Legacy maps cannot repeat an attribute, so only the count can be wrong.
  if (parsed.terms.empty() || parsed.terms.size() > kMaxKeyConditionTerms) return ConditionCountError();
  *out = std::move(parsed);
  return Status::OK();
}

namespace {
const KeyConditionTerm* FindTerm(const ParsedKeyCondition& parsed, const std::string& attribute) {
  for (const KeyConditionTerm& t : parsed.terms) {
    if (t.attribute == attribute) return &t;
  }
  return nullptr;
}

bool TermTypesMatch(const KeyConditionTerm& t, AttrType type) {
  return t.lower.type == type && (t.op != SortOp::kBetween || t.upper.type == type);
}

// BindKeyCondition on a multi-attribute key (docs/multi-attribute-keys.md §Query).
Status BindMultiAttributeKeyCondition(const ParsedKeyCondition& parsed, const KeySchema& schema, KeyCondition* out) {
  for (const KeyConditionTerm& t : parsed.terms) {
    if (!schema.IsKeyAttribute(t.attribute)) return Status::Validation("Query condition missed key schema element");
  }
  std::string unequal_hashes;
  for (size_t i = 0; i < schema.hash_count(); i++) {
    const KeyConditionTerm* t = FindTerm(parsed, schema.hash_at(i).name);
    if (t == nullptr || t->op != SortOp::kEq) {
      unequal_hashes += (unequal_hashes.empty() ? "" : ", ") + schema.hash_at(i).name;
    }
  }
  if (!unequal_hashes.empty()) {
    return Status::Validation("HASH key attributes " + unequal_hashes +
                              " must have equality conditions specified in the query");
  }
  // The RANGE conditions: a prefix of the RANGE attributes, every one but the last with "=".
  const KeyConditionTerm* ranges[kMaxKeyAttributesOfOneType] = {};
  size_t constrained = 0;  // the length of the prefix: one past the last RANGE attribute with a condition
  for (size_t i = 0; i < schema.range_count(); i++) {
    ranges[i] = FindTerm(parsed, schema.range_at(i).name);
    if (ranges[i] != nullptr) constrained = i + 1;
  }
  for (size_t i = 0; i + 1 < constrained; i++) {
    if (ranges[i] != nullptr && ranges[i]->op == SortOp::kEq) continue;
    size_t later = i + 1;
    while (ranges[later] == nullptr) later++;  // ends at constrained - 1 at the latest
    return Status::Validation("RANGE key attributes " + schema.range_at(i).name +
                              " must have equality conditions specified in the query because a condition is "
                              "present on key attribute " +
                              schema.range_at(later).name);
  }
  for (size_t i = 0; i < schema.hash_count(); i++) {
    if (!TermTypesMatch(*FindTerm(parsed, schema.hash_at(i).name), schema.hash_at(i).type)) return TypeMismatch();
  }
  for (size_t i = 0; i < constrained; i++) {
    if (!TermTypesMatch(*ranges[i], schema.range_at(i).type)) return TypeMismatch();
  }
  KeyCondition result;
  result.partition_value = FindTerm(parsed, schema.hash.name)->lower;
  for (const KeyAttribute& k : schema.more_hash) {
    result.more_partition_values.push_back(FindTerm(parsed, k.name)->lower);
  }
  if (constrained > 0) {
    for (size_t i = 0; i + 1 < constrained; i++) result.sort_equalities.push_back(ranges[i]->lower);
    const KeyConditionTerm& last = *ranges[constrained - 1];
    result.sort_op = last.op;
    result.sort_lower = last.lower;
    if (last.op == SortOp::kBetween) result.sort_upper = last.upper;
  }
  *out = std::move(result);
  return Status::OK();
}
}  // namespace

Status BindKeyCondition(const ParsedKeyCondition& parsed, const KeySchema& schema, KeyCondition* out) {
  if (schema.multi_attribute()) return BindMultiAttributeKeyCondition(parsed, schema, out);
  if (parsed.terms.size() > 2) return ConditionCountError();
  const KeyConditionTerm* hash = nullptr;
  const KeyConditionTerm* range = nullptr;
  for (const KeyConditionTerm& t : parsed.terms) {
    if (t.attribute == schema.hash.name) hash = &t;
  }
  if (hash == nullptr) {
    return Status::Validation("Query condition missed key schema element: " + schema.hash.name);
  }
  if (hash->op != SortOp::kEq) return Status::Validation("Query key condition not supported");
  for (const KeyConditionTerm& t : parsed.terms) {
    if (&t == hash) continue;
    if (!schema.has_range()) return Status::Validation("Query key condition not supported");
    if (t.attribute != schema.range->name) {
      return Status::Validation("Query condition missed key schema element: " + schema.range->name);
    }
    range = &t;
  }
  if (hash->lower.type != schema.hash.type) return TypeMismatch();
  if (range != nullptr) {
    if (range->lower.type != schema.range->type) return TypeMismatch();
    if (range->op == SortOp::kBetween && range->upper.type != schema.range->type) return TypeMismatch();
  }
  KeyCondition result;
  result.partition_value = hash->lower;
  if (range != nullptr) {
    result.sort_op = range->op;
    result.sort_lower = range->lower;
    if (range->op == SortOp::kBetween) result.sort_upper = range->upper;
  }
  *out = std::move(result);
  return Status::OK();
}

bool SortKeyMatches(const KeyCondition& c, const AttributeValue& v) {
  if (c.sort_op == SortOp::kNone) return true;
  if (v.type != c.sort_lower.type || !IsOrderedType(v.type)) return false;
  switch (c.sort_op) {
    case SortOp::kNone: return true;
    case SortOp::kEq: return CompareOrdered(v, c.sort_lower) == 0;
    case SortOp::kLt: return CompareOrdered(v, c.sort_lower) < 0;
    case SortOp::kLe: return CompareOrdered(v, c.sort_lower) <= 0;
    case SortOp::kGt: return CompareOrdered(v, c.sort_lower) > 0;
    case SortOp::kGe: return CompareOrdered(v, c.sort_lower) >= 0;
    case SortOp::kBetween:
      return v.type == c.sort_upper.type && CompareOrdered(c.sort_lower, v) <= 0 &&
             CompareOrdered(v, c.sort_upper) <= 0;
    case SortOp::kBeginsWith: return v.type != AttrType::kN && StartsWith(v.scalar, c.sort_lower.scalar);
  }
  return false;
}

Status CheckNestedKeyPaths(const std::vector<DocumentPath>& paths, const KeySchema& table, const KeySchema* index) {
  for (const DocumentPath& p : paths) {
    if (p.size() < 2 || p[0].is_index) continue;
    const char* kind = nullptr;
    if (IsKeyName(p[0].name, table)) {
      kind = "Key";
    } else if (index != nullptr && IsKeyName(p[0].name, *index)) {
      kind = "IndexKey";
    }
    if (kind != nullptr) {
      return Status::Validation(std::string("Key attributes must be scalars; list random access '[]' and map lookup "
                                            "'.' are not allowed: ") +
                                kind + ": " + p[0].name);
    }
  }
  return Status::OK();
}

Status CheckFilterAvoidsKeys(const std::vector<DocumentPath>& paths, const KeySchema& schema, const char* label) {
  for (const DocumentPath& p : paths) {
    if (!p.empty() && !p[0].is_index && IsKeyName(p[0].name, schema)) {
      return Status::Validation(std::string(label) +
                                " can only contain non-primary key attributes: Primary key attribute: " + p[0].name);
    }
  }
  return Status::OK();
}

}  // namespace dynapage
