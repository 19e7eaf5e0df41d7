#include "engine/write/continuous_backups.h"

namespace dynapage {

namespace {
Status TableNotFound(const std::string& table_name) {
  return Status::Error(ErrorCode::kTableNotFound, "Table not found: " + table_name);
}
}  // namespace

Status DescribeContinuousBackups(const Catalog& catalog, const std::string& table_name,
                                 std::shared_ptr<const TableDefinition>* table) {
  *table = catalog.FindTable(table_name);
  if (!*table) return TableNotFound(table_name);
  return Status::OK();
}

Status UpdateContinuousBackups(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                               bool enabled, int64_t recovery_period_in_days,
                               std::shared_ptr<const TableDefinition>* table) {
  if (!write_path.catalog().FindTable(table_name)) return TableNotFound(table_name);
  TableDescription before, after;
  const double now = ctx.clock->NowSeconds();
  DP_RETURN_IF_ERROR(write_path.ChangeTable(
      ctx, table_name,
      [enabled, recovery_period_in_days, now](const TableDefinition& current, TableDefinition* next) {
        if (enabled && !current.point_in_time_recovery) next->point_in_time_recovery_since = now;
        next->point_in_time_recovery = enabled;
        if (enabled) next->recovery_period_in_days = recovery_period_in_days;
        return Status::OK();
      },
      &before, &after));
  *table = after.definition;
  return Status::OK();
}

}  // namespace dynapage
