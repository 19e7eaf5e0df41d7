// ListBackups: the caller's backups in creation order, filtered by table, type and [lower, upper) creation time,
// paged by ExclusiveStartBackupArn / LastEvaluatedBackupArn.

#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/backup_json.h"

namespace dynapage {

Status HandleListBackups(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name, type, start;
  std::optional<int64_t> limit;
  ListBackupsRequest request;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &limit));
  DP_RETURN_IF_ERROR(ReadTimestamp(r, "TimeRangeLowerBound", &request.lower));
  DP_RETURN_IF_ERROR(ReadTimestamp(r, "TimeRangeUpperBound", &request.upper));
  DP_RETURN_IF_ERROR(r.GetString("ExclusiveStartBackupArn", &start));
  DP_RETURN_IF_ERROR(r.GetString("BackupType", &type));
  ConstraintErrors errors;
  if (table_name) errors.CheckTableNameOrArn(table_name, "tableName");
  errors.CheckMin(limit, "limit", 1);
  errors.CheckMax(limit, "limit", 100);
  errors.CheckEnum(type, "backupType", {"USER", "SYSTEM", "AWS_BACKUP", "ALL"});
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (table_name) {
    auto table = ctx.db.catalog().FindTable(*table_name);
    // A table ARN names the table; a deleted table's backups are found by its name.
    request.table_name = table ? table->name : *table_name;
  }
  if (type) request.type = *type;
  if (start) request.exclusive_start = *start;
  if (limit) request.limit = static_cast<size_t>(*limit);
  std::vector<BackupRecord> backups;
  std::string last;
  DP_RETURN_IF_ERROR(ListBackups(ctx.db.catalog(), request, &backups, &last));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("BackupSummaries");
  w.StartArray();
  for (const auto& backup : backups) WriteBackupSummary(backup, BackupStatusOf(ctx.context, backup), &w);
  w.EndArray();
  if (!last.empty()) {
    w.Key("LastEvaluatedBackupArn");
    w.String(last);
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
