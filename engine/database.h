// Database: the engine's entry point. It owns the storage and the catalog of tables, and is the one place that
// writes items: every write runs under one writer lock and lands in one atomic batch together with its index
// entries and the table's counters, so conditional writes and transactions are serialisable and readers never
// see half a write. Reads take no lock: each iterates over a consistent view of the store.
//
// Operation-level validation of requests (shapes, parameter combinations) happens in the operation files
// (query.cc, scan.cc, …); Database offers the primitives they share.

#ifndef DYNAPAGE_ENGINE_DATABASE_H_
#define DYNAPAGE_ENGINE_DATABASE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/consumed_capacity.h"
#include "engine/status.h"
#include "engine/storage.h"
#include "engine/table_definition.h"

namespace dynapage {

struct DatabaseOptions {
  std::string path;                  // empty: in memory
  uint64_t max_page_bytes = 1048576;  // the 1 MB Query/Scan page limit (lower it for tests: --max-page-bytes)
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
};

struct TableStats {
  int64_t item_count = 0;
  int64_t size_bytes = 0;
};

// A table as DescribeTable shows it.
struct TableDescription {
  std::shared_ptr<const TableDefinition> definition;
  std::string status = "ACTIVE";
  TableStats stats;
  std::map<std::string, TableStats> index_stats;  // by index name
};

// Decides what becomes of one item. Called under the writer lock with the item as stored now (nullptr if
// absent). Leaves *next empty to delete the item (or keep it absent). A non-OK status aborts the write.
using ItemMutator = std::function<Status(const AttributeMap* current, std::optional<AttributeMap>* next)>;

struct ItemWrite {
  std::shared_ptr<const TableDefinition> table;
  AttributeMap key;  // REQUIRES: passed ValidateKey for the table
  ItemMutator mutate;
  // Filled in by ApplyWrites:
  std::optional<AttributeMap> old_item;
  std::optional<AttributeMap> new_item;
};

class Database {
 public:
  static Status Open(const DatabaseOptions& options, std::unique_ptr<Database>* out);
  ~Database();

  const DatabaseOptions& options() const { return options_; }
  const Storage& storage() const { return *storage_; }

  // Catalog. CreateTable expects a definition validated by the caller; it assigns keyspaces, ARN, id, time.
  Status CreateTable(TableDefinition definition, TableDescription* out);
  Status DescribeTable(const std::string& name, TableDescription* out) const;
  Status DeleteTable(const std::string& name, TableDescription* out);
  // Names in ascending order after exclusive_start (if not empty); *more is true when names remain.
  void ListTables(const std::string& exclusive_start, size_t limit, std::vector<std::string>* names, bool* more) const;
  // Replaces a table's definition (UpdateTable, tags, TTL). REQUIRES: same name and keyspace.
  Status UpdateTableDefinition(const TableDefinition& definition);

  // The table, or nullptr. Data-plane callers report "Requested resource not found" for nullptr.
  std::shared_ptr<const TableDefinition> FindTable(const std::string& name) const;

  // Reads one item by key into *item. *found is false when absent; *size is its DynamoDB size.
  Status GetItem(const TableDefinition& table, const AttributeMap& key, AttributeMap* item, bool* found,
                 uint64_t* size) const;

  // Runs each write's mutator against the current state and, if every one succeeds, applies all of them in
  // one atomic batch. (*statuses)[i] is write i's outcome; the return value is OK only if all were applied.
  // REQUIRES: no two writes address the same item.
  Status ApplyWrites(std::vector<ItemWrite>* writes, std::vector<Status>* statuses);

 private:
  Database() = default;
  Status LoadCatalog();
  void AddIndexEntries(const TableDefinition& table, const AttributeMap* old_item, const AttributeMap* new_item,
                       Storage::Batch* batch, std::map<uint32_t, TableStats>* deltas);
  void PutStats(uint32_t keyspace, const TableStats& stats, Storage::Batch* batch) const;
  TableStats StatsOf(uint32_t keyspace) const;

  DatabaseOptions options_;
  std::unique_ptr<Storage> storage_;

  // Serialises all writes (items and catalog).
  std::mutex write_mutex_;
  // Guards tables_, stats_ and next_keyspace_ for readers.
  mutable std::shared_mutex catalog_mutex_;
  std::map<std::string, std::shared_ptr<const TableDefinition>> tables_;
  std::map<uint32_t, TableStats> stats_;
  uint32_t next_keyspace_ = 1;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_H_
