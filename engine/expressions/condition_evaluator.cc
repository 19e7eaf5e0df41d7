#include "engine/expressions/condition_evaluator.h"

#include <cstdio>
#include <optional>
#include <string_view>

#include "engine/model/document_path.h"
#include "engine/model/value_compare.h"

namespace dynapage {

namespace {

// The value of an operand for one item. A size() result lives in the caller's scratch value, made only then: a
// filter evaluates a comparison for every item a page reads, and making and destroying two empty AttributeValues
// (a string and three containers each) cost more than the comparison of a short value.
struct Resolved {
  const AttributeValue* value = nullptr;  // nullptr: absent
  bool poisoned = false;                  // size() without a value: the whole comparison is false
};

Resolved Resolve(const Operand& op, const AttributeMap& item, std::optional<AttributeValue>* scratch) {
  Resolved r;
  switch (op.kind) {
    case Operand::Kind::kPath:
      r.value = ResolvePath(item, op.path);
      return r;
    case Operand::Kind::kValue:
      r.value = &op.value;
      return r;
    case Operand::Kind::kSize: {
      const AttributeValue* target = op.path.empty() ? &op.value : ResolvePath(item, op.path);
      size_t n = 0;
      if (target != nullptr) {
        switch (target->type) {
          case AttrType::kS:
          case AttrType::kB: n = target->scalar.size(); break;
          case AttrType::kSS:
          case AttrType::kNS:
          case AttrType::kBS: n = target->set.size(); break;
          case AttrType::kL: n = target->list.size(); break;
          case AttrType::kM: n = target->map.size(); break;
          default: target = nullptr; break;
        }
      }
      if (target == nullptr) {
        r.poisoned = true;
        return r;
      }
      char buf[24];
      int len = std::snprintf(buf, sizeof(buf), "%zu", n);
      AttributeValue& size = scratch->emplace();
      size.type = AttrType::kN;
      size.scalar.assign(buf, static_cast<size_t>(len));  // fits the small-string buffer
      r.value = &size;
      return r;
    }
  }
  return r;
}

bool Ordered(const AttributeValue* a, const AttributeValue* b) {
  return a != nullptr && b != nullptr && a->type == b->type && IsOrderedType(a->type);
}

bool Compare(Comparator c, const Resolved& x, const Resolved& y) {
  if (x.poisoned || y.poisoned) return false;
  const AttributeValue* a = x.value;
  const AttributeValue* b = y.value;
  switch (c) {
    case Comparator::kEq: return a != nullptr && b != nullptr && ValuesEqual(*a, *b);
    case Comparator::kNe: return !(a != nullptr && b != nullptr && ValuesEqual(*a, *b));
    case Comparator::kLt: return Ordered(a, b) && CompareOrdered(*a, *b) < 0;
    case Comparator::kLe: return Ordered(a, b) && CompareOrdered(*a, *b) <= 0;
    case Comparator::kGt: return Ordered(a, b) && CompareOrdered(*a, *b) > 0;
    case Comparator::kGe: return Ordered(a, b) && CompareOrdered(*a, *b) >= 0;
  }
  return false;
}

bool Contains(const AttributeValue& haystack, const AttributeValue& needle) {
  switch (haystack.type) {
    case AttrType::kS:
    case AttrType::kB:
      return needle.type == haystack.type &&
             std::string_view(haystack.scalar).find(needle.scalar) != std::string_view::npos;
    case AttrType::kSS:
    case AttrType::kNS:
    case AttrType::kBS:
      if (needle.type != SetElementType(haystack.type)) return false;
      for (const std::string& e : haystack.set) {
        if (e == needle.scalar) return true;  // NS elements are canonical, so equal numbers are equal text
      }
      return false;
    case AttrType::kL:
      for (const AttributeValue& e : haystack.list) {
        if (ValuesEqual(e, needle)) return true;
      }
      return false;
    default:
      return false;
  }
}

}  // namespace

bool EvaluateCondition(const ConditionExpr& c, const AttributeMap& item) {
  switch (c.kind) {
    case ConditionExpr::Kind::kAnd:
      for (const auto& child : c.children) {
        if (!EvaluateCondition(*child, item)) return false;
      }
      return true;
    case ConditionExpr::Kind::kOr:
      for (const auto& child : c.children) {
        if (EvaluateCondition(*child, item)) return true;
      }
      return false;
    case ConditionExpr::Kind::kNot:
      return !EvaluateCondition(*c.children[0], item);
    case ConditionExpr::Kind::kCompare: {
      std::optional<AttributeValue> s0, s1;
      Resolved x = Resolve(c.operands[0], item, &s0);
      Resolved y = Resolve(c.operands[1], item, &s1);
      return Compare(c.comparator, x, y);
    }
    case ConditionExpr::Kind::kBetween: {
      std::optional<AttributeValue> s0, s1, s2;
      Resolved x = Resolve(c.operands[0], item, &s0);
      Resolved lo = Resolve(c.operands[1], item, &s1);
      Resolved hi = Resolve(c.operands[2], item, &s2);
      if (x.poisoned || lo.poisoned || hi.poisoned) return false;
      if (!Ordered(x.value, lo.value) || !Ordered(x.value, hi.value)) return false;
      return CompareOrdered(*lo.value, *x.value) <= 0 && CompareOrdered(*x.value, *hi.value) <= 0;
    }
    case ConditionExpr::Kind::kIn: {
      std::optional<AttributeValue> s0, s1;
      Resolved x = Resolve(c.operands[0], item, &s0);
      if (x.poisoned || x.value == nullptr) return false;
      for (size_t i = 1; i < c.operands.size(); i++) {
        Resolved y = Resolve(c.operands[i], item, &s1);
        if (!y.poisoned && y.value != nullptr && ValuesEqual(*x.value, *y.value)) return true;
      }
      return false;
    }
    case ConditionExpr::Kind::kAttributeExists:
      return ResolvePath(item, c.operands[0].path) != nullptr;
    case ConditionExpr::Kind::kAttributeNotExists:
      return ResolvePath(item, c.operands[0].path) == nullptr;
    case ConditionExpr::Kind::kAttributeType: {
      std::optional<AttributeValue> scratch;
      const AttributeValue* v = Resolve(c.operands[0], item, &scratch).value;
      return v != nullptr && v->type == c.attribute_type;
    }
    case ConditionExpr::Kind::kBeginsWith: {
      std::optional<AttributeValue> s0, s1;
      Resolved x = Resolve(c.operands[0], item, &s0);
      Resolved p = Resolve(c.operands[1], item, &s1);
      if (x.value == nullptr || p.value == nullptr || x.value->type != p.value->type) return false;
      if (x.value->type != AttrType::kS && x.value->type != AttrType::kB) return false;
      return StartsWith(x.value->scalar, p.value->scalar);
    }
    case ConditionExpr::Kind::kContains: {
      std::optional<AttributeValue> s0, s1;
      Resolved x = Resolve(c.operands[0], item, &s0);
      Resolved y = Resolve(c.operands[1], item, &s1);
      if (x.value == nullptr || y.value == nullptr) return false;
      return Contains(*x.value, *y.value);
    }
  }
  return false;
}

}  // namespace dynapage
