#include "engine/database/global_tables.h"

#include <algorithm>
#include <utility>

#include "engine/base/check.h"
#include "engine/base/messages.h"
#include "engine/storage/key_codec.h"
#include "engine/storage/table_items.h"

namespace dynapage {

namespace {

constexpr char kNewAndOldImages[] = "NEW_AND_OLD_IMAGES";
constexpr size_t kCopyBatch = 100;  // items per batch of a new replica's copy

Status Invalid(const std::string& what) { return Status::Validation(std::string(kInvalidParameterPrefix) + what); }

// Region names as AWS makes them: two letters, one or more words, a number ("us-east-1", "us-gov-west-1").
bool ValidRegionName(const std::string& region) {
  size_t first = region.find('-'), last = region.rfind('-');
  if (first != 2 || last == first || last + 1 >= region.size()) return false;
  for (size_t i = 0; i < region.size(); i++) {
    char c = region[i];
    bool ok = i > last ? (c >= '0' && c <= '9') : ((c >= 'a' && c <= 'z') || c == '-');
    if (!ok || (c == '-' && i > 0 && region[i - 1] == '-')) return false;
  }
  return true;
}

Status DatabaseIn(DatabaseSet* set, const RequestContext& ctx, const std::string& region, Database** db) {
  return set->For(InRegion(ctx, region).caller, db);
}

std::vector<std::string> RegionsOf(const GlobalTableMembership& m) {
  std::vector<std::string> regions;
  for (const ReplicaMember& r : m.replicas) regions.push_back(r.region);
  return regions;
}

ReplicaMember MemberIn(const std::string& region) {
  ReplicaMember member;
  member.region = region;
  return member;
}

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// The membership of a group without the regions in removed: none once one region is left.
GlobalTableMembership Without(const GlobalTableMembership& m, const std::vector<std::string>& removed) {
  GlobalTableMembership left = m;
  left.replicas.erase(std::remove_if(left.replicas.begin(), left.replicas.end(),
                                     [&](const ReplicaMember& r) { return Contains(removed, r.region); }),
                      left.replicas.end());
  if (Contains(removed, left.witness_region)) left.witness_region.clear();
  left.deleting.clear();  // over: a change begins only once the earlier ones are
  if (left.replicas.size() <= 1 && left.witness_region.empty()) left = GlobalTableMembership();
  return left;
}

// Writes m into the definition of name in each of regions (enabling a NEW_AND_OLD_IMAGES stream where there is
// none, if enable_stream).
Status SetMembership(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                     const std::vector<std::string>& regions, const GlobalTableMembership& m, bool enable_stream) {
  return ChangeInRegions(set, ctx, name, regions, [&](const TableDefinition&, TableDefinition* next) {
    next->global = m;
    if (enable_stream && next->stream_view_type.empty()) next->stream_view_type = kNewAndOldImages;
    return Status::OK();
  });
}

// The definition of source's replica in another region, for WritePath::CreateTable: the schema, indexes and the
// group-wide settings; not the regional ones (tags, deletion protection, point-in-time recovery) or identity.
TableDefinition ReplicaDefinition(const TableDefinition& source, const GlobalTableMembership& m) {
  TableDefinition d = source;
  d.global = m;
  if (d.stream_view_type.empty()) d.stream_view_type = kNewAndOldImages;
  d.stream_id = 0;
  d.latest_stream_arn.clear();
  d.latest_stream_label.clear();
  d.tags.clear();
  d.deletion_protection = false;
  d.point_in_time_recovery = false;
  d.point_in_time_recovery_since = 0;
  d.ttl_changed_ms = 0;
  for (IndexDefinition& index : d.indexes) {
    index.keyspace = 0;
    index.creation_time = 0;
  }
  for (VectorIndexDefinition& index : d.vector_indexes) index.creation_time = 0;
  return d;
}

// Copies every item of source (in ctx's region) into its replica in region, with the items' stamps, through the
// replica's write path: a write replicated meanwhile with a later stamp wins over the copy.
Status CopyItems(DatabaseSet* set, const RequestContext& ctx, Database* source_db, const TableDefinition& source,
                 const std::string& region) {
  Database* target = nullptr;
  DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &target));
  const RequestContext target_ctx = InRegion(ctx, region);
  const std::string prefix = KeyspacePrefix(source.keyspace);
  auto it = source_db->storage().NewIterator(prefix, PrefixSuccessor(prefix));
  std::vector<ReplicatedWrite> batch;
  auto flush = [&]() -> Status {
    size_t applied = 0;
    Status s = target->writes().ApplyReplicated(target_ctx, source.name, ctx.caller.region, &batch, &applied);
    batch.clear();
    return s;
  };
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ReplicatedWrite w;
    w.table = source.name;
    std::string key(it->key());
    w.key_suffix = key.substr(prefix.size());
    AttributeMap item;
    uint64_t size = 0;
    DP_RETURN_IF_ERROR(DecodeTableItem(source, it->value(), &item, &size));
    w.item = std::move(item);
    DP_RETURN_IF_ERROR(source_db->writes().ReadStamp(key, ctx.caller.region, &w.stamp));
    batch.push_back(std::move(w));
    if (batch.size() >= kCopyBatch) DP_RETURN_IF_ERROR(flush());
  }
  DP_RETURN_IF_ERROR(it->status());
  return batch.empty() ? Status::OK() : flush();
}

