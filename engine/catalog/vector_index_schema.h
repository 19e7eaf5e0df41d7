// Vector index schema: the VectorIndexes that CreateTable and UpdateTable (VectorIndexUpdates Create) declare,
// checked against the table with DynamoDB's messages (docs/vector-search.md, "Declaring an index").
//
// The server has checked the request's constraints first (members present, enum values, Dimensions ≥ 1);
// these are the checks that need the table: billing mode, dimensions, SearchSchema against the
// AttributeDefinitions, the vector attribute, names shared with the table's other indexes, the per-table limit.

#ifndef DYNAPAGE_ENGINE_CATALOG_VECTOR_INDEX_SCHEMA_H_
#define DYNAPAGE_ENGINE_CATALOG_VECTOR_INDEX_SCHEMA_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/table_definition.h"

namespace dynapage {

// One VectorIndex as sent. REQUIRES (the server's checks): every required member set, the enums valid.
struct VectorIndexInput {
  std::string name;
  std::string vector_attribute;
  struct SearchSchemaInput {
    std::string name;
    std::string element_type;  // "HASH" or "INLINE_FILTER"
  };
  std::vector<SearchSchemaInput> search_schema;
  std::optional<std::string> projection_type;
  std::optional<std::vector<std::string>> non_key_attributes;
  int64_t dimensions = 0;  // ≥ 1; a fraction was truncated
  DistanceFunction distance = DistanceFunction::kCosine;
};

// The SearchSchema attribute names of every input, for the check that each AttributeDefinition is used.
std::vector<std::string> SearchSchemaNames(const std::vector<VectorIndexInput>& inputs);

// A vector attribute must not be declared in AttributeDefinitions (checked before the unused definitions).
Status CheckVectorAttributeUndefined(const std::string& attribute, const std::vector<KeyAttribute>& definitions);

// Checks one vector index against table (whose billing mode, definitions and other indexes are set) and appends
// it to table->vector_indexes.
Status AddVectorIndex(const VectorIndexInput& input, TableDefinition* table);

// A table with count vector indexes: "One or more parameter values were invalid: VectorIndex count exceeds the
// per-table limit of 5" above 5.
Status CheckVectorIndexCount(size_t count);

// True if some index of the table (secondary or vector) is named name.
bool IndexNameTaken(const TableDefinition& table, const std::string& name);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_CATALOG_VECTOR_INDEX_SCHEMA_H_
