// UpdateTable with ReplicaUpdates: adding and removing replicas of a global table, version 2019.11.21
// (docs/global-tables.md). ReplicaUpdates must be the only change of the request; MultiRegionConsistency and
// GlobalTableWitnessUpdates may come with it. engine/database/global_tables.cc checks the rest and applies it.

#include "engine/base/messages.h"
#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/region_actions_reader.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/table_description_json.h"

namespace dynapage {

namespace {
// The members UpdateTable may send with ReplicaUpdates.
bool GoesWithReplicaUpdates(std::string_view member) {
  return member == "TableName" || member == "ReplicaUpdates" || member == "MultiRegionConsistency" ||
         member == "GlobalTableWitnessUpdates";
}
}  // namespace

Status HandleUpdateTableReplicas(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  std::optional<std::string> table_name, consistency;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetString("MultiRegionConsistency", &consistency));
  RegionActions replicas, witnesses;
  DP_RETURN_IF_ERROR(ReadRegionActions(r, "ReplicaUpdates", "replicaUpdates", true, &replicas, &errors));
  DP_RETURN_IF_ERROR(
      ReadRegionActions(r, "GlobalTableWitnessUpdates", "globalTableWitnessUpdates", false, &witnesses, &errors));
  errors.CheckTableNameOrArn(table_name, "tableName");
  errors.CheckEnum(consistency, "multiRegionConsistency", {"EVENTUAL", "STRONG"});
  DP_RETURN_IF_ERROR(errors.ToStatus());
  for (auto m = ctx.request.MemberBegin(); m != ctx.request.MemberEnd(); ++m) {
    if (!m->value.IsNull() && !GoesWithReplicaUpdates(m->name.GetString())) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "Replica modification must be the only operation in the request");
    }
  }
  if (replicas.some_element_mixed || witnesses.some_element_mixed) {
    return Status::Validation("Update table operation with more than one type of replica actions not allowed");
  }
  if (replicas.some_element_empty || witnesses.some_element_empty) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "One of ReplicationGroupUpdate.Create, ReplicationGroupUpdate.Update, "
                              "ReplicationGroupUpdate.Delete must not be null");
  }
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  ReplicaUpdatesRequest request;
  request.table = *table_name;
  request.creates = replicas.creates;
  request.deletes = replicas.deletes;
  request.consistency = consistency;
  request.witness_creates = witnesses.creates;
  request.witness_deletes = witnesses.deletes;
  TableDescription description;
  if (!replicas.updates.empty() && request.creates.empty() && request.deletes.empty()) {
    // An Update (overrides of a replica's settings) is accepted and changes nothing here.
    DP_RETURN_IF_ERROR(ctx.db.catalog().DescribeTable(request.table, &description));
    for (const std::string& region : replicas.updates) {
      if (!description.definition->global.has(region) || region == ctx.context.caller.region) {
        return Status::Validation(
            "Update global table operation failed because one or more replicas were not part of the global table.");
      }
    }
  } else {
    DP_RETURN_IF_ERROR(UpdateReplicas(ctx.databases, ctx.context, request, &description));
  }
  WriteTableDescriptionResponse("TableDescription", description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
