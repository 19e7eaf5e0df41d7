// UpdateGlobalTable: adds replicas to, or removes them from, a global table of version 2017.11.29
// (docs/global-tables.md).

#include "engine/base/messages.h"
#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/global_table_json.h"
#include "server/protocol/region_actions_reader.h"

namespace dynapage {

Status HandleUpdateGlobalTable(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  std::string name;
  DP_RETURN_IF_ERROR(ReadGlobalTableName(r, &name, &errors));
  RegionActions actions;
  DP_RETURN_IF_ERROR(ReadRegionActions(r, "ReplicaUpdates", "replicaUpdates", false, &actions, &errors));
  if (!actions.present) errors.AddNull("replicaUpdates");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (actions.elements == 0 || actions.some_element_empty || actions.some_element_mixed) {
    return Status::Validation("One or more parameter values were invalid");
  }
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  GlobalTableInfo info;
  DP_RETURN_IF_ERROR(UpdateGlobalTable(ctx.databases, ctx.context, name, actions.creates, actions.deletes, &info));
  WriteGlobalTableDescriptionResponse(info, "ACTIVE", &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
