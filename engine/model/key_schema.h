// KeySchema: the key attributes of a table or of a secondary index.
//
// A key attribute is a name with a scalar type (S, N or B). A table or LSI has a partition (HASH) key and
// optionally a sort (RANGE) key. A GSI may have a multi-attribute key (docs/multi-attribute-keys.md): 1 to 4
// HASH attributes then 0 to 4 RANGE attributes. `hash` and `range` are always the first of each, so code for
// single-attribute keys reads them as before; the further ones are in more_hash and more_range, empty (and
// unallocated) for every table, LSI and single-attribute GSI.

#ifndef DYNAPAGE_ENGINE_MODEL_KEY_SCHEMA_H_
#define DYNAPAGE_ENGINE_MODEL_KEY_SCHEMA_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/model/attribute_value.h"

namespace dynapage {

// A multi-attribute GSI key has at most this many HASH and at most this many RANGE attributes.
constexpr size_t kMaxKeyAttributesOfOneType = 4;

struct KeyAttribute {
  std::string name;
  AttrType type = AttrType::kS;  // kS, kN or kB
};

struct KeySchema {
  KeyAttribute hash;
  std::optional<KeyAttribute> range;
  std::vector<KeyAttribute> more_hash;   // HASH attributes 2..4 of a multi-attribute GSI key, in schema order
  std::vector<KeyAttribute> more_range;  // RANGE attributes 2..4 (only when range is set), in schema order

  bool has_range() const { return range.has_value(); }
  // More than one HASH or more than one RANGE attribute.
  bool multi_attribute() const { return !more_hash.empty() || !more_range.empty(); }
  size_t hash_count() const { return 1 + more_hash.size(); }
  size_t range_count() const { return range ? 1 + more_range.size() : 0; }
  // The i-th HASH / RANGE attribute in schema order. REQUIRES: i < hash_count() / range_count().
  const KeyAttribute& hash_at(size_t i) const { return i == 0 ? hash : more_hash[i - 1]; }
  const KeyAttribute& range_at(size_t i) const { return i == 0 ? *range : more_range[i - 1]; }
  // True if name is one of the HASH attributes.
  bool IsHashAttribute(const std::string& name) const {
    if (name == hash.name) return true;
    for (const auto& k : more_hash) {
      if (k.name == name) return true;
    }
    return false;
  }
  // True if name is one of the key attributes.
  bool IsKeyAttribute(const std::string& name) const {
    if (name == hash.name || (range && name == range->name)) return true;
    for (const auto& k : more_hash) {
      if (k.name == name) return true;
    }
    for (const auto& k : more_range) {
      if (k.name == name) return true;
    }
    return false;
  }
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_KEY_SCHEMA_H_
