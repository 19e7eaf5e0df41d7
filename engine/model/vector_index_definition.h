// VectorIndexDefinition: one vector index of a table (DynamoDB's VectorIndexes, docs/vector-search.md): the
// attribute holding each item's vector (an L of N), its dimensions and distance function, the SearchSchema
// (at most one HASH attribute that partitions the index, and INLINE_FILTER attributes SearchVectors may test
// for equality) and the projection of the items it returns. Immutable once made: UpdateTable only creates and
// deletes vector indexes. Persisted inside the table's definition (engine/model/table_definition.h).

#ifndef DYNAPAGE_ENGINE_MODEL_VECTOR_INDEX_DEFINITION_H_
#define DYNAPAGE_ENGINE_MODEL_VECTOR_INDEX_DEFINITION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/attribute_value_json.h"
#include "engine/model/key_schema.h"
#include "engine/model/projection_type.h"

namespace dynapage {

enum class DistanceFunction { kCosine, kDotProduct, kEuclidean };
const char* DistanceFunctionName(DistanceFunction function);
// False for a name that is none of "COSINE", "DOT_PRODUCT", "EUCLIDEAN".
bool DistanceFunctionFromName(const std::string& name, DistanceFunction* out);

// Bounds of a vector index (docs/vector-search.md).
constexpr int64_t kMaxVectorDimensions = 4096;
constexpr size_t kMaxVectorIndexes = 5;
constexpr size_t kMaxInlineFilters = 18;

struct SearchSchemaElement {
  KeyAttribute attribute;  // its type is the attribute's definition: S, N or B
  bool hash = false;       // HASH, else INLINE_FILTER
};

struct VectorIndexDefinition {
  std::string name;
  std::string vector_attribute;
  uint32_t dimensions = 0;
  DistanceFunction distance = DistanceFunction::kCosine;
  std::vector<SearchSchemaElement> search_schema;  // in the order declared
  ProjectionType projection = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // for INCLUDE
  double creation_time = 0;  // seconds since the epoch, for an index UpdateTable added; 0: made with its table

  // The HASH element of the SearchSchema, or nullptr.
  const SearchSchemaElement* HashElement() const;
  // The SearchSchema element of that attribute, or nullptr.
  const SearchSchemaElement* FindSearchAttribute(const std::string& name) const;
};

void WriteVectorIndexDefinition(const VectorIndexDefinition& index, JsonWriter* w);
// REQUIRES: v is what WriteVectorIndexDefinition wrote. False if it is not.
bool ReadVectorIndexDefinition(const rapidjson::Value& v, VectorIndexDefinition* index);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_VECTOR_INDEX_DEFINITION_H_
