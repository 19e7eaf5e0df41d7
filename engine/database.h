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
#include "engine/client_token_cache.h"
#include "engine/consumed_capacity.h"
#include "engine/status.h"
#include "engine/storage.h"
#include "engine/table_definition.h"

namespace dynapage {

class StoredItemEncoder;
class WireItem;

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
  std::map<std::string, std::string> index_status;  // by index name, for an index that is not ACTIVE
};

// Decides what becomes of one item. Called under the writer lock with the item as stored now (nullptr if
// absent). Leaves *next empty to delete the item (or keep it absent). A non-OK status aborts the write.
using ItemMutator = std::function<Status(const AttributeMap* current, std::optional<AttributeMap>* next)>;

struct ItemWrite {
  std::shared_ptr<const TableDefinition> table;
  // TableItemKey(*table, key) of the item's key (or of the item itself). REQUIRES: the key passed ValidateKey
  // (or the item ValidateItemKeys) for the table.
  std::string storage_key;
  ItemMutator mutate;
  // The ItemSize of the item mutate puts, when the caller has sized it already (for the 400 KB check), so that
  // ApplyWrites does not size it again. REQUIRES: if set, equal to ItemSize of any item mutate puts.
  std::optional<uint64_t> put_size;
  // Instead of mutate, a put of a request's item as it is (BatchWriteItem): ApplyWrites encodes it straight from
  // the request and, on a table without indexes, reads of the item it replaces only its size.
  // REQUIRES: if set, mutate is empty, put_size is wire_put->size(), and *wire_put outlives ApplyWrites.
  const WireItem* wire_put = nullptr;
  // Filled in by ApplyWrites, with each item's DynamoDB size (0 when absent). old_item is the item replaced,
  // except after a wire_put on a table without indexes; new_item is empty after such a put.
  std::optional<AttributeMap> old_item;
  std::optional<AttributeMap> new_item;
  uint64_t old_size = 0;
  uint64_t new_size = 0;
};

// One item to read with Database::GetItems().
struct ItemRead {
  std::shared_ptr<const TableDefinition> table;
  AttributeMap key;
  // Filled in by GetItems:
  std::optional<AttributeMap> item;
  uint64_t size = 0;  // the item's DynamoDB size, 0 if absent
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
  // Changes a table's definition under the writer lock (UpdateTable, TTL, tags). change() sees the current definition
  // and fills *next (same name and keyspace) or fails, leaving the table as it was. An index of next with
  // keyspace 0 is new: it gets a keyspace and is backfilled from the table's items in batches, and the new
  // definition is published only once every entry is written, so no reader sees a half-built index. An index
  // of the current definition that next lacks is dropped with all its entries. *before and *after describe
  // the table on either side of the change.
  using DefinitionChange = std::function<Status(const TableDefinition& current, TableDefinition* next)>;
  Status ChangeTable(const std::string& name, const DefinitionChange& change, TableDescription* before,
                     TableDescription* after);

  // The table, or nullptr. Data-plane callers report "Requested resource not found" for nullptr.
  std::shared_ptr<const TableDefinition> FindTable(const std::string& name) const;

  // Reads one item by key into *item. *found is false when absent; *size is its DynamoDB size.
  Status GetItem(const TableDefinition& table, const AttributeMap& key, AttributeMap* item, bool* found,
                 uint64_t* size) const;

  // Reads every read's item from one snapshot of the store (TransactGetItems): never some items from before a
  // write and some from after it. REQUIRES: each key passed ValidateKey for its table.
  Status GetItems(std::vector<ItemRead>* reads) const;

  // TransactWriteItems' ClientRequestTokens (engine/transactions.h).
  ClientTokenCache& client_tokens() { return client_tokens_; }

  // Runs each write's mutator against the current state and, if every one succeeds, applies all of them in
  // one atomic batch. (*statuses)[i] is write i's outcome; the return value is OK only if all were applied.
  // REQUIRES: no two writes address the same item.
  Status ApplyWrites(std::vector<ItemWrite>* writes, std::vector<Status>* statuses);

 private:
  Database() = default;
  Status LoadCatalog();
  Status ReadStoredItem(const TableDefinition& table, const std::string& storage_key, AttributeMap* item,
                        bool* found, uint64_t* size) const;
  // Decodes a stored value of table read from storage into *item and its size.
  Status DecodeStoredItem(const TableDefinition& table, std::string_view value, AttributeMap* item,
                          uint64_t* size) const;
  void AddIndexEntries(const TableDefinition& table, const AttributeMap* old_item, const AttributeMap* new_item,
                       StoredItemEncoder* encoder, Storage::Batch* batch, std::map<uint32_t, TableStats>* deltas);
  void PutStats(uint32_t keyspace, const TableStats& stats, Storage::Batch* batch) const;
  // Writes the entries of table's indexes `added` for every item of the table; fills their counters.
  Status BackfillIndexes(const TableDefinition& table, const std::vector<IndexDefinition>& added,
                         std::map<uint32_t, TableStats>* stats);
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

  ClientTokenCache client_tokens_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_H_
