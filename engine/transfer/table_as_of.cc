#include "engine/transfer/table_as_of.h"

#include <cmath>

#include "engine/storage/item_key.h"
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

Status ReadTableChangesBetween(const Database& db, const TableDefinition& table, double from_seconds, double to_seconds,
                               const TableChangeVisitor& each) {
  const int64_t from_ms = std::llround(from_seconds * 1000), to_ms = std::llround(to_seconds * 1000);
  return db.writes().VisitChangesBetween(table.keyspace, from_ms, to_ms, [&](const WritePath::WindowChange& c) {
    AttributeMap before, after;
    uint64_t before_size = 0, after_size = 0;
    if (*c.before) DP_RETURN_IF_ERROR(DecodeTableItem(table, **c.before, &before, &before_size));
    if (*c.after) DP_RETURN_IF_ERROR(DecodeTableItem(table, **c.after, &after, &after_size));
    TableItemChange change;
    change.keys = KeyOf(table.key, *c.after ? after : before);
    change.new_image = *c.after ? &after : nullptr;
    change.old_image = *c.before ? &before : nullptr;
    change.last_write_ms = c.last_write_ms;
    change.size = *c.after ? after_size : before_size;
    return each(change);
  });
}

}  // namespace dynapage
