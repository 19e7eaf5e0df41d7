// KeySchema: the key attributes of a table or of a secondary index.
//
// A key attribute is a name with a scalar type (S, N or B). A table or index has a partition (HASH) key and
// optionally a sort (RANGE) key.

#ifndef DYNAPAGE_ENGINE_MODEL_KEY_SCHEMA_H_
#define DYNAPAGE_ENGINE_MODEL_KEY_SCHEMA_H_

#include <optional>
#include <string>

#include "engine/model/attribute_value.h"

namespace dynapage {

struct KeyAttribute {
  std::string name;
  AttrType type = AttrType::kS;  // kS, kN or kB
};

struct KeySchema {
  KeyAttribute hash;
  std::optional<KeyAttribute> range;

  bool has_range() const { return range.has_value(); }
  // True if name is the partition or the sort key attribute.
  bool IsKeyAttribute(const std::string& name) const {
    return name == hash.name || (range && name == range->name);
  }
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_KEY_SCHEMA_H_
