// AttributeValue: DynamoDB's data model in memory (S, N, B, BOOL, NULL, L, M, SS, NS, BS).
//
// Values are held already validated and canonical: N and NS elements as Decimal::ToString() text, B and BS as
// raw (base64-decoded) bytes. Equality is DynamoDB's: sets compare as sets, numbers by value (canonical text
// makes that a string comparison). Sizes follow DynamoDB's documented item-size rules (docs/behaviour.md §1.1–1.2).

#ifndef DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_H_
#define DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dynapage {

enum class AttrType : uint8_t { kS, kN, kB, kBool, kNull, kL, kM, kSS, kNS, kBS };

// The wire name of a type: "S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS".
const char* AttrTypeName(AttrType type);
// Inverse of AttrTypeName; returns false for an unknown name.
bool AttrTypeFromName(std::string_view name, AttrType* type);
inline bool IsSetType(AttrType t) { return t == AttrType::kSS || t == AttrType::kNS || t == AttrType::kBS; }
// The element type of a set type, and the set type of a scalar type (S->SS, N->NS, B->BS).
AttrType SetElementType(AttrType set_type);

class AttributeValue;
// An item, or the value of an M: attribute name -> value.
using AttributeMap = std::map<std::string, AttributeValue>;

class AttributeValue {
 public:
  AttrType type = AttrType::kNull;
  std::string scalar;                // S: UTF-8 text; N: canonical decimal text; B: raw bytes
  bool boolean = true;               // BOOL value (NULL is always true)
  std::vector<AttributeValue> list;  // L
  AttributeMap map;                  // M
  std::vector<std::string> set;      // SS: UTF-8; NS: canonical decimal text; BS: raw bytes

  static AttributeValue String(std::string s);
  // REQUIRES: canonical is Decimal::ToString() output.
  static AttributeValue Number(std::string canonical);
  static AttributeValue Binary(std::string bytes);
  static AttributeValue Bool(bool b);
  static AttributeValue Null();
  static AttributeValue List(std::vector<AttributeValue> elements);
  static AttributeValue Map(AttributeMap members);
  // REQUIRES: set_type is kSS, kNS or kBS; elements are distinct (canonical for NS).
  static AttributeValue Set(AttrType set_type, std::vector<std::string> elements);

  bool operator==(const AttributeValue& other) const;
  bool operator!=(const AttributeValue& other) const { return !(*this == other); }
};

// ValueSize of an S, N, B, BOOL or NULL value given by its type and its scalar (see AttributeValue::scalar).
size_t ScalarValueSize(AttrType type, std::string_view scalar);
// Size of a value by DynamoDB's rules: S/B bytes, N per §1.2, BOOL/NULL 1, L/M 3 + Σ(1 + element size)
// (a map element also counts its name's bytes), sets Σ element sizes.
size_t ValueSize(const AttributeValue& value);
// Size of an item: Σ over attributes of (UTF-8 bytes of the name + ValueSize). Checked against 400 KB.
size_t ItemSize(const AttributeMap& item);

// The 400 KB item limit (409,600 bytes; an item of exactly this size is accepted).
constexpr size_t kMaxItemSize = 409600;

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_H_
