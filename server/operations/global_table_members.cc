#include "server/operations/global_table_members.h"

#include <optional>

#include "engine/base/messages.h"

namespace dynapage {

Status RequireRegionNamespaces(const OperationContext& ctx) {
  if (ctx.databases && ctx.databases->replicator()) return Status::OK();
  return Status::Validation(std::string(kInvalidParameterPrefix) +
                            "Global tables need a namespace per region; this server shares one among all regions "
                            "(--namespace shared)");
}

Status ReadGlobalTableName(const RequestReader& r, std::string* name, ConstraintErrors* errors) {
  std::optional<std::string> value;
  DP_RETURN_IF_ERROR(r.GetString("GlobalTableName", &value));
  errors->CheckTableName(value, "globalTableName");
  *name = value.value_or("");
  return Status::OK();
}

Status DescribeNamedGlobalTable(const OperationContext& ctx, GlobalTableInfo* info) {
  ConstraintErrors errors;
  std::string name;
  DP_RETURN_IF_ERROR(ReadGlobalTableName(RequestReader(ctx.request), &name, &errors));
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  return DescribeGlobalTable(ctx.databases, ctx.context, name, info);
}

}  // namespace dynapage
