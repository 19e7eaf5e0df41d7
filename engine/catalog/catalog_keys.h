// The keys of everything the store holds besides items (whose keys are engine/storage/key_codec.h's 'd' keys).
//
// One store holds every namespace (engine/database/database_set.h). Keyspaces (the 4-byte number that prefixes a
// table's or index's data keys, also a stream's id) are handed out by one counter for the whole store, so data
// keys, counters and stream records need no namespace part: the keyspace alone says whose they are. Only what a
// namespace finds by name carries the namespace's id (u32 BE): its table definitions and its streams.
//
//   "!format"                      the store's layout version (kStoreFormat): absent in a 0.1.0 store
//   "!namespaces"                  the next namespace id (decimal)
//   'c' | namespace | table name   a table's definition (JSON, engine/model/table_definition.h)
//   'k'                            the next keyspace (decimal), for the whole store
//   'm' | namespace name           a 0.1.0 namespace being migrated: "<namespace id> <keyspace offset>"
//   'n' | namespace name           a namespace's id (decimal)
//   'r' | stream id | seq          a stream record (engine/catalog/stream_catalog.h)
//   's' | keyspace                 a keyspace's item count and size
//   'x' | namespace | stream id    a stream's description (JSON)
//   'd' | keyspace | …             items and index entries (engine/storage/key_codec.h)
//   'g' | keyspace | …             the replication stamps of a replica's items (engine/write/replication.h)
//   'b' | namespace | backup id    a backup's record (JSON, engine/model/backup_record.h); its items are a keyspace
//   'j' | keyspace | ms | seq      a point-in-time recovery journal entry of a table (engine/write/pitr_journal.h)
//
// All of them sort before the data keys except 'g', 'm', 'n', 'r', 's' and 'x', which sort after: every range read is
// bounded by its own prefix, so the order only matters for readability.

#ifndef DYNAPAGE_ENGINE_CATALOG_CATALOG_KEYS_H_
#define DYNAPAGE_ENGINE_CATALOG_CATALOG_KEYS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/status.h"
#include "engine/storage/storage.h"

namespace dynapage {

// The layout above. A 0.1.0 store (one RocksDB per namespace, 'c' | table name, 'x' | stream id, a keyspace
// counter per namespace) has no format record.
constexpr char kStoreFormat[] = "2";
constexpr char kFormatKey[] = "!format";
constexpr char kNamespaceCounterKey[] = "!namespaces";
constexpr char kNextKeyspaceKey[] = "k";

constexpr char kDefinitionTag = 'c';
constexpr char kMigrationTag = 'm';
constexpr char kNamespaceTag = 'n';
constexpr char kStatsTag = 's';
constexpr char kStreamTag = 'x';
constexpr char kBackupTag = 'b';
constexpr char kJournalTag = 'j';
constexpr char kImportMarkTag = 'i';

// 'c' | namespace: the start of every definition key of a namespace.
std::string DefinitionPrefix(uint32_t namespace_id);
std::string DefinitionKey(uint32_t namespace_id, std::string_view table_name);
std::string StatsKey(uint32_t keyspace);
// 'x' | namespace: the start of every stream key of a namespace.
std::string StreamPrefix(uint32_t namespace_id);
std::string StreamKey(uint32_t namespace_id, uint32_t stream_id);
// 'b' | namespace: the start of every backup record of a namespace; backup ids sort by creation time.
std::string BackupPrefix(uint32_t namespace_id);
std::string BackupKey(uint32_t namespace_id, std::string_view backup_id);
// 'j' | keyspace: the start of a table's point-in-time recovery journal, ordered by commit time (ms, 8 bytes BE),
// then by a sequence number (4 bytes BE) that tells apart the entries of one millisecond.
std::string JournalPrefix(uint32_t keyspace);
std::string JournalKey(uint32_t keyspace, int64_t time_ms, uint32_t seq);
// 'i' | namespace | table name → the table id of a table an ImportTable is loading: written once the table is made,
// deleted once it is loaded, so that a start-up finds the tables whose import a crash cut short.
std::string ImportMarkPrefix(uint32_t namespace_id);
std::string ImportMarkKey(uint32_t namespace_id, std::string_view table_name);
std::string NamespaceKey(std::string_view namespace_name);
std::string MigrationKey(std::string_view namespace_name);

// A counter or id stored as decimal text, 1 … 2^32-1 (the counters, a namespace's id), into *out; else an
// InternalServerError naming what ("keyspace counter").
Status ParseStoredId(std::string_view text, const char* what, uint32_t* out);
// The counter stored at key into *out, or 1 when there is none.
Status ReadStoredCounter(const Storage& storage, std::string_view key, const char* what, uint32_t* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_CATALOG_CATALOG_KEYS_H_
