// Continuous backups: a table's point-in-time recovery setting (DescribeContinuousBackups, UpdateContinuousBackups),
// kept in its TableDefinition (docs/behaviour.md).
//
// While point-in-time recovery is enabled, every item write of the table also records the item as it was in a journal
// (WritePath::ApplyWrites), which RestoreTableToPointInTime replays backwards (engine/write/backups.h); disabling it
// forgets the journal; the sweeper trims it to the recovery period (WritePath::TrimJournals). Continuous backups are
// always ENABLED, as in DynamoDB; point-in-time recovery is DISABLED until enabled, and a change is immediate. A
// missing table is TableNotFoundException "Table not found: <name>", DynamoDB's answer for these two operations (not
// the ResourceNotFoundException of the others).

#ifndef DYNAPAGE_ENGINE_WRITE_CONTINUOUS_BACKUPS_H_
#define DYNAPAGE_ENGINE_WRITE_CONTINUOUS_BACKUPS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/write/write_path.h"

namespace dynapage {

// The table's definition, for its point-in-time recovery fields.
Status DescribeContinuousBackups(const Catalog& catalog, const std::string& table_name,
                                 std::shared_ptr<const TableDefinition>* table);

// Turns point-in-time recovery on or off; recovery_period_in_days (1 to 35, checked by the server) is kept when
// enabling. *table is the definition after the change.
Status UpdateContinuousBackups(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                               bool enabled, int64_t recovery_period_in_days,
                               std::shared_ptr<const TableDefinition>* table);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_CONTINUOUS_BACKUPS_H_
