// CreateBackup: a copy of a table's items and definition at this instant (engine/write/backups.h). The answer
// shows CREATING, as DynamoDB's first answer does; the backup is complete when it is sent.

#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/backup_json.h"

namespace dynapage {

Status HandleCreateBackup(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name, backup_name;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetString("BackupName", &backup_name));
  ConstraintErrors errors;
  errors.CheckTableNameOrArn(table_name, "tableName");
  errors.CheckTableName(backup_name, "backupName");  // the same 3 to 255 of [a-zA-Z0-9_.-]
  DP_RETURN_IF_ERROR(errors.ToStatus());
  BackupRecord backup;
  DP_RETURN_IF_ERROR(CreateBackup(ctx.db.writes(), ctx.context, *table_name, *backup_name, &backup));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("BackupDetails");
  WriteBackupDetails(backup, "CREATING", &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