std::string TableBeingUpdated(const std::string& table) {
  return "Attempt to change a resource which is still in use: Table is being updated: " + table;
}

// Holds group's membership change (DatabaseSet::BeginMembershipChange) for its lifetime, if no call had it.
class MembershipChangeGuard {
 public:
  MembershipChangeGuard(DatabaseSet* set, std::string group)
      : set_(set), group_(std::move(group)), owned_(set->BeginMembershipChange(group_)) {}
  ~MembershipChangeGuard() {
    if (owned_) set_->EndMembershipChange(group_);
  }
  MembershipChangeGuard(const MembershipChangeGuard&) = delete;
  MembershipChangeGuard& operator=(const MembershipChangeGuard&) = delete;
  bool owned() const { return owned_; }

 private:
  DatabaseSet* set_;
  std::string group_;
  bool owned_;
};

std::string ReplicasExisted(const std::string& table) {
  return "Failed to create a the new replica of table with name: '" + table +
         "' because one or more replicas already existed as tables.";
}

// The checks of the 2019 version that need the table; *creates loses its duplicates.
Status CheckReplicaUpdates(DatabaseSet* set, const RequestContext& ctx, const TableDefinition& t,
                           const ReplicaUpdatesRequest& request, std::vector<std::string>* creates) {
  const GlobalTableMembership& m = t.global;
  for (const std::string& region : request.creates) {
    if (!Contains(*creates, region)) creates->push_back(region);
  }
  if (m.version == kGlobalTableVersion2017) {
    return Invalid("Table " + t.name + " is a replica of a global table of version 2017.11.29: use UpdateGlobalTable");
  }
  if (Contains(*creates, ctx.caller.region) || Contains(request.deletes, ctx.caller.region)) {
    return Status::Validation("Cannot add or delete the local region through ReplicaUpdates");
  }
  for (const std::vector<std::string>* list :
       {static_cast<const std::vector<std::string>*>(creates), &request.deletes, &request.witness_creates}) {
    for (const std::string& region : *list) {
      if (!ValidRegionName(region)) return Invalid("Invalid region name: " + region);
    }
  }
  const bool strong = request.consistency && *request.consistency == "STRONG";
  if (!request.witness_creates.empty() && !strong) {
    return Status::Validation(
        "MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates parameter "
        "is present.");
  }
  if (request.consistency && m.is_global()) {
    return Status::Validation("MultiRegionConsistency parameter is unsupported on existing global table");
  }
  if (strong) {
    if (!request.deletes.empty() || 1 + creates->size() + request.witness_creates.size() != 3 ||
        request.witness_creates.size() > 1) {
      return Status::Validation(
          "Unsupported replica count for global tables with MultiRegionConsistency set to STRONG.");
    }
    for (const std::string& witness : request.witness_creates) {
      if (witness == ctx.caller.region || Contains(*creates, witness)) {
        return Status::Validation(
            "Cannot add a witness in the same region as an existing replica when creating a "
            "global table with MultiRegionConsistency set to STRONG.");
      }
    }
  } else if (m.strong_consistency) {
    if (!creates->empty()) {
      return Status::Validation("Cannot add replicas to a global table with strong MultiRegionConsistency");
    }
    if (!m.witness_region.empty() && !Contains(request.witness_deletes, m.witness_region)) {
      return Status::Validation("Update table delete operation does not include all witnesses.");
    }
  } else if (creates->size() + request.deletes.size() > 1) {
    return Status::Validation("Update table operation with more than one create or delete replica actions not allowed");
  }
  for (const std::string& region : *creates) {
    Database* target = nullptr;
    DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &target));
    if (m.has(region) || target->catalog().FindTable(t.name)) return Status::Validation(ReplicasExisted(t.name));
  }
  for (const std::string& region : request.deletes) {
    if (!m.has(region)) {
      return Status::Validation(
          "Update global table operation failed because one or more replicas were not part of the global table.");
    }
  }
  if (!creates->empty() && !t.pay_per_request && (!m.write_scaling.configured || m.write_scaling.disabled)) {
    return Status::Validation("Table write capacity should either be Pay-Per-Request or AutoScaled.");
  }
  return Status::OK();
}

}  // namespace

