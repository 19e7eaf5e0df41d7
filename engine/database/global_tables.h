// Global tables: replicas of a table in other regions of the same account (docs/global-tables.md).
//
// A replica is the same table in another region's namespace of the caller's access key (DatabaseSet), linked by
// the membership every replica's definition holds (engine/model/global_table_membership.h); the replicator
// (engine/database/replicator.h) carries each write to the others. Here: making and breaking the links, with
// DynamoDB's preconditions and errors, for both versions:
//   2019.11.21  UpdateTable's ReplicaUpdates: a Create makes the table in the other region (schema, indexes,
//               settings and every item copied; the stream enabled with NEW_AND_OLD_IMAGES), a Delete deletes it;
//               DeleteTable of a replica removes only that replica.
//   2017.11.29  CreateGlobalTable and UpdateGlobalTable link tables that exist already, empty, with the same
//               keys and a NEW_AND_OLD_IMAGES stream; a removed replica stays, as an independent table. Its items
//               carry the aws:rep:* attributes (engine/write/write_path.cc).
// Every change of membership is written to every member's definition, one region after the other, each through
// its own write path. UpdateTable's changes of one group are serialised: one made while another call runs, or
// while a replica still shows CREATING or DELETING (--transient-status-delay), is ResourceInUseException.
//
// REQUIRES (of every function): set has namespaces (set->replicator() is not null).

#ifndef DYNAPAGE_ENGINE_DATABASE_GLOBAL_TABLES_H_
#define DYNAPAGE_ENGINE_DATABASE_GLOBAL_TABLES_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database_set.h"

namespace dynapage {

// UpdateTable's ReplicaUpdates, MultiRegionConsistency and GlobalTableWitnessUpdates (the server checked the
// shapes: each element one action with a RegionName).
struct ReplicaUpdatesRequest {
  std::string table;
  std::vector<std::string> creates;  // regions, in the request's order
  std::vector<std::string> deletes;
  std::optional<std::string> consistency;  // "EVENTUAL" or "STRONG"
  std::vector<std::string> witness_creates;
  std::vector<std::string> witness_deletes;
};

// Applies request to the table of ctx's namespace. *out describes the table afterwards, its new replicas
// CREATING and its deleted ones DELETING (as DynamoDB's answer shows them).
Status UpdateReplicas(DatabaseSet* set, const RequestContext& ctx, const ReplicaUpdatesRequest& request,
                      TableDescription* out);

// Before DeleteTable of a replica: refused for a group with strong consistency. After it: the other replicas
// forget the deleted one (the last one left becomes a regional table).
Status CheckReplicaDeletable(const TableDefinition& table);
Status ForgetDeletedReplica(DatabaseSet* set, const RequestContext& ctx, const TableDefinition& deleted);

// A 2017.11.29 global table as its operations describe it.
struct GlobalTableInfo {
  std::string name;
  std::string arn;  // arn:aws:dynamodb::<account>:global-table/<name>
  double created = 0;
  std::vector<std::string> regions;
  std::vector<std::shared_ptr<const TableDefinition>> tables;  // each region's, in the order of regions
};

Status CreateGlobalTable(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                         const std::vector<std::string>& regions, GlobalTableInfo* out);
Status UpdateGlobalTable(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                         const std::vector<std::string>& creates, const std::vector<std::string>& deletes,
                         GlobalTableInfo* out);
// The 2017 group of the table name in ctx's region, or GlobalTableNotFoundException.
Status DescribeGlobalTable(DatabaseSet* set, const RequestContext& ctx, const std::string& name, GlobalTableInfo* out);
// The 2017 groups with a replica in region, by name after exclusive_start, at most limit; *more if others follow.
Status ListGlobalTables(DatabaseSet* set, const RequestContext& ctx, const std::string& region,
                        const std::string& exclusive_start, size_t limit, std::vector<GlobalTableInfo>* out,
                        bool* more);

// DescribeGlobalTableSettings and UpdateGlobalTableSettings (2017.11.29 groups). Units 0: unchanged.
struct GlobalTableSettingsUpdate {
  std::string name;
  std::optional<bool> pay_per_request;  // GlobalTableBillingMode
  int64_t write_units = 0;              // GlobalTableProvisionedWriteCapacityUnits, for every replica
  std::optional<AutoScalingSettings> write_scaling;
  struct Index {
    std::string name;
    int64_t units = 0;  // write units (global) or read units (of one replica)
    std::optional<AutoScalingSettings> scaling;
  };
  std::vector<Index> index_writes;
  struct Replica {
    std::string region;
    int64_t read_units = 0;
    std::optional<AutoScalingSettings> read_scaling;
    std::vector<Index> index_reads;
  };
  std::vector<Replica> replicas;
};
// IndexNotFoundException for an index the table lacks, ReplicaNotFoundException for a region not in the group.
Status UpdateGlobalTableSettings(DatabaseSet* set, const RequestContext& ctx, const GlobalTableSettingsUpdate& update,
                                 GlobalTableInfo* out);

// The 2019.11.21 replica name in ctx's region, for replica auto scaling; ResourceNotFoundException
// "Global table with name: '<name>' does not exist." for a regional or missing table.
Status FindReplica(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                   std::shared_ptr<const TableDefinition>* out);
// After UpdateTable or UpdateTimeToLive of the table name in ctx's region: a 2019.11.21 replica's group-wide
// settings copied into every other replica (billing mode and throughput, global secondary indexes created or
// deleted, TTL, stream, encryption, on-demand and warm throughput). Nothing for a regional or 2017 table.
Status PropagateGroupSettings(DatabaseSet* set, const RequestContext& ctx, const std::string& name);
// Writes m (the same group, other settings) into the definition of every member of table's group.
Status SetGroupSettings(DatabaseSet* set, const RequestContext& ctx, const TableDefinition& table,
                        const GlobalTableMembership& m);

// Runs change on the table name in each of regions (their namespaces of ctx's access key), one after the other.
Status ChangeInRegions(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                       const std::vector<std::string>& regions, const WritePath::DefinitionChange& change);

// ctx as if the caller were in region.
RequestContext InRegion(const RequestContext& ctx, const std::string& region);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_GLOBAL_TABLES_H_
