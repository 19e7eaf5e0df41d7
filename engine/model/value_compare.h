// Value comparison as DynamoDB's conditions and key conditions see it.
//
// Equality is deep (L and M element by element, sets as sets); N values are canonical (attribute_value.h), so
// equal numbers are equal text. Ordering exists only between two values of the same scalar type: S and B by
// unsigned bytes (which for UTF-8 is code point order), N numerically. Nothing here allocates for values of the sizes
// items normally hold, because the condition evaluator calls it once per scanned item.

#ifndef DYNAPAGE_ENGINE_MODEL_VALUE_COMPARE_H_
#define DYNAPAGE_ENGINE_MODEL_VALUE_COMPARE_H_

#include <string_view>

#include "engine/model/attribute_value.h"

namespace dynapage {

// True for the types that have an order: S, N, B.
inline bool IsOrderedType(AttrType t) { return t == AttrType::kS || t == AttrType::kN || t == AttrType::kB; }

// Deep equality; values of different types are unequal.
bool ValuesEqual(const AttributeValue& a, const AttributeValue& b);

// REQUIRES: a.type == b.type and IsOrderedType(a.type). Returns <0, 0 or >0.
int CompareOrdered(const AttributeValue& a, const AttributeValue& b);

// Numeric comparison of two N texts. Canonical text (Decimal::ToString()) is compared without parsing; any other
// spelling falls back to Decimal. Returns <0, 0 or >0 (text that is not a number compares as 0 to anything:
// stored values are always valid, so that is not reachable from requests).
int CompareNumbers(std::string_view a, std::string_view b);

// Puts the members of a set of set_type (SS, NS, BS) in the order DynamoDB returns them: strings and binaries by
// their bytes (unsigned), numbers by value. Every write path that builds a set calls it once, so that a set is
// stored, and returned, in this order (docs/behaviour.md §1).
void SortSetMembers(AttrType set_type, std::vector<std::string>* members);

// True if the (S or B) bytes of value start with those of prefix.
inline bool StartsWith(std::string_view value, std::string_view prefix) {
  return value.size() >= prefix.size() && value.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_VALUE_COMPARE_H_