RequestContext InRegion(const RequestContext& ctx, const std::string& region) {
  RequestContext in_region = ctx;
  in_region.caller.region = region;
  return in_region;
}

Status ChangeInRegions(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                       const std::vector<std::string>& regions, const WritePath::DefinitionChange& change) {
  for (const std::string& region : regions) {
    Database* db = nullptr;
    DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &db));
    TableDescription before, after;
    DP_RETURN_IF_ERROR(db->writes().ChangeTable(InRegion(ctx, region), name, change, &before, &after));
  }
  return Status::OK();
}

Status UpdateReplicas(DatabaseSet* set, const RequestContext& ctx, const ReplicaUpdatesRequest& request,
                      TableDescription* out) {
  DP_DCHECK(set->replicator() != nullptr);
  Database* db = nullptr;
  DP_RETURN_IF_ERROR(set->For(ctx.caller, &db));
  TableDescription before;
  DP_RETURN_IF_ERROR(db->catalog().DescribeTable(request.table, &before));
  const TableDefinition& t = *before.definition;
  // One membership change of a group at a time: none while another call runs, or while a replica still shows
  // CREATING or DELETING (--transient-status-delay).
  MembershipChangeGuard guard(set, ctx.caller.access_key + '\n' + t.name);
  if (!guard.owned() || MembershipChanging(t.global, ctx.clock->NowSeconds(), ctx.transient_status_ms)) {
    return Status::InUse(TableBeingUpdated(t.name));
  }
  std::vector<std::string> creates;
  DP_RETURN_IF_ERROR(CheckReplicaUpdates(set, ctx, t, request, &creates));

  const std::vector<std::string> members =
      t.global.is_global() ? RegionsOf(t.global) : std::vector<std::string>{ctx.caller.region};
  if (!creates.empty()) {
    GlobalTableMembership m = t.global;
    m.deleting.clear();  // over: a change begins only once the earlier ones are
    if (!m.is_global()) {
      m.version = kGlobalTableVersion2019;
      m.replicas.push_back(MemberIn(ctx.caller.region));
      m.strong_consistency = request.consistency && *request.consistency == "STRONG";
      if (!request.witness_creates.empty()) m.witness_region = request.witness_creates.front();
    }
    const double now = ctx.clock->NowSeconds();
    for (const std::string& region : creates) {
      ReplicaMember member;
      member.region = region;
      member.created = now;
      m.replicas.push_back(std::move(member));
    }
    // The new tables first, so that no write the members send from now on finds no table; then the members; then
    // the copy of the items, which the members' writes sent meanwhile overtake where they are later.
    for (const std::string& region : creates) {
      Database* target = nullptr;
      DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &target));
      TableDescription made;
      DP_RETURN_IF_ERROR(target->writes().CreateTable(InRegion(ctx, region), ReplicaDefinition(t, m), &made));
    }
    DP_RETURN_IF_ERROR(SetMembership(set, ctx, t.name, members, m, true));
    for (const std::string& region : creates) DP_RETURN_IF_ERROR(CopyItems(set, ctx, db, t, region));
  }
  if (!request.deletes.empty() || !request.witness_deletes.empty()) {
    std::vector<std::string> removed = request.deletes;
    removed.insert(removed.end(), request.witness_deletes.begin(), request.witness_deletes.end());
    for (const std::string& region : request.deletes) {
      Database* target = nullptr;
      DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &target));
      TableDescription gone;
      Status s = target->writes().DeleteTable(InRegion(ctx, region), t.name, &gone);
      if (!s.ok() && s.code() != ErrorCode::kResourceNotFound) return s;
    }
    std::vector<std::string> left;
    for (const std::string& region : members) {
      if (!Contains(removed, region)) left.push_back(region);
    }
    GlobalTableMembership after = Without(t.global, removed);
    if (ctx.transient_status_ms > 0) {  // DescribeTable shows them DELETING for the delay
      for (const std::string& region : request.deletes) after.deleting[region] = ctx.clock->NowSeconds();
    }
    DP_RETURN_IF_ERROR(SetMembership(set, ctx, t.name, left, after, false));
  }
  DP_RETURN_IF_ERROR(db->catalog().DescribeTable(request.table, out));
  out->status = "UPDATING";
  for (const std::string& region : creates) out->replica_status[region] = "CREATING";
  for (const std::string& region : request.deletes) out->replica_status[region] = "DELETING";
  return Status::OK();
}

