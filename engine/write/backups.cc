#include "engine/write/backups.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <random>
#include <set>

#include "engine/base/random_seed.h"
#include "engine/base/utc_time.h"
#include "engine/write/table_settings.h"

namespace dynapage {

namespace {
Status TableNotFound(const std::string& name) {
  return Status::Error(ErrorCode::kTableNotFound, "Table not found: " + name);
}

Status TableAlreadyExists(const std::string& name) {
  return Status::Error(ErrorCode::kTableAlreadyExists, "Table already exists: " + name);
}

// A new backup id: the creation time in 14 digits of ms, then 8 hex digits, random but above those of the backups
// made before it in the same millisecond. Backups are kept and listed in the order of their ids (ListBackups' order
// is creation order), which two made in one millisecond would otherwise have at random.
std::string NewBackupId(int64_t creation_ms) {
  static std::mt19937 rng(static_cast<std::mt19937::result_type>(RandomSeed()));
  static std::mutex mu;
  static int64_t last_ms = -1;
  static uint32_t last_suffix = 0;
  uint32_t suffix = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    // The first of a millisecond starts below 2^31 and each next one steps up by at most 2^16: the digits last
    // for 32,768 backups in one millisecond.
    suffix = creation_ms == last_ms ? last_suffix + 1 + rng() % 0x10000 : rng() >> 1;
    last_ms = creation_ms;
    last_suffix = suffix;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%014" PRId64 "-%08x", creation_ms, suffix);
  return buf;
}

// A table younger than the transient-status delay is CREATING, which backups treat as absent.
bool StillCreating(const RequestContext& ctx, const TableDefinition& table) {
  return ctx.transient_status_ms > 0 &&
         (ctx.clock->NowSeconds() - table.creation_time) * 1000 < static_cast<double>(ctx.transient_status_ms);
}

// The parts of "arn:aws:dynamodb:<region>:<account>:table/<table>/backup/<id>"; false for any other text.
struct BackupArnParts {
  std::string region, account, table, id;
};
bool ParseBackupArn(const std::string& arn, BackupArnParts* out) {
  static const std::string kPrefix = "arn:aws:dynamodb:";
  if (arn.compare(0, kPrefix.size(), kPrefix) != 0) return false;
  size_t region_end = arn.find(':', kPrefix.size());
  if (region_end == std::string::npos) return false;
  size_t account_end = arn.find(':', region_end + 1);
  if (account_end == std::string::npos) return false;
  std::string resource = arn.substr(account_end + 1);
  if (resource.compare(0, 6, "table/") != 0) return false;
  size_t backup = resource.find("/backup/", 6);
  if (backup == std::string::npos || backup == 6) return false;
  out->region = arn.substr(kPrefix.size(), region_end - kPrefix.size());
  out->account = arn.substr(region_end + 1, account_end - region_end - 1);
  out->table = resource.substr(6, backup - 6);
  out->id = resource.substr(backup + 8);
  return !out->id.empty() && out->id.find('/') == std::string::npos;
}

bool SameKey(const std::vector<KeyElementInput>& input, const KeySchema& key) {
  std::vector<KeyElementInput> recorded;
  for (size_t i = 0; i < key.hash_count(); i++) recorded.push_back({key.hash_at(i).name, "HASH"});
  for (size_t i = 0; i < key.range_count(); i++) recorded.push_back({key.range_at(i).name, "RANGE"});
  if (recorded.size() != input.size()) return false;
  for (size_t i = 0; i < input.size(); i++) {
    if (recorded[i].name != input[i].name || recorded[i].key_type != input[i].key_type) return false;
  }
  return true;
}

bool SameProjection(const SecondaryIndexInput& input, const IndexDefinition& index) {
  if (ProjectionTypeFromName(input.projection_type.value_or("ALL").c_str()) != index.projection) return false;
  if (index.projection != ProjectionType::kInclude) return true;
  std::vector<std::string> a = input.non_key_attributes.value_or(std::vector<std::string>());
  std::vector<std::string> b = index.non_key_attributes;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// The indexes of one kind (global or local) the restored table gets: all of source's without overrides, else the
// recorded indexes the overrides match by key schema and projection (their names may differ).
Status RestoredIndexes(const TableDefinition& source, bool global,
                       const std::optional<std::vector<SecondaryIndexInput>>& overrides,
                       std::vector<IndexDefinition>* out) {
  if (!overrides) {
    for (const auto& index : source.indexes) {
      if (index.global == global) out->push_back(index);
    }
    return Status::OK();
  }
  for (const auto& wanted : *overrides) {
    auto match = std::find_if(source.indexes.begin(), source.indexes.end(), [&](const IndexDefinition& index) {
      return index.global == global && SameKey(wanted.key, index.key) && SameProjection(wanted, index);
    });
    if (match == source.indexes.end()) {
      return Status::Validation("Index " + wanted.name +
                                " does not match a secondary index that existed in the source table and cannot be "
                                "created during the restore operation");
    }
    IndexDefinition index = *match;
    index.name = wanted.name;
    if (global && wanted.throughput) index.throughput = *wanted.throughput;
    out->push_back(std::move(index));
  }
  return Status::OK();
}

// The definition of a table restored from source (a backup's or a table's) under the name target: what DynamoDB
// keeps of it, with the overrides.
Status RestoredDefinition(const RequestContext& ctx, const TableDefinition& source, const std::string& target,
                          const RestoreOverrides& o, TableDefinition* out) {
  const bool provisioned_override = o.billing_mode && *o.billing_mode == "PROVISIONED";
  const bool pay_per_request = o.billing_mode ? *o.billing_mode == "PAY_PER_REQUEST" : source.pay_per_request;
  if (o.throughput && pay_per_request) {
    return Status::Validation("Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED");
  }
  if (provisioned_override && !o.throughput) {
    return Status::Validation("Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED");
  }
  if (o.on_demand && (o.on_demand->max_read_request_units.value_or(-1) == 0 ||
                      o.on_demand->max_write_request_units.value_or(-1) == 0)) {
    const bool read = o.on_demand->max_read_request_units.value_or(-1) == 0;
    return Status::Validation(std::string("Requested ") + (read ? "MaxReadRequestUnits" : "MaxWriteRequestUnits") +
                              " for OnDemandThroughput is outside of valid range");
  }
  TableDefinition t;
  t.name = target;
  t.key = source.key;
  DP_RETURN_IF_ERROR(RestoredIndexes(source, true, o.global_indexes, &t.indexes));
  DP_RETURN_IF_ERROR(RestoredIndexes(source, false, o.local_indexes, &t.indexes));
  t.vector_indexes = source.vector_indexes;
  for (auto& index : t.vector_indexes) index.creation_time = 0;
  // Only the attributes some key still uses stay defined.
  std::set<std::string> used;
  auto use_key = [&](const KeySchema& key) {
    for (size_t i = 0; i < key.hash_count(); i++) used.insert(key.hash_at(i).name);
    for (size_t i = 0; i < key.range_count(); i++) used.insert(key.range_at(i).name);
  };
  use_key(t.key);
  for (auto& index : t.indexes) {
    use_key(index.key);
    index.creation_time = 0;
    index.throughput.number_of_decreases_today = 0;
    index.throughput.last_increase_time = index.throughput.last_decrease_time = 0;
    index.settings.warm = WarmThroughput();
    index.settings.insights = ContributorInsights();
    if (pay_per_request) index.throughput.read_capacity_units = index.throughput.write_capacity_units = 0;
    if (!pay_per_request && index.global && index.throughput.read_capacity_units == 0 && o.throughput) {
      index.throughput = *o.throughput;  // a GSI of an on-demand backup made provisioned: the table's throughput
    }
  }
  for (const auto& index : t.vector_indexes) {
    for (const auto& element : index.search_schema) used.insert(element.attribute.name);
  }
  for (const auto& a : source.attribute_definitions) {
    if (used.count(a.name)) t.attribute_definitions.push_back(a);
  }
  t.pay_per_request = pay_per_request;
  if (!pay_per_request) {
    t.throughput = o.throughput ? *o.throughput : source.throughput;
    t.throughput.number_of_decreases_today = 0;
    t.throughput.last_increase_time = t.throughput.last_decrease_time = 0;
  }
  t.settings.capacity.on_demand = source.settings.capacity.on_demand;
  if (o.on_demand) {
    if (o.on_demand->max_read_request_units) {
      t.settings.capacity.on_demand.max_read_request_units = *o.on_demand->max_read_request_units;
    }
    if (o.on_demand->max_write_request_units) {
      t.settings.capacity.on_demand.max_write_request_units = *o.on_demand->max_write_request_units;
    }
  }
  // Encryption is kept (with its KMS key) unless overridden; Enabled false is the AWS owned key.
  t.settings.sse_kms = source.settings.sse_kms;
  t.settings.kms_master_key_arn = source.settings.kms_master_key_arn;
  if (o.sse_enabled) {
    t.settings.sse_kms = *o.sse_enabled;
    t.settings.kms_master_key_arn.clear();
    if (*o.sse_enabled) t.settings.kms_master_key_arn = o.kms_key.value_or(DefaultKmsKeyArn(ctx));
  }
  *out = std::move(t);
  return Status::OK();
}

// The target's name is free: no table, none being deleted.
Status CheckTargetFree(const WritePath& write_path, const RequestContext& ctx, const std::string& target) {
  TableDescription deleting;
  if (write_path.catalog().FindTable(target) ||
      write_path.catalog().FindDeleting(target, ctx.clock->NowSeconds(), &deleting)) {
    return TableAlreadyExists(target);
  }
  return Status::OK();
}
}  // namespace

Status CreateBackup(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                    const std::string& backup_name, BackupRecord* out) {
  auto table = write_path.catalog().FindTable(table_name);
  if (!table || StillCreating(ctx, *table)) return TableNotFound(table_name);
  BackupRecord backup;
  backup.creation_ms = ctx.clock->NowMillis();
  backup.id = NewBackupId(backup.creation_ms);
  backup.name = backup_name;
  backup.arn = table->arn + "/backup/" + backup.id;
  DP_RETURN_IF_ERROR(write_path.CreateBackup(ctx, table_name, &backup));
  *out = std::move(backup);
  return Status::OK();
}

Status CreateSystemBackup(WritePath& write_path, const RequestContext& ctx, const TableDefinition& table) {
  if (!table.point_in_time_recovery) return Status::OK();
  BackupRecord backup;
  backup.creation_ms = ctx.clock->NowMillis();
  char id[32];
  std::snprintf(id, sizeof id, "%014" PRId64 "-00000000", backup.creation_ms);
  backup.id = id;
  backup.name = table.name + "$DeletedTableBackup";
  backup.arn = table.arn + "/backup/" + backup.id;
  backup.system = true;
  backup.expiry_ms = backup.creation_ms + kSystemBackupRetentionMs;
  return write_path.CreateBackup(ctx, table.name, &backup);
}

Status ExpireSystemBackups(WritePath& write_path, const RequestContext& ctx) {
  std::vector<BackupRecord> all;
  DP_RETURN_IF_ERROR(write_path.catalog().ListBackups(&all));
  const int64_t now_ms = ctx.clock->NowMillis();
  for (const auto& backup : all) {
    if (backup.system && backup.expiry_ms <= now_ms) DP_RETURN_IF_ERROR(write_path.DeleteBackup(backup));
  }
  return Status::OK();
}

Status FindBackupByArn(const Catalog& catalog, const RequestContext& ctx, const std::string& arn, BackupRecord* out) {
  BackupArnParts parts;
  if (!ParseBackupArn(arn, &parts)) return Status::Validation("Invalid Backup ARN");
  if (parts.account != ctx.caller.account_id) return Status::Error(ErrorCode::kAccessDenied, "Access is denied");
  bool found = false;
  DP_RETURN_IF_ERROR(catalog.FindBackup(parts.id, out, &found));
  if (!found || out->table.name != parts.table) {
    return Status::Error(ErrorCode::kBackupNotFound, "Backup not found: " + arn);
  }
  return Status::OK();
}

Status DeleteBackupByArn(WritePath& write_path, const RequestContext& ctx, const std::string& arn, BackupRecord* out) {
  DP_RETURN_IF_ERROR(FindBackupByArn(write_path.catalog(), ctx, arn, out));
  if (out->system) {
    return Status::Validation("User is not allowed to delete the system backup with arn " + arn +
                              ". It will automatically expire on " +
                              IsoUtcText(out->expiry_ms));
  }
  // A restore from it that still shows CREATING uses it.
  std::vector<std::string> names;
  bool more = false;
  write_path.catalog().ListTables("", SIZE_MAX, &names, &more);
  for (const auto& name : names) {
    auto table = write_path.catalog().FindTable(name);
    if (table && table->restore_source_backup_arn == out->arn && StillCreating(ctx, *table)) {
      return Status::Error(ErrorCode::kBackupInUse, "Backup is being used to restore table: " + table->arn);
    }
  }
  return write_path.DeleteBackup(*out);
}

Status ListBackups(const Catalog& catalog, const ListBackupsRequest& request, std::vector<BackupRecord>* out,
                   std::string* last) {
  out->clear();
  last->clear();
  if (request.lower && request.upper && *request.lower > *request.upper) {
    return Status::Validation("Time range lower bound must be less than or equal to upper bound");
  }
  std::vector<BackupRecord> all;
  DP_RETURN_IF_ERROR(catalog.ListBackups(&all));
  // A position: the backups after the one it names (by id, so creation order), whether or not it still exists.
  std::string after;
  if (!request.exclusive_start.empty()) {
    size_t slash = request.exclusive_start.rfind('/');
    after = slash == std::string::npos ? request.exclusive_start : request.exclusive_start.substr(slash + 1);
  }
  const int64_t lower_ms = request.lower ? static_cast<int64_t>(std::llround(*request.lower * 1000)) : INT64_MIN;
  const int64_t upper_ms = request.upper ? static_cast<int64_t>(std::llround(*request.upper * 1000)) : INT64_MAX;
  for (auto& backup : all) {
    if (!after.empty() && backup.id <= after) continue;
    if (!request.table_name.empty() && backup.table.name != request.table_name) continue;
    const bool type_matches = request.type == "ALL" || (request.type == "USER" && !backup.system) ||
                              (request.type == "SYSTEM" && backup.system);
    if (!type_matches) continue;
    if (backup.creation_ms < lower_ms || backup.creation_ms >= upper_ms) continue;
    if (out->size() == request.limit) {
      *last = out->back().arn;
      return Status::OK();
    }
    out->push_back(std::move(backup));
  }
  return Status::OK();
}

Status RestoreTableFromBackup(WritePath& write_path, const RequestContext& ctx, const std::string& backup_arn,
                              const std::string& target, const RestoreOverrides& overrides, TableDescription* out) {
  BackupArnParts parts;
  if (ParseBackupArn(backup_arn, &parts) && parts.region != ctx.caller.region && !overrides.sse_enabled) {
    return Status::Validation("Invalid Request: sseSpecificationOverride must be provided for cross-region restores");
  }
  BackupRecord backup;
  DP_RETURN_IF_ERROR(FindBackupByArn(write_path.catalog(), ctx, backup_arn, &backup));
  DP_RETURN_IF_ERROR(CheckTargetFree(write_path, ctx, target));
  TableDefinition definition;
  DP_RETURN_IF_ERROR(RestoredDefinition(ctx, backup.table, target, overrides, &definition));
  definition.restore_source_backup_arn = backup.arn;
  definition.restore_source_table_arn = backup.table.arn;
  definition.restore_date_time = static_cast<double>(backup.creation_ms) / 1000;
  WritePath::RestoreSource source;
  source.keyspace = backup.keyspace;
  return write_path.RestoreTable(ctx, std::move(definition), source, out);
}

RestorableWindow RestorableWindowOf(const TableDefinition& table, double now, double latest_lag_seconds) {
  const double enabled = table.point_in_time_recovery_since;
  RestorableWindow window;
  window.earliest = std::max(enabled, now - static_cast<double>(table.recovery_period_in_days) * 86400);
  window.latest = std::max(enabled, now - latest_lag_seconds);
  return window;
}

Status RestoreTableToPointInTime(WritePath& write_path, const RequestContext& ctx,
                                 const PointInTimeRestoreRequest& request, const RestoreOverrides& overrides,
                                 TableDescription* out) {
  auto source = write_path.catalog().FindTable(request.source_name);
  if (!source) return TableNotFound(request.source_name);
  if (!source->point_in_time_recovery) {
    return Status::Error(ErrorCode::kPointInTimeRecoveryUnavailable,
                         "Point in time recovery is not enabled for table '" + request.source_name + "'");
  }
  const RestorableWindow window =
      RestorableWindowOf(*source, ctx.clock->NowSeconds(), static_cast<double>(ctx.pitr_latest_lag_seconds));
  const double at = request.use_latest ? window.latest : *request.restore_time;
  const auto ms = [](double seconds) { return static_cast<int64_t>(std::llround(seconds * 1000)); };
  if (ms(at) < ms(window.earliest) || ms(at) > ms(window.latest)) {
    return Status::Error(ErrorCode::kInvalidRestoreTime,
                         "RestoreDateTime '" + IsoUtcTextOfSeconds(at) +
                             "' must be within EarliestRestorableDateTime '" + IsoUtcTextOfSeconds(window.earliest) +
                             "' and LatestRestorableDateTime '" + IsoUtcTextOfSeconds(window.latest) + "'");
  }
  if (request.target == request.source_name) return TableAlreadyExists(request.target);
  DP_RETURN_IF_ERROR(CheckTargetFree(write_path, ctx, request.target));
  TableDefinition definition;
  DP_RETURN_IF_ERROR(RestoredDefinition(ctx, *source, request.target, overrides, &definition));
  definition.restore_source_table_arn = source->arn;
  definition.restore_date_time = static_cast<double>(ms(at)) / 1000;
  WritePath::RestoreSource from;
  from.table_name = request.source_name;
  from.at_ms = ms(at);
  return write_path.RestoreTable(ctx, std::move(definition), from, out);
}

}  // namespace dynapage
