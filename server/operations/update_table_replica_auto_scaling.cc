// UpdateTableReplicaAutoScaling: stores the auto scaling settings of a global table of version 2019.11.21 — its
// write capacity (the group's), each replica's read capacity, and their global indexes'; answers as
// DescribeTableReplicaAutoScaling. Nothing scales (docs/global-tables.md).

#include "engine/base/messages.h"
#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/auto_scaling_json.h"
#include "server/protocol/table_schema_reader.h"

namespace dynapage {

namespace {
// The settings a list of {IndexName, <member>} sets, into by_index.
Status ReadIndexScaling(const RequestReader& r, const char* list, const std::string& path, const char* member,
                        const std::string& default_policy, const TableDefinition& table,
                        std::map<std::string, AutoScalingSettings>* by_index, bool* enables, ConstraintErrors* errors) {
  std::vector<const rapidjson::Value*> elements;
  bool present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, list, &elements, &present));
  for (size_t i = 0; i < elements.size(); i++) {
    RequestReader e(*elements[i]);
    std::string p = path + "." + std::to_string(i + 1) + ".member";
    std::optional<std::string> name;
    DP_RETURN_IF_ERROR(e.GetString("IndexName", &name));
    errors->CheckTableName(name, p + ".indexName", false);
    if (!name) continue;
    const IndexDefinition* index = table.FindIndex(*name);
    if (!index || !index->global) {
      return Status::NotFound("Requested resource not found: Index: " + *name + " not found for table: " + table.name);
    }
    std::optional<AutoScalingSettings> s;
    auto current = by_index->find(*name);
    DP_RETURN_IF_ERROR(ReadAutoScalingUpdate(e, member, p + "." + member,
                                             current == by_index->end() ? AutoScalingSettings() : current->second,
                                             default_policy, &s, errors));
    if (!s) continue;
    *enables |= !s->disabled;
    (*by_index)[*name] = *s;
  }
  return Status::OK();
}
}  // namespace

Status HandleUpdateTableReplicaAutoScaling(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  std::optional<std::string> table_name;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  errors.CheckTableName(table_name, "tableName");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(FindReplica(ctx.databases, ctx.context, *table_name, &table));
  GlobalTableMembership m = table->global;
  const std::string read_policy = "DynamoDBReadCapacityUtilization:table/" + table->name;
  const std::string write_policy = "DynamoDBWriteCapacityUtilization:table/" + table->name;
  bool enables = false;
  std::optional<AutoScalingSettings> write;
  DP_RETURN_IF_ERROR(ReadAutoScalingUpdate(r, "ProvisionedWriteCapacityAutoScalingUpdate",
                                           "provisionedWriteCapacityAutoScalingUpdate", m.write_scaling, write_policy,
                                           &write, &errors));
  if (write) {
    enables |= !write->disabled;
    m.write_scaling = *write;
  }
  DP_RETURN_IF_ERROR(ReadIndexScaling(r, "GlobalSecondaryIndexUpdates", "globalSecondaryIndexUpdates",
                                      "ProvisionedWriteCapacityAutoScalingUpdate", write_policy, *table,
                                      &m.index_write_scaling, &enables, &errors));
  std::vector<const rapidjson::Value*> replicas;
  bool present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "ReplicaUpdates", &replicas, &present));
  for (size_t i = 0; i < replicas.size(); i++) {
    RequestReader e(*replicas[i]);
    std::string p = "replicaUpdates." + std::to_string(i + 1) + ".member";
    std::optional<std::string> region;
    DP_RETURN_IF_ERROR(e.GetString("RegionName", &region));
    if (!region) {
      errors.AddNull(p + ".regionName");
      continue;
    }
    ReplicaMember* member = m.find(*region);
    if (!member) {
      return Status::Validation(
          "Update global table operation failed because one or more replicas were not part of the global table.");
    }
    std::optional<AutoScalingSettings> read;
    DP_RETURN_IF_ERROR(ReadAutoScalingUpdate(e, "ReplicaProvisionedReadCapacityAutoScalingUpdate",
                                             p + ".replicaProvisionedReadCapacityAutoScalingUpdate",
                                             member->read_scaling, read_policy, &read, &errors));
    if (read) {
      enables |= !read->disabled;
      member->read_scaling = *read;
    }
    DP_RETURN_IF_ERROR(ReadIndexScaling(e, "ReplicaGlobalSecondaryIndexUpdates",
                                        p + ".replicaGlobalSecondaryIndexUpdates",
                                        "ProvisionedReadCapacityAutoScalingUpdate", read_policy, *table,
                                        &member->index_read_scaling, &enables, &errors));
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (enables && table->pay_per_request) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Auto scaling cannot be enabled on a table whose billing mode is PAY_PER_REQUEST");
  }
  DP_RETURN_IF_ERROR(SetGroupSettings(ctx.databases, ctx.context, *table, m));
  DP_RETURN_IF_ERROR(FindReplica(ctx.databases, ctx.context, *table_name, &table));
  WriteTableAutoScalingResponse(*table, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
