// GlobalTableMembership: the global table a table is a replica of (docs/global-tables.md).
//
// A replica is the same table (same name and schema) in another region's namespace of the same account. Every
// replica's definition holds the whole group: the version it was made with ("2019.11.21" by UpdateTable's
// ReplicaUpdates, "2017.11.29" by CreateGlobalTable and UpdateGlobalTable) and every region in it, its own
// included. A regional table has an empty membership (version empty, no regions). Persisted inside the table's
// definition (engine/model/table_definition.h), so that replicas stay linked across restarts.

#ifndef DYNAPAGE_ENGINE_MODEL_GLOBAL_TABLE_MEMBERSHIP_H_
#define DYNAPAGE_ENGINE_MODEL_GLOBAL_TABLE_MEMBERSHIP_H_

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dynapage {

constexpr char kGlobalTableVersion2019[] = "2019.11.21";
constexpr char kGlobalTableVersion2017[] = "2017.11.29";

// Replica auto scaling of one capacity (UpdateTableReplicaAutoScaling, UpdateGlobalTableSettings): stored and
// reported, nothing is scaled.
struct AutoScalingSettings {
  bool configured = false;  // false: never set ({AutoScalingDisabled: true, ScalingPolicies: []})
  bool disabled = true;
  int64_t minimum_units = 0;
  int64_t maximum_units = 0;
  std::string role_arn;
  std::string policy_name;  // empty: no scaling policy
  double target_value = 0;  // the target tracking policy's TargetValue
  bool disable_scale_in = false;
  int64_t scale_in_cooldown = 0;
  int64_t scale_out_cooldown = 0;
};

struct ReplicaMember {
  std::string region;
  double created = 0;  // seconds since the epoch: when the replica was added (CREATING under a transient delay)
  // This replica's read capacity override and auto scaling (DescribeGlobalTableSettings, replica auto scaling).
  int64_t read_capacity_override = 0;  // 0: none
  AutoScalingSettings read_scaling;
  std::map<std::string, AutoScalingSettings> index_read_scaling;  // by GSI name
};

struct GlobalTableMembership {
  std::string version;                  // empty: a regional table
  std::vector<ReplicaMember> replicas;  // every region of the group, this table's included, in the order added
  bool strong_consistency = false;      // MultiRegionConsistency STRONG
  std::string witness_region;           // GlobalTableWitnesses (STRONG only), empty if none
  double group_created = 0;             // 2017: when CreateGlobalTable made the group
  AutoScalingSettings write_scaling;    // the group's write capacity auto scaling
  std::map<std::string, AutoScalingSettings> index_write_scaling;  // by GSI name
  // Replicas deleted from the group, by region: when (seconds since the epoch). Kept only while they show
  // DELETING (--transient-status-delay), also on a table whose last replica left; not members.
  std::map<std::string, double> deleting;

  bool is_global() const { return !version.empty(); }
  bool has(const std::string& region) const;
  const ReplicaMember* find(const std::string& region) const;
  ReplicaMember* find(const std::string& region);
};

// Whether something that began at since (seconds since the epoch) still shows its transient status at now, under
// --transient-status-delay delay_ms (0: nothing does).
bool InTransientWindow(double since, double now, uint64_t delay_ms);
// Whether a replica of m is still CREATING or DELETING: a membership change in progress.
bool MembershipChanging(const GlobalTableMembership& m, double now, uint64_t delay_ms);

void WriteGlobalTableMembership(const GlobalTableMembership& m, rapidjson::Writer<rapidjson::StringBuffer>* w);
// False if v is not a membership WriteGlobalTableMembership wrote.
bool ReadGlobalTableMembership(const rapidjson::Value& v, GlobalTableMembership* m);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_GLOBAL_TABLE_MEMBERSHIP_H_
