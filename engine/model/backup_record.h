// BackupRecord: an on-demand or system backup (CreateBackup, DeleteTable of a table with point-in-time recovery) as
// it is kept: its identity, the source table's definition and counters at the instant it was taken, and the
// keyspace that holds the copy of the table's items (docs/backups.md). Persisted as JSON under the backup's catalog
// key ('b' | namespace | id, engine/catalog/catalog_keys.h), written in the same batch as the last of its items, so a
// record exists only for a complete copy.

#ifndef DYNAPAGE_ENGINE_MODEL_BACKUP_RECORD_H_
#define DYNAPAGE_ENGINE_MODEL_BACKUP_RECORD_H_

#include <cstdint>
#include <string>

#include "engine/model/table_definition.h"

namespace dynapage {

struct BackupRecord {
  std::string id;           // "<14-digit creation ms>-<8 hex>" (a SYSTEM backup's ends "-00000000")
  std::string name;         // BackupName
  std::string arn;          // <table ARN>/backup/<id>
  bool system = false;      // BackupType SYSTEM (undeletable, expires), else USER
  int64_t creation_ms = 0;  // BackupCreationDateTime
  int64_t expiry_ms = 0;    // BackupExpiryDateTime of a SYSTEM backup; 0: none
  uint32_t keyspace = 0;    // where the copy of the items is: 'd' | keyspace | the item's key after its keyspace
  int64_t item_count = 0;   // the source table's at the instant of the copy
  int64_t size_bytes = 0;
  TableDefinition table;  // the source table's definition at that instant
};

std::string SerializeBackupRecord(const BackupRecord& backup);
bool ParseBackupRecord(const std::string& json, BackupRecord* backup);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_BACKUP_RECORD_H_
