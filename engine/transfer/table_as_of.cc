#include "engine/transfer/table_as_of.h"

#include <cmath>

#include "engine/storage/key_codec.h"
#include "engine/storage/table_items.h"

namespace dynapage {

Status ReadTableItemsAsOf(const Database& db, const TableDefinition& table, double as_of_seconds,
                          const TableItemVisitor& each) {
  // Journal entries carry milliseconds; an export time names one (the write at that very millisecond included).
  const int64_t at_ms = std::llround(as_of_seconds * 1000);
  return db.writes().VisitItemsAsOf(table.keyspace, at_ms, [&](std::string_view stored) {
    AttributeMap item;
    uint64_t size = 0;
    DP_RETURN_IF_ERROR(DecodeTableItem(table, stored, &item, &size));
    return each(item, size);
  });
}

}  // namespace dynapage
