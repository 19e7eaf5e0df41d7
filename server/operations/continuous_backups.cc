// DescribeContinuousBackups and UpdateContinuousBackups: a table's point-in-time recovery setting and its restorable
// window (engine/write/continuous_backups.h, docs/backups.md). One file for the two, which share the answer.

#include "engine/write/continuous_backups.h"
#include "engine/model/json_types.h"
#include "engine/write/backups.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
void WriteContinuousBackupsDescription(const TableDefinition& table, const RequestContext& ctx, JsonWriter* w) {
  w->StartObject();
  w->Key("ContinuousBackupsDescription");
  w->StartObject();
  w->Key("ContinuousBackupsStatus");
  w->String("ENABLED");
  w->Key("PointInTimeRecoveryDescription");
  w->StartObject();
  w->Key("PointInTimeRecoveryStatus");
  w->String(table.point_in_time_recovery ? "ENABLED" : "DISABLED");
  if (table.point_in_time_recovery) {
    const RestorableWindow window =
        RestorableWindowOf(table, ctx.clock->NowSeconds(), static_cast<double>(ctx.pitr_latest_lag_seconds));
    w->Key("RecoveryPeriodInDays");
    w->Int64(table.recovery_period_in_days);
    w->Key("EarliestRestorableDateTime");
    w->Double(window.earliest);
    w->Key("LatestRestorableDateTime");
    w->Double(window.latest);
  }
  w->EndObject();
  w->EndObject();
  w->EndObject();
}
}  // namespace

Status HandleDescribeContinuousBackups(OperationContext& ctx) {
  std::string table_name;
  DP_RETURN_IF_ERROR(ReadTableNameOnly(RequestReader(ctx.request), &table_name));
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(DescribeContinuousBackups(ctx.db.catalog(), table_name, &table));
  WriteContinuousBackupsDescription(*table, ctx.context, &ctx.response);
  return Status::OK();
}

Status HandleUpdateContinuousBackups(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name;
  std::optional<bool> enabled;
  std::optional<int64_t> period;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  const rapidjson::Value* spec = r.Get("PointInTimeRecoverySpecification");
  if (spec) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*spec));
    RequestReader s(*spec);
    DP_RETURN_IF_ERROR(s.GetBoolean("PointInTimeRecoveryEnabled", &enabled));
    DP_RETURN_IF_ERROR(s.GetInteger("RecoveryPeriodInDays", &period));
  }
  ConstraintErrors errors;
  errors.CheckTableNameOrArn(table_name, "tableName");  // a table name or ARN, as DescribeContinuousBackups
  if (!spec) {
    errors.AddNull("pointInTimeRecoverySpecification");
  } else {
    if (!enabled) errors.AddNull("pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled");
    errors.CheckMin(period, "pointInTimeRecoverySpecification.recoveryPeriodInDays", 1);
    errors.CheckMax(period, "pointInTimeRecoverySpecification.recoveryPeriodInDays", 35);
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(
      UpdateContinuousBackups(ctx.db.writes(), ctx.context, *table_name, *enabled, period.value_or(35), &table));
  WriteContinuousBackupsDescription(*table, ctx.context, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
