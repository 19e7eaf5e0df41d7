// DescribeGlobalTable: a global table of version 2017.11.29 (docs/global-tables.md).

#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/global_table_json.h"

namespace dynapage {

Status HandleDescribeGlobalTable(OperationContext& ctx) {
  ConstraintErrors errors;
  std::string name;
  DP_RETURN_IF_ERROR(ReadGlobalTableName(RequestReader(ctx.request), &name, &errors));
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  GlobalTableInfo info;
  DP_RETURN_IF_ERROR(DescribeGlobalTable(ctx.databases, ctx.context, name, &info));
  ctx.response.StartObject();
  ctx.response.Key("GlobalTableDescription");
  WriteGlobalTableDescription(info, "ACTIVE", &ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

}  // namespace dynapage
