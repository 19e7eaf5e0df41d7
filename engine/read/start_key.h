// Start keys: ExclusiveStartKey in, LastEvaluatedKey out (docs/behaviour.md §3).
//
// A LastEvaluatedKey holds the table's key attributes, plus the index's key attributes on an index read; it
// is rebuilt from the storage key of the last evaluated entry, so it needs no decode of the item. An
// ExclusiveStartKey is checked with DynamoDB's messages, which differ between Query and Scan and between
// tables and indexes, then turned into the storage key the page starts strictly after (or before).

#ifndef DYNAPAGE_ENGINE_READ_START_KEY_H_
#define DYNAPAGE_ENGINE_READ_START_KEY_H_

#include <string>
#include <string_view>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"

namespace dynapage {

enum class ReadKind { kQuery, kScan };

// Checks the attributes of an ExclusiveStartKey against the table (index may be null) for count, names and
// types, then each key value (empty, size).
Status ValidateStartKey(const TableDefinition& table, const IndexDefinition* index, ReadKind kind,
                        const AttributeMap& start_key);

// REQUIRES: ValidateStartKey succeeded.
std::string StartKeyToStorageKey(const TableDefinition& table, const IndexDefinition* index,
                                 const AttributeMap& start_key);

// Decodes the key attributes from an entry's storage key. Returns false if the key is corrupt.
bool StorageKeyToAttributes(const TableDefinition& table, const IndexDefinition* index, std::string_view key,
                            AttributeMap* out);

// DynamoDB's rendering of a key in messages: "{p=AttributeValue: {S:x}, c=AttributeValue: {N:1}}".
std::string DescribeKeyForMessage(const AttributeMap& key);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_START_KEY_H_
