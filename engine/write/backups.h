// Backups and restores: CreateBackup, DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup and
// RestoreTableToPointInTime as DynamoDB answers them (docs/backups.md; the facts: shared spec api-2026.md §1, §2).
//
// A backup is a copy of a table's items and definition at one instant, kept in the same store under a keyspace of its
// own (WritePath::CreateBackup), so it survives restarts of an on-disk store and outlives its table. A restore makes
// a new table from a backup, or from a table with point-in-time recovery as it was at an instant (its items now with
// the journal's entries after the instant undone: WritePath::RestoreTable), with the overrides of the request;
// what DynamoDB drops on restore (stream, TTL, tags, deletion protection, PITR, policies, table class) is dropped.
// Both finish within the request: the answers show CREATING as DynamoDB's first answer does, and later ones show
// AVAILABLE / ACTIVE, unless a transient-status delay holds them for its length.

#ifndef DYNAPAGE_ENGINE_WRITE_BACKUPS_H_
#define DYNAPAGE_ENGINE_WRITE_BACKUPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/index_schema.h"
#include "engine/model/backup_record.h"
#include "engine/write/write_path.h"

namespace dynapage {

// How long a SYSTEM backup is kept: DynamoDB's 35 days.
constexpr int64_t kSystemBackupRetentionMs = 35LL * 86400 * 1000;

// Backs up table_name as backup_name (the server checked its pattern). *out is the backup.
Status CreateBackup(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                    const std::string& backup_name, BackupRecord* out);

// DeleteTable of a table with point-in-time recovery: the SYSTEM backup "<table>$DeletedTableBackup" of its items
// just before, kept for kSystemBackupRetentionMs. Nothing for a table without.
Status CreateSystemBackup(WritePath& write_path, const RequestContext& ctx, const TableDefinition& table);
// Deletes the SYSTEM backups whose expiry passed (the sweeper).
Status ExpireSystemBackups(WritePath& write_path, const RequestContext& ctx);

// The backup a BackupArn names, in the caller's namespace (the ARN's region is not looked at): an ARN of no
// backup is ValidationException "Invalid Backup ARN", another account's AccessDeniedException, an unknown one
// BackupNotFoundException "Backup not found: <arn>".
Status FindBackupByArn(const Catalog& catalog, const RequestContext& ctx, const std::string& arn, BackupRecord* out);

// DeleteBackup: *out is the backup deleted. A SYSTEM backup is refused as DynamoDB refuses it.
Status DeleteBackupByArn(WritePath& write_path, const RequestContext& ctx, const std::string& arn, BackupRecord* out);

struct ListBackupsRequest {
  std::string table_name;       // empty: every table
  std::string type = "USER";    // USER, SYSTEM, AWS_BACKUP or ALL
  std::optional<double> lower;  // TimeRangeLowerBound, inclusive (seconds)
  std::optional<double> upper;  // TimeRangeUpperBound, exclusive
  std::string exclusive_start;  // ExclusiveStartBackupArn: a position, need not exist
  size_t limit = 100;
};
// ListBackups: the backups in creation order; *last is the LastEvaluatedBackupArn when more remain.
Status ListBackups(const Catalog& catalog, const ListBackupsRequest& request, std::vector<BackupRecord>* out,
                   std::string* last);

// The overrides of RestoreTableFromBackup and RestoreTableToPointInTime (what the server read).
struct RestoreOverrides {
  std::optional<std::string> billing_mode;  // PROVISIONED or PAY_PER_REQUEST
  std::optional<ProvisionedThroughput> throughput;
  std::optional<OnDemandThroughputInput> on_demand;
  std::optional<std::vector<SecondaryIndexInput>> global_indexes;  // [] drops them all
  std::optional<std::vector<SecondaryIndexInput>> local_indexes;
  std::optional<bool> sse_enabled;  // SSESpecificationOverride
  std::optional<std::string> sse_type;
  std::optional<std::string> kms_key;
};

// RestoreTableFromBackup: the table made. A restore's table shows RestoreSummary while it is CREATING.
Status RestoreTableFromBackup(WritePath& write_path, const RequestContext& ctx, const std::string& backup_arn,
                              const std::string& target, const RestoreOverrides& overrides, TableDescription* out);

// The restorable window of a table with point-in-time recovery (seconds): Earliest = max(enabled, now − period),
// Latest = max(enabled, now − lag).
struct RestorableWindow {
  double earliest = 0;
  double latest = 0;
};
RestorableWindow RestorableWindowOf(const TableDefinition& table, double now, double latest_lag_seconds);

struct PointInTimeRestoreRequest {
  std::string source_name;  // SourceTableName, or the name of SourceTableArn
  std::string target;
  bool use_latest = false;
  std::optional<double> restore_time;  // RestoreDateTime (seconds)
};
// RestoreTableToPointInTime, after the request's shape was checked: PITR, then the time, then the target, as
// DynamoDB checks them.
Status RestoreTableToPointInTime(WritePath& write_path, const RequestContext& ctx,
                                 const PointInTimeRestoreRequest& request, const RestoreOverrides& overrides,
                                 TableDescription* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_BACKUPS_H_
