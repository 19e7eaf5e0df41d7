// DescribeGlobalTableSettings: each replica's billing mode, capacity and auto scaling of a global table of version
// 2017.11.29 (docs/global-tables.md).

#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/global_table_json.h"

namespace dynapage {

Status HandleDescribeGlobalTableSettings(OperationContext& ctx) {
  GlobalTableInfo info;
  DP_RETURN_IF_ERROR(DescribeNamedGlobalTable(ctx, &info));
  WriteGlobalTableSettingsResponse(info, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
