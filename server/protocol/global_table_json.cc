#include "server/protocol/global_table_json.h"

namespace dynapage {

std::string RegionOfArn(const std::string& arn) {
  size_t start = 0;
  for (int colons = 0; colons < 3; colons++) {
    start = arn.find(':', start);
    if (start == std::string::npos) return "";
    start++;
  }
  size_t end = arn.find(':', start);
  return arn.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

void ApplyReplicaTransientStatus(const RequestContext& ctx, TableDescription* description) {
  if (ctx.transient_status_ms == 0) return;
  const double now = ctx.clock->NowSeconds();
  const GlobalTableMembership& m = description->definition->global;
  for (const ReplicaMember& r : m.replicas) {
    if (InTransientWindow(r.created, now, ctx.transient_status_ms)) {
      description->replica_status.emplace(r.region, "CREATING");
    }
  }
  for (const auto& [region, since] : m.deleting) {
    if (InTransientWindow(since, now, ctx.transient_status_ms)) description->replica_status.emplace(region, "DELETING");
  }
}

void WriteReplicaMembers(const TableDescription& d, JsonWriter* w) {
  const GlobalTableMembership& m = d.definition->global;
  // A table whose last replica is being deleted is regional already, and shows only that replica.
  const bool replica = m.version == kGlobalTableVersion2019;
  if (!replica && d.replica_status.empty()) return;
  const std::string own = RegionOfArn(d.definition->arn);
  if (replica) {
    w->Key("GlobalTableVersion");
    w->String(m.version);
    w->Key("GlobalTableSettingsReplicationMode");
    w->String("ENABLED_WITH_OVERRIDES");
  }
  auto write_replica = [&](const std::string& region, const std::string& status) {
    w->StartObject();
    w->Key("RegionName");
    w->String(region);
    w->Key("ReplicaStatus");
    w->String(status);
    w->EndObject();
  };
  w->Key("Replicas");
  w->StartArray();
  for (const ReplicaMember& r : m.replicas) {
    if (r.region == own) continue;
    auto status = d.replica_status.find(r.region);
    write_replica(r.region, status == d.replica_status.end() ? "ACTIVE" : status->second);
  }
  // Replicas being deleted have left the group already.
  for (const auto& [region, status] : d.replica_status) {
    if (!m.has(region)) write_replica(region, status);
  }
  w->EndArray();
  if (m.strong_consistency) {
    w->Key("MultiRegionConsistency");
    w->String("STRONG");
  }
  if (!m.witness_region.empty()) {
    w->Key("GlobalTableWitnesses");
    w->StartArray();
    w->StartObject();
    w->Key("RegionName");
    w->String(m.witness_region);
    w->Key("WitnessStatus");
    w->String("ACTIVE");
    w->EndObject();
    w->EndArray();
  }
}

void WriteGlobalTableDescription(const GlobalTableInfo& info, const char* status, JsonWriter* w) {
  w->StartObject();
  w->Key("ReplicationGroup");
  w->StartArray();
  for (const std::string& region : info.regions) {
    w->StartObject();
    w->Key("RegionName");
    w->String(region);
    w->Key("ReplicaStatus");
    w->String("ACTIVE");
    w->EndObject();
  }
  w->EndArray();
  w->Key("GlobalTableArn");
  w->String(info.arn);
  w->Key("CreationDateTime");
  w->Double(info.created);
  w->Key("GlobalTableStatus");
  w->String(status);
  w->Key("GlobalTableName");
  w->String(info.name);
  w->EndObject();
}

void WriteGlobalTableDescriptionResponse(const GlobalTableInfo& info, const char* status, JsonWriter* w) {
  w->StartObject();
  w->Key("GlobalTableDescription");
  WriteGlobalTableDescription(info, status, w);
  w->EndObject();
}

void WriteGlobalTableSettingsResponse(const GlobalTableInfo& info, JsonWriter* w) {
  w->StartObject();
  w->Key("GlobalTableName");
  w->String(info.name);
  w->Key("ReplicaSettings");
  w->StartArray();
  for (size_t i = 0; i < info.regions.size(); i++) {
    const TableDefinition* t = info.tables[i].get();
    if (!t) continue;  // dropped meanwhile
    const ReplicaMember* member = t->global.find(info.regions[i]);
    const AutoScalingSettings none;
    w->StartObject();
    w->Key("RegionName");
    w->String(info.regions[i]);
    w->Key("ReplicaStatus");
    w->String("ACTIVE");
    w->Key("ReplicaBillingModeSummary");
    w->StartObject();
    w->Key("BillingMode");
    w->String(t->pay_per_request ? "PAY_PER_REQUEST" : "PROVISIONED");
    w->EndObject();
    w->Key("ReplicaProvisionedReadCapacityUnits");
    w->Int64(t->pay_per_request ? 0 : t->throughput.read_capacity_units);
    w->Key("ReplicaProvisionedReadCapacityAutoScalingSettings");
    WriteAutoScalingDescription(member ? member->read_scaling : none, w);
    w->Key("ReplicaProvisionedWriteCapacityUnits");
    w->Int64(t->pay_per_request ? 0 : t->throughput.write_capacity_units);
    w->Key("ReplicaProvisionedWriteCapacityAutoScalingSettings");
    WriteAutoScalingDescription(t->global.write_scaling, w);
    w->Key("ReplicaGlobalSecondaryIndexSettings");
    w->StartArray();
    for (const IndexDefinition& index : t->indexes) {
      if (!index.global) continue;
      w->StartObject();
      w->Key("IndexName");
      w->String(index.name);
      w->Key("IndexStatus");
      w->String("ACTIVE");
      w->Key("ProvisionedReadCapacityUnits");
      w->Int64(t->pay_per_request ? 0 : index.throughput.read_capacity_units);
      w->Key("ProvisionedWriteCapacityUnits");
      w->Int64(t->pay_per_request ? 0 : index.throughput.write_capacity_units);
      w->EndObject();
    }
    w->EndArray();
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

}  // namespace dynapage
