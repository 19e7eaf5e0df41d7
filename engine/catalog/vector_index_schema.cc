#include "engine/catalog/vector_index_schema.h"

#include <algorithm>

#include "engine/base/messages.h"
#include "engine/catalog/index_schema.h"

namespace dynapage {

namespace {
Status Invalid(const std::string& text) { return Status::Validation(std::string(kInvalidParameterPrefix) + text); }

const KeyAttribute* FindDefinition(const std::vector<KeyAttribute>& definitions, const std::string& name) {
  for (const auto& d : definitions) {
    if (d.name == name) return &d;
  }
  return nullptr;
}
}  // namespace

std::vector<std::string> SearchSchemaNames(const std::vector<VectorIndexInput>& inputs) {
  std::vector<std::string> names;
  for (const auto& input : inputs) {
    for (const auto& e : input.search_schema) names.push_back(e.name);
  }
  return names;
}

Status CheckVectorAttributeUndefined(const std::string& attribute, const std::vector<KeyAttribute>& definitions) {
  if (!FindDefinition(definitions, attribute)) return Status::OK();
  return Invalid("Conflicting attribute definition for '" + attribute +
                 "'. An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute.");
}

bool IndexNameTaken(const TableDefinition& table, const std::string& name) {
  return table.FindIndex(name) || table.FindVectorIndex(name);
}

Status AddVectorIndex(const VectorIndexInput& input, TableDefinition* table) {
  if (!table->pay_per_request) return Invalid("Vector indexes are only supported for PAY_PER_REQUEST tables");
  if (input.dimensions > kMaxVectorDimensions) {
    return Invalid("Number of dimensions must be between 1 and 4096 inclusive.");
  }
  VectorIndexDefinition index;
  index.name = input.name;
  index.vector_attribute = input.vector_attribute;
  index.dimensions = static_cast<uint32_t>(input.dimensions);
  index.distance = input.distance;
  size_t hashes = 0, filters = 0;
  for (const auto& e : input.search_schema) (e.element_type == "HASH" ? hashes : filters)++;
  if (hashes > 1) {
    return Invalid("Value '" + std::to_string(hashes) +
                   "' at 'SearchSchema' failed to satisfy constraint: Member must have HASH count less than or "
                   "equal to 1");
  }
  for (size_t i = 0; i < input.search_schema.size(); i++) {
    for (size_t j = 0; j < i; j++) {
      if (input.search_schema[i].name == input.search_schema[j].name) {
        return Invalid("SearchSchema contains a duplicate AttributeName");
      }
    }
  }
  if (filters > kMaxInlineFilters) {
    return Invalid("Number of INLINE_FILTER elements exceeds the limit of " + std::to_string(kMaxInlineFilters));
  }
  for (const auto& e : input.search_schema) {
    const KeyAttribute* defined = FindDefinition(table->attribute_definitions, e.name);
    if (!defined) return Invalid("One element in SearchSchema is not defined in attribute definitions");
    index.search_schema.push_back(SearchSchemaElement{*defined, e.element_type == "HASH"});
  }
  DP_RETURN_IF_ERROR(CheckVectorAttributeUndefined(input.vector_attribute, table->attribute_definitions));
  for (const auto& other : table->vector_indexes) {
    if (other.vector_attribute == input.vector_attribute && other.dimensions != index.dimensions) {
      return Invalid("Conflicting attribute definition for '" + input.vector_attribute +
                     "'. All VectorIndexes on the same vector attribute must use the same dimensions.");
    }
  }
  DP_RETURN_IF_ERROR(
      CheckProjection(input.projection_type, input.non_key_attributes, &index.projection, &index.non_key_attributes));
  if (IndexNameTaken(*table, index.name)) return Invalid("Duplicate index name: " + index.name);
  table->vector_indexes.push_back(std::move(index));
  return Status::OK();
}

Status CheckVectorIndexCount(size_t count) {
  if (count > kMaxVectorIndexes) {
    return Invalid("VectorIndex count exceeds the per-table limit of " + std::to_string(kMaxVectorIndexes));
  }
  return Status::OK();
}

}  // namespace dynapage
