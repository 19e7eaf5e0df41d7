#include "engine/storage/table_items.h"

#include <string>

#include "engine/storage/item_key.h"
#include "engine/storage/stored_item.h"

namespace dynapage {

Status DecodeTableItem(const TableDefinition& table, std::string_view value, AttributeMap* item, uint64_t* size) {
  StoredItemView view;
  if (!ParseStoredItem(value, &view) || !DecodeStoredAttributeMap(view.json, item)) {
    return Status::Internal("corrupt item in table " + table.name);
  }
  *size = view.size;
  return Status::OK();
}

Status ReadTableItem(const Storage& storage, const TableDefinition& table, const AttributeMap& key,
                     AttributeMap* item, bool* found, uint64_t* size) {
  std::string value;
  DP_RETURN_IF_ERROR(storage.Get(TableItemKey(table, key), &value, found));
  if (!*found) return Status::OK();
  return DecodeTableItem(table, value, item, size);
}

Status ReadTableItems(const Storage& storage, std::vector<ItemRead>* reads) {
  std::vector<std::string> keys, values;
  std::vector<bool> found;
  for (const ItemRead& r : *reads) keys.push_back(TableItemKey(*r.table, r.key));
  DP_RETURN_IF_ERROR(storage.MultiGet(std::vector<std::string_view>(keys.begin(), keys.end()), &values, &found));
  for (size_t i = 0; i < reads->size(); i++) {
    ItemRead& r = (*reads)[i];
    r.item.reset();
    r.size = 0;
    if (!found[i]) continue;
    AttributeMap item;
    DP_RETURN_IF_ERROR(DecodeTableItem(*r.table, values[i], &item, &r.size));
    r.item = std::move(item);
  }
  return Status::OK();
}

}  // namespace dynapage