Status CheckReplicaDeletable(const TableDefinition& table) {
  if (table.global.strong_consistency) {
    return Status::Validation(
        "Deletion of only one table replica is not supported for global tables with "
        "MultiRegionConsistency set to STRONG.");
  }
  return Status::OK();
}

Status ForgetDeletedReplica(DatabaseSet* set, const RequestContext& ctx, const TableDefinition& deleted) {
  if (!deleted.global.is_global() || !set->replicator()) return Status::OK();
  std::vector<std::string> others;
  for (const std::string& region : RegionsOf(deleted.global)) {
    if (region != ctx.caller.region) others.push_back(region);
  }
  return SetMembership(set, ctx, deleted.name, others, Without(deleted.global, {ctx.caller.region}), false);
}

// --- The 2017.11.29 version.

namespace {

std::string GlobalTableNotFound(const std::string& name) {
  return "Global table not found: Global table with name: '" + name + "' does not exist.";
}

bool SameKeys(const TableDefinition& a, const TableDefinition& b) {
  auto same = [](const KeyAttribute& x, const KeyAttribute& y) { return x.name == y.name && x.type == y.type; };
  auto type_of = [](const TableDefinition& t, const KeyAttribute& k) {
    for (const KeyAttribute& d : t.attribute_definitions) {
      if (d.name == k.name) return d;
    }
    return k;
  };
  if (!same(type_of(a, a.key.hash), type_of(b, b.key.hash)) || a.key.range.has_value() != b.key.range.has_value()) {
    return false;
  }
  return !a.key.range || same(type_of(a, *a.key.range), type_of(b, *b.key.range));
}

// The table name in region, checked for joining a 2017 group whose first table is first (null: none yet).
Status CheckJoining(DatabaseSet* set, const RequestContext& ctx, const std::string& name, const std::string& region,
                    const TableDefinition* first, std::shared_ptr<const TableDefinition>* out) {
  if (!ValidRegionName(region)) return Invalid("Invalid region name: " + region);
  Database* db = nullptr;
  DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &db));
  TableDescription d;
  if (!db->catalog().DescribeTable(name, &d).ok()) {
    return Status::Error(ErrorCode::kTableNotFound, "Table: " + name + " not found in region " + region);
  }
  const TableDefinition& t = *d.definition;
  if (t.stream_view_type != kNewAndOldImages) {
    return Invalid("Table: " + name + " in region " + region +
                   " must have DynamoDB Streams enabled with StreamViewType NEW_AND_OLD_IMAGES");
  }
  if (d.stats.item_count > 0) return Invalid("Table: " + name + " in region " + region + " is not empty");
  if (first && !SameKeys(*first, t)) {
    return Invalid("Table: " + name + " in region " + region +
                   " has a key schema that differs from the other replicas");
  }
  *out = d.definition;
  return Status::OK();
}

