// Vector item: what a vector index takes of one item (docs/vector-search.md, "Writing items"): the checks every
// item write makes against the table's vector indexes, with DynamoDB's messages, and the index entry of a valid
// item (its vector as 32-bit floats, its SearchSchema values, its size by the write-capacity formula).

#ifndef DYNAPAGE_ENGINE_STORAGE_VECTOR_ITEM_H_
#define DYNAPAGE_ENGINE_STORAGE_VECTOR_ITEM_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"

namespace dynapage {

// The float a vector component N stands for; false when it is outside the 32-bit float range
// [-3.4028235E38, 3.4028235E38] (a value too small for a float becomes 0).
bool VectorComponent(std::string_view canonical_number, float* out);

// The checks of an item put or updated on table: for each vector index (in name order), the vector attribute (an
// L of exactly Dimensions numbers, each within the float range), then the SearchSchema attributes (the declared
// type; no empty HASH value). An attribute the item lacks is not checked (the item is then not indexed).
Status CheckVectorIndexValues(const TableDefinition& table, const AttributeMap& item);

// The entry of item in index, when the item is indexed: it has a valid vector and (if the index has a HASH) a
// valid HASH value. An item an index created later finds invalid is left out (the checks above refuse it live).
struct VectorEntryValues {
  std::vector<float> vector;  // Dimensions floats
  std::string bucket;         // the HASH value ("" without a HASH): its type letter, then its canonical text
  std::vector<std::optional<AttributeValue>> filters;  // the INLINE_FILTER values, in SearchSchema order
  uint64_t entry_bytes = 0;  // max(1024, 4·Dimensions + name of the vector + size of the projection without it)
};
bool VectorEntryOf(const TableDefinition& table, const VectorIndexDefinition& index, const AttributeMap& item,
                   VectorEntryValues* out);

// The bucket of a HASH value: its type letter, then its scalar (canonical for N, so numerically equal is equal).
std::string VectorBucketOf(const AttributeValue& hash_value);

// What index keeps of item for SearchVectors' answer: the table's keys, the SearchSchema attributes and the
// projected attributes (all of them under ALL), the vector included when projected.
AttributeMap ProjectForVectorIndex(const TableDefinition& table, const VectorIndexDefinition& index,
                                   const AttributeMap& item);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_VECTOR_ITEM_H_
