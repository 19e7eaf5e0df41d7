// DescribeTable: the table's definition, status and live counters.

#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/table_description_json.h"

namespace dynapage {

Status HandleDescribeTable(OperationContext& ctx) {
  std::string table_name;
  DP_RETURN_IF_ERROR(ReadTableNameOnly(RequestReader(ctx.request), &table_name));
  TableDescription description;
  Status found = ctx.db.catalog().DescribeTable(table_name, &description);
  // Under a transient-status delay, a table deleted less than the delay ago is still described, DELETING.
  if (!found.ok() && !ctx.db.catalog().FindDeleting(table_name, ctx.context.clock->NowSeconds(), &description)) {
    return found;
  }
  ApplyTransientStatus(ctx.context, &description);
  WriteTableDescriptionResponse("Table", description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
