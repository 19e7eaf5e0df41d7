// The wire forms of backups (docs/backups.md): BackupDetails, BackupDescription (with SourceTableDetails and
// SourceTableFeatureDetails) and BackupSummary, and the readers of the members the backup operations share (times,
// the restore overrides).

#ifndef DYNAPAGE_SERVER_PROTOCOL_BACKUP_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_BACKUP_JSON_H_

#include <optional>
#include <string>

#include "engine/base/request_context.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/backup_record.h"
#include "engine/write/backups.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// The BackupStatus a backup shows: CREATING while a transient-status delay holds it, else AVAILABLE.
const char* BackupStatusOf(const RequestContext& ctx, const BackupRecord& backup);

// {BackupArn, BackupName, BackupSizeBytes, BackupStatus, BackupType, BackupCreationDateTime[, BackupExpiryDateTime]}
void WriteBackupDetails(const BackupRecord& backup, const char* status, JsonWriter* w);
// {"BackupDescription": {BackupDetails, SourceTableDetails, SourceTableFeatureDetails}}: a whole response.
void WriteBackupDescriptionResponse(const BackupRecord& backup, const char* status, JsonWriter* w);
// One element of ListBackups' BackupSummaries.
void WriteBackupSummary(const BackupRecord& backup, const char* status, JsonWriter* w);

// A timestamp member (epoch seconds, a JSON number); *out stays empty when absent.
Status ReadTimestamp(const RequestReader& r, const char* name, std::optional<double>* out);

// The override members of RestoreTableFromBackup and RestoreTableToPointInTime.
Status ReadRestoreOverrides(const RequestReader& r, RestoreOverrides* out, ConstraintErrors* errors);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_BACKUP_JSON_H_