Status InfoOf(DatabaseSet* set, const RequestContext& ctx, const TableDefinition& t, GlobalTableInfo* out) {
  out->name = t.name;
  out->arn = "arn:aws:dynamodb::" + ctx.caller.account_id + ":global-table/" + t.name;
  out->created = t.global.group_created;
  out->regions = RegionsOf(t.global);
  out->tables.clear();
  for (const std::string& region : out->regions) {
    Database* db = nullptr;
    DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &db));
    out->tables.push_back(db->catalog().FindTable(t.name));
  }
  return Status::OK();
}

}  // namespace

Status CreateGlobalTable(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                         const std::vector<std::string>& regions, GlobalTableInfo* out) {
  std::vector<std::string> group;
  for (const std::string& region : regions) {
    if (!Contains(group, region)) group.push_back(region);
  }
  std::vector<std::shared_ptr<const TableDefinition>> tables;
  for (const std::string& region : group) {
    Database* db = nullptr;
    DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &db));
    auto existing = db->catalog().FindTable(name);
    if (existing && existing->global.is_global()) {
      return Status::Error(ErrorCode::kGlobalTableAlreadyExists, "Global table with this name already exists");
    }
  }
  for (const std::string& region : group) {
    std::shared_ptr<const TableDefinition> table;
    DP_RETURN_IF_ERROR(CheckJoining(set, ctx, name, region, tables.empty() ? nullptr : tables.front().get(), &table));
    tables.push_back(std::move(table));
  }
  GlobalTableMembership m;
  m.version = kGlobalTableVersion2017;
  m.group_created = ctx.clock->NowSeconds();
  for (const std::string& region : group) m.replicas.push_back(MemberIn(region));
  DP_RETURN_IF_ERROR(SetMembership(set, ctx, name, group, m, false));
  TableDefinition first = *tables.front();
  first.global = m;
  return InfoOf(set, ctx, first, out);
}

Status DescribeGlobalTable(DatabaseSet* set, const RequestContext& ctx, const std::string& name, GlobalTableInfo* out) {
  Database* db = nullptr;
  DP_RETURN_IF_ERROR(set->For(ctx.caller, &db));
  auto table = db->catalog().FindTable(name);
  if (!table || table->global.version != kGlobalTableVersion2017) {
    return Status::Error(ErrorCode::kGlobalTableNotFound, GlobalTableNotFound(name));
  }
  return InfoOf(set, ctx, *table, out);
}

Status UpdateGlobalTable(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                         const std::vector<std::string>& creates, const std::vector<std::string>& deletes,
                         GlobalTableInfo* out) {
  GlobalTableInfo group;
  DP_RETURN_IF_ERROR(DescribeGlobalTable(set, ctx, name, &group));
  const TableDefinition& first = *group.tables.front();
  GlobalTableMembership m = first.global;
  std::vector<std::string> joining;
  for (const std::string& region : creates) {
    if (m.has(region) || Contains(joining, region)) {
      return Status::Error(ErrorCode::kReplicaAlreadyExists, "Replica already exists in region " + region);
    }
    std::shared_ptr<const TableDefinition> table;
    DP_RETURN_IF_ERROR(CheckJoining(set, ctx, name, region, &first, &table));
    if (table->global.is_global()) {
      return Status::Error(ErrorCode::kReplicaAlreadyExists, "Replica already exists in region " + region);
    }
    joining.push_back(region);
  }
  for (const std::string& region : deletes) {
    if (!m.has(region)) return Status::Error(ErrorCode::kReplicaNotFound, "Replica not found in region " + region);
  }
  for (const std::string& region : joining) m.replicas.push_back(MemberIn(region));
  // A removed replica stays, as an independent table; so does the last one left.
  GlobalTableMembership left = Without(m, deletes);
  std::vector<std::string> staying;
  for (const ReplicaMember& r : m.replicas) {
    if (!Contains(deletes, r.region)) staying.push_back(r.region);
  }
  DP_RETURN_IF_ERROR(SetMembership(set, ctx, name, deletes, GlobalTableMembership(), false));
  DP_RETURN_IF_ERROR(SetMembership(set, ctx, name, staying, left, false));
  TableDefinition described = first;
  described.global = left.is_global() ? left : m;
  if (!left.is_global()) {  // the group is gone: describe what is left of it
    described.global.replicas.clear();
    for (const std::string& region : staying) described.global.replicas.push_back(MemberIn(region));
  }
  return InfoOf(set, ctx, described, out);
}

