// The one place an export reads a table's items "as of" an instant (docs/export-import.md).
//
// An export reads the table as it was at its ExportTime: the table's items now, from one consistent view of the
// store, with the point-in-time recovery journal's entries after that instant undone (WritePath::VisitItemsAsOf,
// docs/backups.md), as RestoreTableToPointInTime restores it. The export's checks make sure point-in-time recovery
// is on and the instant is not before it was enabled.

#ifndef DYNAPAGE_ENGINE_TRANSFER_TABLE_AS_OF_H_
#define DYNAPAGE_ENGINE_TRANSFER_TABLE_AS_OF_H_

#include <cstdint>
#include <functional>

#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"

namespace dynapage {

// Calls each(item, size) for every item of table as of as_of_seconds (epoch seconds, to the millisecond), stopping
// at the first error each returns. size is the item's DynamoDB size.
using TableItemVisitor = std::function<Status(const AttributeMap& item, uint64_t size)>;
Status ReadTableItemsAsOf(const Database& db, const TableDefinition& table, double as_of_seconds,
                          const TableItemVisitor& each);

// Calls each(change) for every item of table written in [from_seconds, to_seconds) (an incremental export's
// window), with its key attributes, its value at the window's end (null: deleted) and at its start (null: absent
// then), and the time of its last write in the window. An item made and deleted within the window is not visited.
struct TableItemChange {
  AttributeMap keys;
  const AttributeMap* new_image = nullptr;
  const AttributeMap* old_image = nullptr;
  int64_t last_write_ms = 0;
  uint64_t size = 0;  // the DynamoDB size of the image at the window's end, or at its start for a deletion
};
using TableChangeVisitor = std::function<Status(const TableItemChange& change)>;
Status ReadTableChangesBetween(const Database& db, const TableDefinition& table, double from_seconds, double to_seconds,
                               const TableChangeVisitor& each);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_TABLE_AS_OF_H_
