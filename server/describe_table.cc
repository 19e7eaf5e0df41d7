// DescribeTable: the table's definition, status and live counters.

#include "server/operation.h"
#include "server/request_reader.h"
#include "server/table_description_json.h"

namespace dynapage {

Status HandleDescribeTable(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  ConstraintErrors errors;
  errors.CheckTableName(table_name, "tableName");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  TableDescription description;
  DP_RETURN_IF_ERROR(ctx.db.DescribeTable(*table_name, &description));
  WriteTableDescriptionResponse("Table", description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
