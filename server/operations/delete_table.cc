// DeleteTable: removes a table, its indexes and all their items (after a SYSTEM backup of a table with point-in-time
// recovery); answers with status DELETING.

#include "engine/database/global_tables.h"
#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/table_description_json.h"

namespace dynapage {

Status HandleDeleteTable(OperationContext& ctx) {
  std::string table_name;
  DP_RETURN_IF_ERROR(ReadTableNameOnly(RequestReader(ctx.request), &table_name));
  auto table = ctx.db.catalog().FindTable(table_name);
  if (table && table->deletion_protection) {
    return Status::Validation(
        "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.");
  }
  if (table) DP_RETURN_IF_ERROR(CheckReplicaDeletable(*table));
  // With point-in-time recovery, DynamoDB keeps the table's last state as a SYSTEM backup (docs/backups.md).
  if (table) DP_RETURN_IF_ERROR(CreateSystemBackup(ctx.db.writes(), ctx.context, *table));
  TableDescription description;
  DP_RETURN_IF_ERROR(ctx.db.writes().DeleteTable(ctx.context, table_name, &description));
  // Deleting a replica removes only it from its group (docs/global-tables.md).
  if (ctx.databases) DP_RETURN_IF_ERROR(ForgetDeletedReplica(ctx.databases, ctx.context, *description.definition));
  WriteDeletedTableResponse(description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
