#include "engine/model/attribute_value.h"

#include <algorithm>

#include "engine/base/check.h"
#include "engine/model/number.h"
#include "engine/model/value_compare.h"

namespace dynapage {

namespace {
const char* const kTypeNames[] = {"S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"};

bool SameElements(std::vector<std::string> a, std::vector<std::string> b) {
  if (a.size() != b.size()) return false;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

}  // namespace

const char* AttrTypeName(AttrType type) { return kTypeNames[static_cast<int>(type)]; }

bool AttrTypeFromName(std::string_view name, AttrType* type) {
  for (int i = 0; i < 10; i++) {
    if (name == kTypeNames[i]) {
      *type = static_cast<AttrType>(i);
      return true;
    }
  }
  return false;
}

AttrType SetElementType(AttrType set_type) {
  switch (set_type) {
    case AttrType::kSS: return AttrType::kS;
    case AttrType::kNS: return AttrType::kN;
    case AttrType::kBS: return AttrType::kB;
    case AttrType::kS: return AttrType::kSS;
    case AttrType::kN: return AttrType::kNS;
    case AttrType::kB: return AttrType::kBS;
    default: return set_type;
  }
}

AttributeValue AttributeValue::String(std::string s) {
  AttributeValue v;
  v.type = AttrType::kS;
  v.scalar = std::move(s);
  return v;
}
AttributeValue AttributeValue::Number(std::string canonical) {
  AttributeValue v;
  v.type = AttrType::kN;
  v.scalar = std::move(canonical);
  return v;
}
AttributeValue AttributeValue::Binary(std::string bytes) {
  AttributeValue v;
  v.type = AttrType::kB;
  v.scalar = std::move(bytes);
  return v;
}
AttributeValue AttributeValue::Bool(bool b) {
  AttributeValue v;
  v.type = AttrType::kBool;
  v.boolean = b;
  return v;
}
AttributeValue AttributeValue::Null() { return AttributeValue(); }
AttributeValue AttributeValue::List(std::vector<AttributeValue> elements) {
  AttributeValue v;
  v.type = AttrType::kL;
  v.list = std::move(elements);
  return v;
}
AttributeValue AttributeValue::Map(AttributeMap members) {
  AttributeValue v;
  v.type = AttrType::kM;
  v.map = std::move(members);
  return v;
}
AttributeValue AttributeValue::Set(AttrType set_type, std::vector<std::string> elements) {
  DP_DCHECK(set_type == AttrType::kSS || set_type == AttrType::kNS || set_type == AttrType::kBS);
  AttributeValue v;
  v.type = set_type;
  v.set = std::move(elements);
  SortSetMembers(set_type, &v.set);
  return v;
}

bool AttributeValue::operator==(const AttributeValue& other) const {
  if (type != other.type) return false;
  switch (type) {
    case AttrType::kS:
    case AttrType::kN:
    case AttrType::kB: return scalar == other.scalar;
    case AttrType::kBool: return boolean == other.boolean;
    case AttrType::kNull: return true;
    case AttrType::kL: return list == other.list;
    case AttrType::kM: return map == other.map;
    case AttrType::kSS:
    case AttrType::kNS:
    case AttrType::kBS: return SameElements(set, other.set);
  }
  return false;
}

size_t ScalarValueSize(AttrType type, std::string_view scalar) {
  switch (type) {
    case AttrType::kS:
    case AttrType::kB: return scalar.size();
    case AttrType::kN: return Decimal::CanonicalTextByteSize(scalar);
    default: return 1;  // BOOL, NULL
  }
}

size_t ValueSize(const AttributeValue& value) {
  switch (value.type) {
    case AttrType::kS:
    case AttrType::kB:
    case AttrType::kN:
    case AttrType::kBool:
    case AttrType::kNull: return ScalarValueSize(value.type, value.scalar);
    case AttrType::kL: {
      size_t size = 3;
      for (const auto& e : value.list) size += 1 + ValueSize(e);
      return size;
    }
    case AttrType::kM: {
      size_t size = 3;
      for (const auto& [name, e] : value.map) size += 1 + name.size() + ValueSize(e);
      return size;
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      size_t size = 0;
      for (const auto& e : value.set) size += e.size();
      return size;
    }
    case AttrType::kNS: {
      size_t size = 0;
      for (const auto& e : value.set) size += Decimal::CanonicalTextByteSize(e);
      return size;
    }
  }
  return 0;
}

size_t ItemSize(const AttributeMap& item) {
  size_t size = 0;
  for (const auto& [name, value] : item) size += name.size() + ValueSize(value);
  return size;
}

}  // namespace dynapage