Status ListGlobalTables(DatabaseSet* set, const RequestContext& ctx, const std::string& region,
                        const std::string& exclusive_start, size_t limit, std::vector<GlobalTableInfo>* out,
                        bool* more) {
  Database* db = nullptr;
  DP_RETURN_IF_ERROR(DatabaseIn(set, ctx, region, &db));
  std::vector<std::string> names;
  bool any_more = false;
  db->catalog().ListTables(exclusive_start, SIZE_MAX, &names, &any_more);
  out->clear();
  *more = false;
  for (const std::string& name : names) {
    auto table = db->catalog().FindTable(name);
    if (!table || table->global.version != kGlobalTableVersion2017) continue;
    if (out->size() == limit) {
      *more = true;
      break;
    }
    GlobalTableInfo info;
    DP_RETURN_IF_ERROR(InfoOf(set, ctx, *table, &info));
    out->push_back(std::move(info));
  }
  return Status::OK();
}

Status UpdateGlobalTableSettings(DatabaseSet* set, const RequestContext& ctx, const GlobalTableSettingsUpdate& update,
                                 GlobalTableInfo* out) {
  GlobalTableInfo group;
  DP_RETURN_IF_ERROR(DescribeGlobalTable(set, ctx, update.name, &group));
  const TableDefinition& first = *group.tables.front();
  GlobalTableMembership m = first.global;
  auto check_index = [&](const std::string& index) {
    const IndexDefinition* found = first.FindIndex(index);
    return found && found->global ? Status::OK()
                                  : Status::Error(ErrorCode::kIndexNotFound, "Index not found: " + index);
  };
  for (const auto& index : update.index_writes) {
    DP_RETURN_IF_ERROR(check_index(index.name));
    if (index.scaling) m.index_write_scaling[index.name] = *index.scaling;
  }
  if (update.write_scaling) m.write_scaling = *update.write_scaling;
  for (const auto& replica : update.replicas) {
    ReplicaMember* member = m.find(replica.region);
    if (!member) return Status::Error(ErrorCode::kReplicaNotFound, "Replica not found in region " + replica.region);
    if (replica.read_scaling) member->read_scaling = *replica.read_scaling;
    for (const auto& index : replica.index_reads) {
      DP_RETURN_IF_ERROR(check_index(index.name));
      if (index.scaling) member->index_read_scaling[index.name] = *index.scaling;
    }
  }
  for (const std::string& region : group.regions) {
    const GlobalTableSettingsUpdate::Replica* own = nullptr;
    for (const auto& replica : update.replicas) {
      if (replica.region == region) own = &replica;
    }
    DP_RETURN_IF_ERROR(
        ChangeInRegions(set, ctx, update.name, {region}, [&](const TableDefinition&, TableDefinition* next) {
          next->global = m;
          if (update.pay_per_request) next->pay_per_request = *update.pay_per_request;
          auto at_least_one = [](int64_t* units) { *units = std::max<int64_t>(*units, 1); };
          if (update.write_units) next->throughput.write_capacity_units = update.write_units;
          if (own && own->read_units) next->throughput.read_capacity_units = own->read_units;
          for (IndexDefinition& index : next->indexes) {
            for (const auto& w : update.index_writes) {
              if (w.name == index.name && w.units) index.throughput.write_capacity_units = w.units;
            }
            for (const auto& r : own ? own->index_reads : std::vector<GlobalTableSettingsUpdate::Index>()) {
              if (r.name == index.name && r.units) index.throughput.read_capacity_units = r.units;
            }
            if (!next->pay_per_request && index.global) {
              at_least_one(&index.throughput.read_capacity_units);
              at_least_one(&index.throughput.write_capacity_units);
            }
          }
          if (!next->pay_per_request) {
            at_least_one(&next->throughput.read_capacity_units);
            at_least_one(&next->throughput.write_capacity_units);
          }
          return Status::OK();
        }));
  }
  return DescribeGlobalTable(set, ctx, update.name, out);
}

