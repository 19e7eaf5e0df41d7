// Index schema: the key schemas and secondary indexes that CreateTable and UpdateTable declare, checked against
// the AttributeDefinitions and the table with DynamoDB's messages.
//
// The checks take the request's shapes as sent (key types as "HASH"/"RANGE" strings, a projection type that may
// be absent) after the server has made its constraint checks (lengths, enums, name patterns). Order and texts
// follow DynamoDB as dynalite and moto record it: every key attribute defined (with indexes, the missing ones
// are listed), no definition unused, then each key schema's shape, then each index in request order (LSIs
// before GSIs), then the per-table limits.

#ifndef DYNAPAGE_ENGINE_CATALOG_INDEX_SCHEMA_H_
#define DYNAPAGE_ENGINE_CATALOG_INDEX_SCHEMA_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/key_schema.h"
#include "engine/model/table_definition.h"

namespace dynapage {

constexpr size_t kMaxLocalIndexes = 5;
constexpr size_t kMaxGlobalIndexes = 20;
// NonKeyAttributes summed over all indexes of a table (an attribute projected by two indexes counts twice).
constexpr size_t kMaxProjectedAttributes = 100;

// One KeySchemaElement as sent.
struct KeyElementInput {
  std::string name;
  std::string key_type;  // "HASH" or "RANGE" (the server checked the enum)
};

// One LocalSecondaryIndex, GlobalSecondaryIndex or UpdateTable Create action as sent.
struct SecondaryIndexInput {
  std::string name;
  bool global = true;
  std::vector<KeyElementInput> key;            // LSI: 1 or 2 elements; GSI: 1 or more
  std::optional<std::string> projection_type;  // "ALL", "INCLUDE" or "KEYS_ONLY"
  std::optional<std::vector<std::string>> non_key_attributes;
  std::optional<ProvisionedThroughput> throughput;  // GSIs only
  CapacitySettingsInput settings;                   // GSIs only (engine/write/table_settings.h applies them)
};

// CreateTable's AttributeDefinitions against its table key schema and its indexes (may be empty): every key
// attribute defined and, with indexes, every definition used. (Without indexes the count of definitions is
// checked after the table key's shape, as DynamoDB does.) REQUIRES: key has 1 or 2 elements; definitions have
// distinct names. has_index_lists: the request had a LocalSecondaryIndexes, GlobalSecondaryIndexes or
// VectorIndexes member; search_schema_names: the vector indexes' SearchSchema attributes, which count as used.
Status CheckAttributeDefinitions(const std::vector<KeyElementInput>& key,
                                 const std::vector<SecondaryIndexInput>& indexes, bool has_index_lists,
                                 const std::vector<KeyAttribute>& definitions,
                                 const std::vector<std::string>& search_schema_names = {});

// The shape of one key schema (table or index): distinct names, HASH first, RANGE second; fills *out with the
// types from definitions. REQUIRES: every name is defined.
Status CheckKeySchemaShape(const std::vector<KeyElementInput>& key, const std::vector<KeyAttribute>& definitions,
                           KeySchema* out);

// The shape of a GSI's key schema (docs/multi-attribute-keys.md): no attribute twice, a HASH first, every HASH
// before every RANGE, at most kMaxKeyAttributesOfOneType of each; fills *out. REQUIRES: key is not empty and
// every name is defined.
Status CheckGlobalIndexKeyShape(const std::vector<KeyElementInput>& key, const std::vector<KeyAttribute>& definitions,
                                KeySchema* out);

// An index's Projection as sent: a type present, NonKeyAttributes with INCLUDE and only then, no name twice.
Status CheckProjection(const std::optional<std::string>& projection_type,
                       const std::optional<std::vector<std::string>>& non_key_attributes, ProjectionType* projection,
                       std::vector<std::string>* non_key_out);

// Checks one secondary index against table (whose key, billing mode, definitions and earlier indexes are set):
// key shape, LSI rules, projection, throughput against the billing mode, a name not used by an earlier index;
// then appends it to table->indexes (keyspace 0: the Database assigns it). REQUIRES: its key attributes are
// defined in table->attribute_definitions.
Status AddSecondaryIndex(const SecondaryIndexInput& input, TableDefinition* table);

// The per-table limits once the LSIs (global false) or the GSIs (global true) are added: 5 LSIs, 20 GSIs, and
// 100 projected attributes over all indexes.
Status CheckIndexLimits(const TableDefinition& table, bool global);

// "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions.
// Keys: [a, b], AttributeDefinitions: [c]"
std::string UndefinedKeysMessage(const std::vector<std::string>& keys, const std::vector<KeyAttribute>& definitions);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_CATALOG_INDEX_SCHEMA_H_
