// Reading a table's stored items by key: one item, or many from one snapshot.
//
// Items are stored under TableItemKey(table, key) (engine/storage/item_key.h) in the stored form of
// engine/storage/stored_item.h. These functions read and decode them for GetItem, BatchGetItem,
// TransactGetItems and the write path; a stored value that does not decode is an InternalServerError
// ("corrupt item in table …"), never a crash.

#ifndef DYNAPAGE_ENGINE_STORAGE_TABLE_ITEMS_H_
#define DYNAPAGE_ENGINE_STORAGE_TABLE_ITEMS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"
#include "engine/storage/storage.h"

namespace dynapage {

// Decodes value, a stored item of table, into *item and its DynamoDB size.
Status DecodeTableItem(const TableDefinition& table, std::string_view value, AttributeMap* item, uint64_t* size);

// Reads one item by key into *item. *found is false when absent; *size is its DynamoDB size.
// REQUIRES: key passed ValidateKey for the table.
Status ReadTableItem(const Storage& storage, const TableDefinition& table, const AttributeMap& key,
                     AttributeMap* item, bool* found, uint64_t* size);

// One item to read with ReadTableItems().
struct ItemRead {
  std::shared_ptr<const TableDefinition> table;
  AttributeMap key;
  // Filled in by ReadTableItems:
  std::optional<AttributeMap> item;
  uint64_t size = 0;  // the item's DynamoDB size, 0 if absent
};

// Reads every read's item from one snapshot of the store (TransactGetItems): never some items from before a
// write and some from after it. REQUIRES: each key passed ValidateKey for its table.
Status ReadTableItems(const Storage& storage, std::vector<ItemRead>* reads);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_TABLE_ITEMS_H_
