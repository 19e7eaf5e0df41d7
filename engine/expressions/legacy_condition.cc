#include "engine/expressions/legacy_condition.h"

#include "engine/base/messages.h"

#include <cstring>

#include "engine/model/value_compare.h"

namespace dynapage {

namespace {

struct OperatorRule {
  const char* name;
  int min_values;  // exact count unless max_values is -1 (then "at least")
  int max_values;
  bool any_type;
  AttrType types[5];
  int type_count;
};

constexpr AttrType S = AttrType::kS, N = AttrType::kN, B = AttrType::kB;
const OperatorRule kRules[] = {
    {"EQ", 1, 1, true, {}, 0},
    {"NE", 1, 1, true, {}, 0},
    {"LE", 1, 1, false, {S, N, B}, 3},
    {"LT", 1, 1, false, {S, N, B}, 3},
    {"GE", 1, 1, false, {S, N, B}, 3},
    {"GT", 1, 1, false, {S, N, B}, 3},
    {"NOT_NULL", 0, 0, true, {}, 0},
    {"NULL", 0, 0, true, {}, 0},
    {"CONTAINS", 1, 1, false, {S, N, B, AttrType::kBool, AttrType::kNull}, 5},
    {"NOT_CONTAINS", 1, 1, false, {S, N, B, AttrType::kBool, AttrType::kNull}, 5},
    {"BEGINS_WITH", 1, 1, false, {S, B}, 2},
    {"IN", 1, -1, false, {S, N, B}, 3},
    {"BETWEEN", 2, 2, false, {S, N, B}, 3},
};

const OperatorRule* FindRule(const std::string& name) {
  for (const OperatorRule& r : kRules) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

Operand AttributeOperand(const std::string& attribute) {
  return Operand::Path(DocumentPath{PathElement::Name(attribute)});
}

std::unique_ptr<ConditionExpr> Compare(const std::string& attribute, Comparator c, const AttributeValue& v) {
  auto node = std::make_unique<ConditionExpr>();
  node->kind = ConditionExpr::Kind::kCompare;
  node->comparator = c;
  node->operands.push_back(AttributeOperand(attribute));
  node->operands.push_back(Operand::Value(v));
  return node;
}

std::unique_ptr<ConditionExpr> Function(ConditionExpr::Kind kind, const std::string& attribute,
                                        const std::vector<AttributeValue>& values) {
  auto node = std::make_unique<ConditionExpr>();
  node->kind = kind;
  node->operands.push_back(AttributeOperand(attribute));
  for (const AttributeValue& v : values) node->operands.push_back(Operand::Value(v));
  return node;
}

std::unique_ptr<ConditionExpr> Not(std::unique_ptr<ConditionExpr> inner) {
  auto node = std::make_unique<ConditionExpr>();
  node->kind = ConditionExpr::Kind::kNot;
  node->children.push_back(std::move(inner));
  return node;
}

// REQUIRES: ValidateLegacyCondition(c) is OK.
std::unique_ptr<ConditionExpr> Convert(const std::string& attribute, const std::string& op,
                                       const std::vector<AttributeValue>& values) {
  if (op == "EQ") return Compare(attribute, Comparator::kEq, values[0]);
  if (op == "NE") return Compare(attribute, Comparator::kNe, values[0]);
  if (op == "LT") return Compare(attribute, Comparator::kLt, values[0]);
  if (op == "LE") return Compare(attribute, Comparator::kLe, values[0]);
  if (op == "GT") return Compare(attribute, Comparator::kGt, values[0]);
  if (op == "GE") return Compare(attribute, Comparator::kGe, values[0]);
  if (op == "NULL") return Function(ConditionExpr::Kind::kAttributeNotExists, attribute, values);
  if (op == "NOT_NULL") return Function(ConditionExpr::Kind::kAttributeExists, attribute, values);
  if (op == "CONTAINS") return Function(ConditionExpr::Kind::kContains, attribute, values);
  if (op == "NOT_CONTAINS") return Not(Function(ConditionExpr::Kind::kContains, attribute, values));
  if (op == "BEGINS_WITH") return Function(ConditionExpr::Kind::kBeginsWith, attribute, values);
  if (op == "IN") return Function(ConditionExpr::Kind::kIn, attribute, values);
  return Function(ConditionExpr::Kind::kBetween, attribute, values);  // BETWEEN
}

std::unique_ptr<ConditionExpr> Combine(std::vector<std::unique_ptr<ConditionExpr>> terms, bool use_or) {
  if (terms.size() == 1) return std::move(terms[0]);
  auto node = std::make_unique<ConditionExpr>();
  node->kind = use_or ? ConditionExpr::Kind::kOr : ConditionExpr::Kind::kAnd;
  node->children = std::move(terms);
  return node;
}

Status ValidateValues(const std::string& op, const std::vector<AttributeValue>& values) {
  if (op.empty()) {
    return Status::Validation(std::string(kValidationEnvelope) +
                              "Value null at 'comparisonOperator' failed to satisfy constraint: Member must "
                              "not be null");
  }
  const OperatorRule* rule = FindRule(op);
  if (rule == nullptr) {
    return Status::Validation(
        std::string(kValidationEnvelope) + "Value '" + op +
        "' at 'comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, "
        "BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
  }
  int n = static_cast<int>(values.size());
  bool count_ok = rule->max_values < 0 ? n >= rule->min_values : n == rule->min_values;
  if (!count_ok) {
    return Status::Validation(std::string(kInvalidParameterPrefix) + "Invalid number of argument(s) for the " + op +
                              " ComparisonOperator");
  }
  if (!rule->any_type) {
    for (const AttributeValue& v : values) {
      bool ok = false;
      for (int i = 0; i < rule->type_count; i++) ok = ok || rule->types[i] == v.type;
      if (!ok) {
        return Status::Validation(std::string(kInvalidParameterPrefix) + "ComparisonOperator " + op +
                                  " is not valid for " + AttrTypeName(v.type) + " AttributeValue type");
      }
    }
  }
  if (op == "BETWEEN" || op == "IN") {
    for (const AttributeValue& v : values) {
      if (v.type != values[0].type) {
        return Status::Validation(std::string(kInvalidParameterPrefix) +
                                  "AttributeValues inside AttributeValueList must be of same type");
      }
    }
  }
  if (op == "BETWEEN") {
    if (CompareOrdered(values[0], values[1]) > 0) {
      return Status::Validation(
          "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
    }
  }
  return Status::OK();
}

}  // namespace

Status ValidateLegacyCondition(const LegacyCondition& condition) {
  return ValidateValues(condition.comparison_operator, condition.values);
}

Status ConvertLegacyFilter(const std::vector<LegacyCondition>& conditions, bool use_or,
                           std::unique_ptr<ConditionExpr>* out) {
  std::vector<std::unique_ptr<ConditionExpr>> terms;
  for (const LegacyCondition& c : conditions) {
    DP_RETURN_IF_ERROR(ValidateLegacyCondition(c));
    terms.push_back(Convert(c.attribute, c.comparison_operator, c.values));
  }
  *out = Combine(std::move(terms), use_or);
  return Status::OK();
}

Status ConvertLegacyExpected(const std::vector<LegacyCondition>& expected, bool use_or,
                             std::unique_ptr<ConditionExpr>* out) {
  std::vector<std::unique_ptr<ConditionExpr>> terms;
  for (const LegacyCondition& c : expected) {
    const std::string suffix = " for Attribute: " + c.attribute;
    if (c.has_values && c.value) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "Value and AttributeValueList cannot be used together" + suffix);
    }
    if (!c.comparison_operator.empty()) {
      if (c.exists) {
        return Status::Validation(std::string(kInvalidParameterPrefix) +
                                  "Exists and ComparisonOperator cannot be used together" + suffix);
      }
      std::vector<AttributeValue> values = c.values;
      if (!c.has_values && c.value) values.push_back(*c.value);
      DP_RETURN_IF_ERROR(ValidateValues(c.comparison_operator, values));
      if (c.comparison_operator == "NOT_CONTAINS") {
        // In Expected (unlike a filter), NOT_CONTAINS fails on a missing attribute.
        std::vector<std::unique_ptr<ConditionExpr>> both;
        both.push_back(Function(ConditionExpr::Kind::kAttributeExists, c.attribute, {}));
        both.push_back(Convert(c.attribute, c.comparison_operator, values));
        terms.push_back(Combine(std::move(both), false));
        continue;
      }
      terms.push_back(Convert(c.attribute, c.comparison_operator, values));
      continue;
    }
    if (c.has_values) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "AttributeValueList can only be used with a ComparisonOperator" + suffix);
    }
    bool exists = !c.exists.has_value() || *c.exists;
    if (exists && !c.value) {
      return Status::Validation(std::string(kInvalidParameterPrefix) + "Value must be provided when Exists is " +
                                (c.exists.has_value() ? "true" : "null") + suffix);
    }
    if (!exists && c.value) {
      return Status::Validation(std::string(kInvalidParameterPrefix) + "Value cannot be used when Exists is false" +
                                suffix);
    }
    terms.push_back(exists ? Compare(c.attribute, Comparator::kEq, *c.value)
                           : Function(ConditionExpr::Kind::kAttributeNotExists, c.attribute, {}));
  }
  *out = Combine(std::move(terms), use_or);
  return Status::OK();
}

}  // namespace dynapage
