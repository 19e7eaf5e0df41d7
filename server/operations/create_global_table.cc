// CreateGlobalTable: links same-name tables of several regions into a global table of version 2017.11.29
// (docs/global-tables.md).

#include "engine/base/messages.h"
#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/global_table_json.h"
#include "server/protocol/table_schema_reader.h"

namespace dynapage {

Status HandleCreateGlobalTable(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  std::string name;
  DP_RETURN_IF_ERROR(ReadGlobalTableName(r, &name, &errors));
  std::vector<const rapidjson::Value*> group;
  bool present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "ReplicationGroup", &group, &present));
  if (!present) errors.AddNull("replicationGroup");
  std::vector<std::string> regions;
  for (size_t i = 0; i < group.size(); i++) {
    std::optional<std::string> region;
    DP_RETURN_IF_ERROR(RequestReader(*group[i]).GetString("RegionName", &region));
    if (region) regions.push_back(*region);
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (regions.empty()) return Status::Validation(std::string(kInvalidParameterPrefix) + "ReplicationGroup is empty");
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  GlobalTableInfo info;
  DP_RETURN_IF_ERROR(CreateGlobalTable(ctx.databases, ctx.context, name, regions, &info));
  WriteGlobalTableDescriptionResponse(info, "CREATING", &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
