#include "engine/catalog/consumed_capacity.h"

#include <algorithm>

#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"
#include "engine/storage/item_key.h"
#include "engine/storage/vector_item.h"

namespace dynapage {

ConsumedCapacity WriteCapacity(const TableDefinition& table, const AttributeMap* old_item, uint64_t old_size,
                               const AttributeMap* new_item, uint64_t new_size) {
  ConsumedCapacity c;
  c.table_name = table.name;
  c.is_read = false;
  c.table_units = WriteUnits(std::max(old_size, new_size));
  for (const auto& index : table.indexes) {
    std::string old_key, new_key;
    bool had = old_item && IndexEntryKey(table, index, *old_item, &old_key);
    bool has = new_item && IndexEntryKey(table, index, *new_item, &new_key);
    if (!had && !has) continue;
    double units = 0;
    if (had) units += WriteUnits(ItemSize(ProjectForIndex(table, index, *old_item)));
    if (has && (!had || old_key != new_key)) units += WriteUnits(ItemSize(ProjectForIndex(table, index, *new_item)));
    if (had && has && old_key == new_key) units = WriteUnits(ItemSize(ProjectForIndex(table, index, *new_item)));
    (index.global ? c.global_index_units : c.local_index_units)[index.name] = units;
  }
  for (const auto& index : table.vector_indexes) {
    VectorEntryValues old_entry, new_entry;
    bool had = old_item && VectorEntryOf(table, index, *old_item, &old_entry);
    bool has = new_item && VectorEntryOf(table, index, *new_item, &new_entry);
    if (!had && !has) continue;
    if (had && has && old_entry.vector == new_entry.vector && old_entry.bucket == new_entry.bucket &&
        ProjectForVectorIndex(table, index, *old_item) == ProjectForVectorIndex(table, index, *new_item)) {
      continue;  // the stored entry is unchanged: nothing is written to the index
    }
    c.vector_write_bytes[index.name] =
        static_cast<double>(std::max(had ? old_entry.entry_bytes : 0, has ? new_entry.entry_bytes : 0));
  }
  return c;
}

void AddCapacity(const ConsumedCapacity& c, double factor, std::vector<ConsumedCapacity>* by_table) {
  ConsumedCapacity* sum = nullptr;
  for (ConsumedCapacity& entry : *by_table) {
    if (entry.table_name == c.table_name) sum = &entry;
  }
  if (sum == nullptr) {
    ConsumedCapacity empty;
    empty.table_name = c.table_name;
    empty.is_read = c.is_read;
    by_table->push_back(empty);
    sum = &by_table->back();
  }
  sum->table_units += factor * c.table_units;
  sum->unattributed_units += factor * c.unattributed_units;
  for (const auto& [name, units] : c.global_index_units) sum->global_index_units[name] += factor * units;
  for (const auto& [name, units] : c.local_index_units) sum->local_index_units[name] += factor * units;
  for (const auto& [name, bytes] : c.vector_write_bytes) sum->vector_write_bytes[name] += bytes;
}

}  // namespace dynapage
