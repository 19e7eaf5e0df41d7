// DescribeTable: the table's definition, status and live counters.

#include "server/operation.h"
#include "server/request_reader.h"
#include "server/table_description_json.h"

namespace dynapage {

Status HandleDescribeTable(OperationContext& ctx) {
  std::string table_name;
  DP_RETURN_IF_ERROR(ReadTableNameOnly(RequestReader(ctx.request), &table_name));
  TableDescription description;
  DP_RETURN_IF_ERROR(ctx.db.DescribeTable(table_name, &description));
  WriteTableDescriptionResponse("Table", description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