Status FindReplica(DatabaseSet* set, const RequestContext& ctx, const std::string& name,
                   std::shared_ptr<const TableDefinition>* out) {
  Database* db = nullptr;
  DP_RETURN_IF_ERROR(set->For(ctx.caller, &db));
  *out = db->catalog().FindTable(name);
  if (!*out || (*out)->global.version != kGlobalTableVersion2019) {
    return Status::NotFound("Global table with name: '" + name + "' does not exist.");
  }
  return Status::OK();
}

Status SetGroupSettings(DatabaseSet* set, const RequestContext& ctx, const TableDefinition& table,
                        const GlobalTableMembership& m) {
  return SetMembership(set, ctx, table.name, RegionsOf(table.global), m, false);
}

namespace {
// A KMS key ARN of another region: "arn:aws:kms:<region>:…", the same key id (local keys are not regional).
std::string KmsKeyIn(const std::string& arn, const std::string& region) {
  const std::string prefix = "arn:aws:kms:";
  if (arn.rfind(prefix, 0) != 0) return arn;
  size_t end = arn.find(':', prefix.size());
  return end == std::string::npos ? arn : prefix + region + arn.substr(end);
}

// The settings DynamoDB keeps equal across a group, from source into replica (in region). Regional ones stay:
// tags, deletion protection, point-in-time recovery, table class, Contributor Insights, Kinesis destinations,
// resource policies, the replicas' read capacity overrides (kept in the membership).
void CopyGroupSettings(const TableDefinition& source, const std::string& region, TableDefinition* replica) {
  replica->attribute_definitions = source.attribute_definitions;
  replica->pay_per_request = source.pay_per_request;
  replica->last_update_to_pay_per_request_time = source.last_update_to_pay_per_request_time;
  replica->throughput = source.throughput;
  replica->ttl_attribute = source.ttl_attribute;
  replica->stream_view_type = source.stream_view_type;
  replica->settings.capacity.on_demand = source.settings.capacity.on_demand;
  replica->settings.capacity.warm = source.settings.capacity.warm;
  replica->settings.sse_kms = source.settings.sse_kms;
  replica->settings.kms_master_key_arn = KmsKeyIn(source.settings.kms_master_key_arn, region);
  replica->settings.sse_updated_time = source.settings.sse_updated_time;
  // Global indexes as the source has them: a new one (keyspace 0) is backfilled by ChangeTable, one the source
  // lacks is dropped; local ones cannot change.
  std::vector<IndexDefinition> indexes;
  for (const IndexDefinition& index : source.indexes) {
    const IndexDefinition* existing = replica->FindIndex(index.name);
    if (!index.global) {
      if (existing) indexes.push_back(*existing);
      continue;
    }
    IndexDefinition copy = index;
    copy.keyspace = existing ? existing->keyspace : 0;
    copy.settings.insights = existing ? existing->settings.insights : ContributorInsights();
    indexes.push_back(std::move(copy));
  }
  replica->indexes = std::move(indexes);
}
}  // namespace

Status PropagateGroupSettings(DatabaseSet* set, const RequestContext& ctx, const std::string& name) {
  if (!set->replicator()) return Status::OK();
  Database* db = nullptr;
  DP_RETURN_IF_ERROR(set->For(ctx.caller, &db));
  auto source = db->catalog().FindTable(name);
  if (!source || source->global.version != kGlobalTableVersion2019) return Status::OK();
  for (const std::string& region : RegionsOf(source->global)) {
    if (region == ctx.caller.region) continue;
    DP_RETURN_IF_ERROR(ChangeInRegions(set, ctx, name, {region}, [&](const TableDefinition&, TableDefinition* next) {
      CopyGroupSettings(*source, region, next);
      return Status::OK();
    }));
  }
  return Status::OK();
}

}  // namespace dynapage
