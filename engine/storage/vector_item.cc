#include "engine/storage/vector_item.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "engine/base/messages.h"

namespace dynapage {

namespace {
// "One or more parameter values were invalid." with a full stop: the item-write messages of vector indexes.
constexpr char kInvalidVectorPrefix[] = "One or more parameter values were invalid. ";
constexpr uint64_t kMinVectorEntryBytes = 1024;

Status InvalidVector(const std::string& text) { return Status::Validation(kInvalidVectorPrefix + text); }

// Checks of one item against one index, in DynamoDB's order: the vector, then the SearchSchema values.
Status CheckIndex(const VectorIndexDefinition& index, const AttributeMap& item) {
  const std::string suffix = " IndexName: " + index.name;
  auto vector = item.find(index.vector_attribute);
  if (vector != item.end()) {
    const AttributeValue& v = vector->second;
    const std::string& a = index.vector_attribute;
    if (v.type != AttrType::kL) {
      return InvalidVector("Invalid type for parameter " + a + ", Expected: 32-bit floating point number list" +
                           suffix);
    }
    if (v.list.size() != index.dimensions) {
      return InvalidVector("Invalid size for parameter " + a + ", Expected: " + std::to_string(index.dimensions) +
                           ", Actual: " + std::to_string(v.list.size()) + suffix);
    }
    for (size_t k = 0; k < v.list.size(); k++) {
      const AttributeValue& element = v.list[k];
      const std::string parameter = a + "[" + std::to_string(k) + "]";
      if (element.type != AttrType::kN) {
        return InvalidVector("Invalid type for parameter " + parameter +
                             ", Expected: 32-bit floating point number, Actual: " + AttrTypeName(element.type) + "." +
                             suffix);
      }
      float f;
      if (!VectorComponent(element.scalar, &f)) {
        return InvalidVector("Invalid value for parameter " + parameter + ", Value: " + element.scalar +
                             " is outside valid range [-3.4028235E38, 3.4028235E38]." + suffix);
      }
    }
  }
  for (const auto& e : index.search_schema) {
    auto value = item.find(e.attribute.name);
    if (value == item.end()) continue;
    if (value->second.type != e.attribute.type) {
      return InvalidVector("Attribute '" + e.attribute.name +
                           "' type mismatch. Expected: " + AttrTypeName(e.attribute.type) +
                           ", Actual: " + AttrTypeName(value->second.type) + "." + suffix);
    }
    if (e.hash && e.attribute.type != AttrType::kN && value->second.scalar.empty()) {
      return Status::Validation(
          std::string("One or more parameter values are not valid. A value specified for a secondary index key is not "
                      "supported. The AttributeValue for a key attribute cannot contain an empty ") +
          (e.attribute.type == AttrType::kS ? "string" : "binary") + " value. IndexName: " + index.name +
          ", IndexKey: " + e.attribute.name);
    }
  }
  return Status::OK();
}
}  // namespace

bool VectorComponent(std::string_view canonical_number, float* out) {
  // Canonical numbers are short plain decimals (at most 38 digits, but up to 130 zeros after the point).
  char buffer[192];
  if (canonical_number.size() >= sizeof buffer) return false;
  std::copy(canonical_number.begin(), canonical_number.end(), buffer);
  buffer[canonical_number.size()] = '\0';
  errno = 0;
  float f = std::strtof(buffer, nullptr);
  if (std::isinf(f)) return false;  // beyond the float range (ERANGE with HUGE_VALF)
  *out = f;                         // an underflow is a float 0 (or a subnormal): accepted
  return true;
}

Status CheckVectorIndexValues(const TableDefinition& table, const AttributeMap& item) {
  if (table.vector_indexes.empty()) return Status::OK();
  std::vector<const VectorIndexDefinition*> by_name;
  for (const auto& index : table.vector_indexes) by_name.push_back(&index);
  std::sort(by_name.begin(), by_name.end(), [](auto* a, auto* b) { return a->name < b->name; });
  for (const VectorIndexDefinition* index : by_name) DP_RETURN_IF_ERROR(CheckIndex(*index, item));
  return Status::OK();
}

std::string VectorBucketOf(const AttributeValue& hash_value) {
  return std::string(AttrTypeName(hash_value.type)) + hash_value.scalar;
}

AttributeMap ProjectForVectorIndex(const TableDefinition& table, const VectorIndexDefinition& index,
                                   const AttributeMap& item) {
  if (index.projection == ProjectionType::kAll) return item;
  AttributeMap out;
  for (const auto& [name, value] : item) {
    bool kept = table.key.IsKeyAttribute(name) || index.FindSearchAttribute(name) != nullptr;
    if (!kept && index.projection == ProjectionType::kInclude) {
      kept = std::find(index.non_key_attributes.begin(), index.non_key_attributes.end(), name) !=
             index.non_key_attributes.end();
    }
    if (kept) out.emplace(name, value);
  }
  return out;
}

bool VectorEntryOf(const TableDefinition& table, const VectorIndexDefinition& index, const AttributeMap& item,
                   VectorEntryValues* out) {
  auto vector = item.find(index.vector_attribute);
  if (vector == item.end() || !CheckIndex(index, item).ok()) return false;
  out->bucket.clear();
  out->filters.clear();
  for (const auto& e : index.search_schema) {
    auto value = item.find(e.attribute.name);
    if (e.hash) {
      if (value == item.end()) return false;  // sparse: no HASH value, not indexed
      out->bucket = VectorBucketOf(value->second);
    } else {
      out->filters.push_back(value == item.end() ? std::nullopt : std::optional<AttributeValue>(value->second));
    }
  }
  out->vector.resize(index.dimensions);
  for (size_t k = 0; k < index.dimensions; k++) VectorComponent(vector->second.list[k].scalar, &out->vector[k]);
  AttributeMap projected = ProjectForVectorIndex(table, index, item);
  projected.erase(index.vector_attribute);
  out->entry_bytes = std::max<uint64_t>(kMinVectorEntryBytes,
                                        4ull * index.dimensions + index.vector_attribute.size() + ItemSize(projected));
  return true;
}

}  // namespace dynapage
