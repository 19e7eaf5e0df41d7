// Item keys: checking a Key or an Item against a table's KeySchema, and the storage keys derived from it.
//
// The messages are DynamoDB's (docs/behaviour.md §3.2, §9). Index entries are built here too: an item lacking an
// index's key attributes has no entry in that index (a sparse index).

#ifndef DYNAPAGE_ENGINE_STORAGE_ITEM_KEY_H_
#define DYNAPAGE_ENGINE_STORAGE_ITEM_KEY_H_

#include <string>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"
#include "engine/model/wire_item.h"

namespace dynapage {

constexpr size_t kMaxPartitionKeyBytes = 2048;
constexpr size_t kMaxSortKeyBytes = 1024;
constexpr size_t kMaxAttributeNameBytes = 65535;

// Checks a Key parameter (GetItem, DeleteItem, UpdateItem, BatchGetItem…): exactly the key attributes, of the
// declared types, else "The provided key element does not match the schema"; then empty values and sizes.
Status ValidateKey(const KeySchema& schema, const AttributeMap& key);

// Checks every attribute name of an item: not empty ("One or more parameter values were invalid: Empty attribute
// name"), at most kMaxAttributeNameBytes.
Status ValidateAttributeNames(const AttributeMap& item);

// Checks the key attributes of a whole item (PutItem): "Missing the key a in the item", "Type mismatch for key
// a expected: S actual: N", empty values, sizes. Also checks the item's index key attributes' types. Before
// those, ValidateAttributeNames.
Status ValidateItemKeys(const TableDefinition& table, const AttributeMap& item);

// The values of an item's table key attributes, pointing into the item (sort is null for a hash-only table).
struct TableKeyValues {
  const AttributeValue* partition = nullptr;
  const AttributeValue* sort = nullptr;
};

// True if item has the table's key attributes with the declared types (the part of ValidateItemKeys that
// BatchWriteItem reports as "The provided key element does not match the schema"); sets *keys to them.
bool FindTableKeyAttributes(const KeySchema& schema, const AttributeMap& item, TableKeyValues* keys);
// The same for a WireItem, which holds no AttributeValues: the key values are copied into copies[0] (partition)
// and copies[1] (sort), and *keys points there.
bool FindTableKeyAttributes(const KeySchema& schema, const WireItem& item, AttributeValue copies[2],
                            TableKeyValues* keys);

// Checks the table key values FindTableKeyAttributes found: empty values and sizes.
Status ValidateTableKeyValues(const KeySchema& schema, const TableKeyValues& keys);

// The checks of ValidateItemKeys that follow the presence and types of the table key attributes: empty values,
// sizes, index key attributes. REQUIRES: FindTableKeyAttributes(table.key, item, &keys) returned true.
Status ValidateItemKeyValues(const TableDefinition& table, const AttributeMap& item, const TableKeyValues& keys);

// Checks one key value: empty S/B and the size limits. is_partition selects the 2048- or 1024-byte limit.
Status ValidateKeyValue(const std::string& name, const AttributeValue& value, bool is_partition);

// The key attributes of item (which must have them) as a map.
AttributeMap KeyOf(const KeySchema& schema, const AttributeMap& item);

// REQUIRES: item has the table's key attributes with the right types.
std::string TableItemKey(const TableDefinition& table, const AttributeMap& item);
// The same from the key values FindTableKeyAttributes found, without looking them up again.
std::string TableItemKey(const TableDefinition& table, const TableKeyValues& keys);

// The storage key of item's entry in index; false if the item lacks an index key attribute, or its value could
// not be an index key (wrong type, empty, over the key size limits: writes refuse those first, but an index
// created later finds them in the table).
bool IndexEntryKey(const TableDefinition& table, const IndexDefinition& index, const AttributeMap& item,
                   std::string* key);

// The part of item stored in an index entry: index and table keys plus the projected attributes.
AttributeMap ProjectForIndex(const TableDefinition& table, const IndexDefinition& index, const AttributeMap& item);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_ITEM_KEY_H_
