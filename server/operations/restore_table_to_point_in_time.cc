// RestoreTableToPointInTime: a new table as a table with point-in-time recovery was at an instant of its window
// (engine/write/backups.h), with the request's overrides. Checks in DynamoDB's order: the request's shape, then
// point-in-time recovery, then the time, then the target.

#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/backup_json.h"

namespace dynapage {

Status HandleRestoreTableToPointInTime(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> source_arn, source_name, target;
  std::optional<bool> use_latest;
  PointInTimeRestoreRequest request;
  DP_RETURN_IF_ERROR(r.GetString("SourceTableArn", &source_arn));
  DP_RETURN_IF_ERROR(r.GetString("SourceTableName", &source_name));
  DP_RETURN_IF_ERROR(r.GetString("TargetTableName", &target));
  DP_RETURN_IF_ERROR(r.GetBoolean("UseLatestRestorableTime", &use_latest));
  DP_RETURN_IF_ERROR(ReadTimestamp(r, "RestoreDateTime", &request.restore_time));
  ConstraintErrors errors;
  RestoreOverrides overrides;
  DP_RETURN_IF_ERROR(ReadRestoreOverrides(r, &overrides, &errors));
  errors.CheckTableName(target, "targetTableName");
  if (source_name) errors.CheckTableName(source_name, "sourceTableName");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  // The SDK's model lets a GlobalSecondaryIndexOverride entry carry WarmThroughput (the index shape is shared), but
  // DynamoDB refuses it in a point-in-time restore.
  if (const rapidjson::Value* indexes = r.Get("GlobalSecondaryIndexOverride"); indexes && indexes->IsArray()) {
    for (const rapidjson::Value& index : indexes->GetArray()) {
      if (index.IsObject() && index.HasMember("WarmThroughput")) {
        return Status::Validation(
            "One or more parameter values were invalid: WarmThroughput is not supported in "
            "GlobalSecondaryIndexOverride when restoring a table to a point in time");
      }
    }
  }
  if (source_arn && source_name) {
    return Status::Validation("Must provide exactly one of: sourceTableArn, sourceTableName");
  }
  if (!source_arn && !source_name) {
    return Status::Validation("The parameter 'TableName' is required but was not present in the request");
  }
  if (source_arn) {
    const size_t at = source_arn->find(":table/");
    if (source_arn->compare(0, 4, "arn:") != 0 || at == std::string::npos || at + 7 == source_arn->size()) {
      return Status::Validation("sourceTableArn is not a valid ARN");
    }
    request.source_name = source_arn->substr(at + 7);
  } else {
    request.source_name = *source_name;
  }
  if (request.restore_time && use_latest.value_or(false)) {
    return Status::Validation(
        "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore "
        "request. Please specify only one of them.");
  }
  if (!request.restore_time && !use_latest.value_or(false)) {
    return Status::Validation(
        "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both");
  }
  request.use_latest = use_latest.value_or(false);
  request.target = *target;
  TableDescription description;
  DP_RETURN_IF_ERROR(RestoreTableToPointInTime(ctx.db.writes(), ctx.context, request, overrides, &description));
  WriteRestoredTableResponse(&description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
