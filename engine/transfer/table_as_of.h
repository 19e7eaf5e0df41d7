// The one place an export reads a table's items "as of" an instant (docs/export-import.md).
//
// Today every export reads the table as it is when the export starts, from one consistent snapshot of the store
// (a RocksDB iterator sees the state at its creation, whatever is written meanwhile). Reading an instant in the
// past needs the point-in-time history journal (issue #30 item 2): when it exists, this function is where it is
// wired in, and nothing else of the export changes.

#ifndef DYNAPAGE_ENGINE_TRANSFER_TABLE_AS_OF_H_
#define DYNAPAGE_ENGINE_TRANSFER_TABLE_AS_OF_H_

#include <cstdint>
#include <functional>

#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"

namespace dynapage {

// Calls each(item, size) for every item of table as of as_of_seconds (see above: the snapshot taken now), in
// storage order, stopping at the first error each returns. size is the item's DynamoDB size.
using TableItemVisitor = std::function<Status(const AttributeMap& item, uint64_t size)>;
Status ReadTableItemsAsOf(const Database& db, const TableDefinition& table, double as_of_seconds,
                          const TableItemVisitor& each);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_TABLE_AS_OF_H_
