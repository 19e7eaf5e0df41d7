// DescribeGlobalTable: a global table of version 2017.11.29 (docs/global-tables.md).

#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/global_table_json.h"

namespace dynapage {

Status HandleDescribeGlobalTable(OperationContext& ctx) {
  GlobalTableInfo info;
  DP_RETURN_IF_ERROR(DescribeNamedGlobalTable(ctx, &info));
  WriteGlobalTableDescriptionResponse(info, "ACTIVE", &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
