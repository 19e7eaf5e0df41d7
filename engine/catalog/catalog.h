// Catalog: the tables, their keyspaces and their counters.
//
// The catalog is the engine's registry of TableDefinitions (by name), the counter that hands out keyspaces
// (the 4-byte prefix of every stored key of a table or index, engine/storage/key_codec.h), and each keyspace's
// item count and size, as DescribeTable reports them. A catalog is one namespace's: many catalogs share one
// store, each reading and writing the definitions and streams under its namespace id, and all taking keyspaces
// from the store's one KeyspaceCounter (the layout: engine/catalog/catalog_keys.h). Load() reads them back when
// the namespace is first used.
//
// Readers call FindTable/DescribeTable/ListTables from any thread at any time: they take a shared lock and
// see the catalog either before or after a change, never during one. Changes are made only by the write path
// (engine/write/write_path.h), which holds the one writer lock: it puts the change's records into its storage
// batch with the Put*/Delete* helpers, writes the batch, and then publishes the change here with the Set*
// methods. REQUIRES (of every Set*): the caller holds the writer lock.

#ifndef DYNAPAGE_ENGINE_CATALOG_CATALOG_H_
#define DYNAPAGE_ENGINE_CATALOG_CATALOG_H_

#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/catalog/keyspace_counter.h"
#include "engine/catalog/stream_catalog.h"
#include "engine/model/backup_record.h"
#include "engine/model/table_definition.h"
#include "engine/storage/storage.h"

namespace dynapage {

struct TableStats {
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

// A table as DescribeTable shows it.
struct TableDescription {
  std::shared_ptr<const TableDefinition> definition;
  std::string status = "ACTIVE";
  TableStats stats;
  std::map<std::string, TableStats> index_stats;    // by index name
  std::map<std::string, std::string> index_status;  // by index name, for an index that is not ACTIVE
  // A vector index's Backfilling, by index name, while it is shown (docs/vector-search.md: absent once ACTIVE).
  std::map<std::string, bool> index_backfilling;
  // The status of a setting that is not settled (engine/model/table_settings.h), by what it is: "warm" (the
  // table's WarmThroughput), "warm/<index>", "sse". An empty status hides the member (CreateTable's answer shows no
  // WarmThroughput unless the request set it).
  std::map<std::string, std::string> settings_status;
  // A replica (docs/global-tables.md) that is not ACTIVE, by region: CREATING, DELETING.
  std::map<std::string, std::string> replica_status;
};

class Catalog {
 public:
  // Namespace namespace_id's catalog in storage. REQUIRES: storage and keyspaces (storage's counter) outlive it.
  Catalog(Storage* storage, KeyspaceCounter* keyspaces, uint32_t namespace_id)
      : storage_(storage), keyspaces_(keyspaces), namespace_id_(namespace_id), streams_(namespace_id) {}
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  // Reads the definitions and counters stored by earlier runs. Called once, before any other method.
  Status Load();

  const Storage& storage() const { return *storage_; }

  // The table, or nullptr. Data-plane callers report kResourceNotFound for nullptr.
  std::shared_ptr<const TableDefinition> FindTable(const std::string& name) const;
  // The table with its counters, or ResourceNotFoundException "Requested resource not found: Table: … not found".
  Status DescribeTable(const std::string& name, TableDescription* out) const;
  // Names in ascending order after exclusive_start (if not empty); *more is true when names remain.
  void ListTables(const std::string& exclusive_start, size_t limit, std::vector<std::string>* names, bool* more) const;
  // A keyspace's counters (zero for a keyspace with none).
  TableStats StatsOf(uint32_t keyspace) const;
  // A table deleted under a transient-status delay (RequestContext::transient_status_ms) whose delay has not
  // passed at now: *out is its description as DeleteTable left it (status DELETING). Tables are DELETING in
  // memory only: a restart forgets them.
  bool FindDeleting(const std::string& name, double now, TableDescription* out) const;

  // The DynamoDB streams of the tables, enabled and disabled (loaded by Load()).
  const StreamCatalog& streams() const { return streams_; }

  // The namespace's backups (engine/model/backup_record.h), read from storage: all of them in id order (so by
  // creation time), or one by id (*found false when there is none).
  Status ListBackups(std::vector<BackupRecord>* out) const;
  Status FindBackup(const std::string& id, BackupRecord* out, bool* found) const;

  // --- For the write path, under its writer lock.
  // count new keyspaces (for a table, its indexes, its stream), from the store's counter.
  Status ReserveKeyspaces(uint32_t count, uint32_t* first) { return keyspaces_->Reserve(count, first); }
  StreamCatalog& mutable_streams() { return streams_; }
  // Records of a change, added to the write path's batch.
  void PutDefinition(const TableDefinition& table, Storage::Batch* batch) const;
  void DeleteDefinition(const std::string& name, Storage::Batch* batch) const;
  void PutStats(uint32_t keyspace, const TableStats& stats, Storage::Batch* batch) const;
  static void DeleteStats(uint32_t keyspace, Storage::Batch* batch);
  void PutBackup(const BackupRecord& backup, Storage::Batch* batch) const;
  void DeleteBackup(const std::string& id, Storage::Batch* batch) const;
  // Publishing a change once its batch is written.
  void SetTable(std::shared_ptr<const TableDefinition> table);
  void RemoveTable(const std::string& name);
  // Shows a deleted table DELETING until the time until (seconds); forgets the ones whose time passed at now. A
  // table created under the same name ends it (SetTable).
  void NoteDeleting(const TableDescription& description, double now, double until);
  void SetStats(const std::map<uint32_t, TableStats>& stats);
  void RemoveStats(const std::vector<uint32_t>& keyspaces);

  uint32_t namespace_id() const { return namespace_id_; }

 private:
  TableStats StatsOfLocked(uint32_t keyspace) const;

  Storage* storage_;
  KeyspaceCounter* keyspaces_;
  uint32_t namespace_id_;
  // Guards tables_ and stats_ for readers; the writer lock orders the changes.
  mutable std::shared_mutex mu_;
  std::map<std::string, std::shared_ptr<const TableDefinition>> tables_;
  std::map<uint32_t, TableStats> stats_;
  struct Deleting {
    TableDescription description;
    double until = 0;
  };
  std::map<std::string, Deleting> deleting_;
  StreamCatalog streams_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_CATALOG_CATALOG_H_
