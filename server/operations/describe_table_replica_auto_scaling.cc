// DescribeTableReplicaAutoScaling: the auto scaling settings of every replica of a global table of version
// 2019.11.21 (docs/global-tables.md).

#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/auto_scaling_json.h"

namespace dynapage {

Status HandleDescribeTableReplicaAutoScaling(OperationContext& ctx) {
  std::string table_name;
  DP_RETURN_IF_ERROR(ReadTableNameOnly(RequestReader(ctx.request), &table_name));
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(FindReplica(ctx.databases, ctx.context, table_name, &table));
  WriteTableAutoScalingResponse(*table, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
