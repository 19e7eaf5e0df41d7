// DeleteBackup: removes a USER backup and its items; answers with its description, status DELETED.

#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/backup_json.h"

namespace dynapage {

Status HandleDeleteBackup(OperationContext& ctx) {
  std::string arn;
  DP_RETURN_IF_ERROR(ReadBackupArn(RequestReader(ctx.request), &arn));
  BackupRecord backup;
  DP_RETURN_IF_ERROR(DeleteBackupByArn(ctx.db.writes(), ctx.context, arn, &backup));
  WriteBackupDescriptionResponse(backup, "DELETED", &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
