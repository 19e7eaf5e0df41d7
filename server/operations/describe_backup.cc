// DescribeBackup: a backup by its ARN, in the caller's namespace (engine/write/backups.h).

#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/backup_json.h"

namespace dynapage {

// BackupArn, the one member of DescribeBackup and DeleteBackup: 37 to 1,024 characters.
Status ReadBackupArn(const RequestReader& r, std::string* arn) {
  std::optional<std::string> value;
  DP_RETURN_IF_ERROR(r.GetString("BackupArn", &value));
  ConstraintErrors errors;
  if (!value) {
    errors.AddNull("backupArn");
  } else if (value->size() < 37) {
    errors.Add(*value, "backupArn", "Member must have length greater than or equal to 37");
  } else if (value->size() > 1024) {
    errors.Add(*value, "backupArn", "Member must have length less than or equal to 1024");
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  *arn = *value;
  return Status::OK();
}

Status HandleDescribeBackup(OperationContext& ctx) {
  std::string arn;
  DP_RETURN_IF_ERROR(ReadBackupArn(RequestReader(ctx.request), &arn));
  BackupRecord backup;
  DP_RETURN_IF_ERROR(FindBackupByArn(ctx.db.catalog(), ctx.context, arn, &backup));
  WriteBackupDescriptionResponse(backup, BackupStatusOf(ctx.context, backup), &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
