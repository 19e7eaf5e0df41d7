// RestoreTableFromBackup: a new table with a backup's items and indexes, with the request's overrides
// (engine/write/backups.h). The answer shows CREATING with its RestoreSummary, as DynamoDB's first answer does.

#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/backup_json.h"
#include "server/protocol/table_description_json.h"

namespace dynapage {

void WriteRestoredTableResponse(TableDescription* description, JsonWriter* w) {
  description->status = "CREATING";
  for (const auto& index : description->definition->indexes) {
    if (index.global) description->index_status[index.name] = "CREATING";
  }
  WriteTableDescriptionResponse("TableDescription", *description, w);
}

Status HandleRestoreTableFromBackup(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> target, backup_arn;
  DP_RETURN_IF_ERROR(r.GetString("TargetTableName", &target));
  DP_RETURN_IF_ERROR(r.GetString("BackupArn", &backup_arn));
  ConstraintErrors errors;
  RestoreOverrides overrides;
  DP_RETURN_IF_ERROR(ReadRestoreOverrides(r, &overrides, &errors));
  errors.CheckTableName(target, "targetTableName");
  if (!backup_arn) errors.AddNull("backupArn");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  TableDescription description;
  DP_RETURN_IF_ERROR(
      RestoreTableFromBackup(ctx.db.writes(), ctx.context, *backup_arn, *target, overrides, &description));
  WriteRestoredTableResponse(&description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
