#include "engine/transfer/table_as_of.h"

#include "engine/storage/key_codec.h"
#include "engine/storage/table_items.h"

namespace dynapage {

Status ReadTableItemsAsOf(const Database& db, const TableDefinition& table, double as_of_seconds,
                          const TableItemVisitor& each) {
  (void)as_of_seconds;  // the PITR journal's hook: see the header
  std::string prefix = KeyspacePrefix(table.keyspace);
  auto it = db.storage().NewIterator(prefix, PrefixSuccessor(prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    AttributeMap item;
    uint64_t size = 0;
    DP_RETURN_IF_ERROR(DecodeTableItem(table, it->value(), &item, &size));
    DP_RETURN_IF_ERROR(each(item, size));
  }
  return it->status();
}

}  // namespace dynapage
