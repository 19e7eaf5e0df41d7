// UpdateGlobalTableSettings: the billing mode, write capacity (for every replica), each replica's read capacity
// and the auto scaling of a global table of version 2017.11.29 (docs/global-tables.md). Auto scaling is stored
// and reported; nothing scales.

#include "engine/base/messages.h"
#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/auto_scaling_json.h"
#include "server/protocol/global_table_json.h"
#include "server/protocol/table_schema_reader.h"

namespace dynapage {

namespace {
// A list of {IndexName, <units member>, <auto scaling member>}.
Status ReadIndexSettings(const RequestReader& r, const char* member, const std::string& path, const char* units,
                         const char* scaling, std::vector<GlobalTableSettingsUpdate::Index>* out,
                         ConstraintErrors* errors) {
  std::vector<const rapidjson::Value*> elements;
  bool present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, member, &elements, &present));
  for (size_t i = 0; i < elements.size(); i++) {
    RequestReader e(*elements[i]);
    std::string p = path + "." + std::to_string(i + 1) + ".member";
    std::optional<std::string> name;
    std::optional<int64_t> value;
    DP_RETURN_IF_ERROR(e.GetString("IndexName", &name));
    DP_RETURN_IF_ERROR(e.GetInteger(units, &value));
    errors->CheckTableName(name, p + ".indexName");
    errors->CheckMin(value, p + "." + units, 1);
    GlobalTableSettingsUpdate::Index index;
    index.name = name.value_or("");
    index.units = value.value_or(0);
    DP_RETURN_IF_ERROR(
        ReadAutoScalingUpdate(e, scaling, p + "." + scaling, AutoScalingSettings(), "", &index.scaling, errors));
    out->push_back(std::move(index));
  }
  return Status::OK();
}
}  // namespace

Status HandleUpdateGlobalTableSettings(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  GlobalTableSettingsUpdate update;
  DP_RETURN_IF_ERROR(ReadGlobalTableName(r, &update.name, &errors));
  std::optional<std::string> billing;
  std::optional<int64_t> write_units;
  DP_RETURN_IF_ERROR(r.GetString("GlobalTableBillingMode", &billing));
  DP_RETURN_IF_ERROR(r.GetInteger("GlobalTableProvisionedWriteCapacityUnits", &write_units));
  errors.CheckEnum(billing, "globalTableBillingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  errors.CheckMin(write_units, "globalTableProvisionedWriteCapacityUnits", 1);
  DP_RETURN_IF_ERROR(ReadAutoScalingUpdate(r, "GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate",
                                           "globalTableProvisionedWriteCapacityAutoScalingSettingsUpdate",
                                           AutoScalingSettings(), "", &update.write_scaling, &errors));
  DP_RETURN_IF_ERROR(ReadIndexSettings(r, "GlobalTableGlobalSecondaryIndexSettingsUpdate",
                                       "globalTableGlobalSecondaryIndexSettingsUpdate", "ProvisionedWriteCapacityUnits",
                                       "ProvisionedWriteCapacityAutoScalingSettingsUpdate", &update.index_writes,
                                       &errors));
  std::vector<const rapidjson::Value*> replicas;
  bool present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "ReplicaSettingsUpdate", &replicas, &present));
  for (size_t i = 0; i < replicas.size(); i++) {
    RequestReader e(*replicas[i]);
    std::string p = "replicaSettingsUpdate." + std::to_string(i + 1) + ".member";
    std::optional<std::string> region;
    std::optional<int64_t> read_units;
    DP_RETURN_IF_ERROR(e.GetString("RegionName", &region));
    DP_RETURN_IF_ERROR(e.GetInteger("ReplicaProvisionedReadCapacityUnits", &read_units));
    if (!region) errors.AddNull(p + ".regionName");
    errors.CheckMin(read_units, p + ".replicaProvisionedReadCapacityUnits", 1);
    GlobalTableSettingsUpdate::Replica replica;
    replica.region = region.value_or("");
    replica.read_units = read_units.value_or(0);
    DP_RETURN_IF_ERROR(ReadAutoScalingUpdate(e, "ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate",
                                             p + ".replicaProvisionedReadCapacityAutoScalingSettingsUpdate",
                                             AutoScalingSettings(), "", &replica.read_scaling, &errors));
    DP_RETURN_IF_ERROR(
        ReadIndexSettings(e, "ReplicaGlobalSecondaryIndexSettingsUpdate",
                          p + ".replicaGlobalSecondaryIndexSettingsUpdate", "ProvisionedReadCapacityUnits",
                          "ProvisionedReadCapacityAutoScalingSettingsUpdate", &replica.index_reads, &errors));
    update.replicas.push_back(std::move(replica));
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (billing) update.pay_per_request = *billing == "PAY_PER_REQUEST";
  update.write_units = write_units.value_or(0);
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  GlobalTableInfo info;
  DP_RETURN_IF_ERROR(UpdateGlobalTableSettings(ctx.databases, ctx.context, update, &info));
  WriteGlobalTableSettingsResponse(info, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
