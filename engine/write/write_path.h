// WritePath: the one place every write goes through.
//
// Every change to what is stored (an item put, updated or deleted by any operation, a table created, changed or
// deleted, an index backfilled) runs here, under one writer lock, and lands in one atomic storage batch
// together with the index entries and the counters it changes, so conditional writes and transactions are
// serialisable and readers (which take no lock: each iterates over a consistent view of the store) never see
// half a write. The change log of DynamoDB Streams is written here too: the stream record of every item that
// ApplyWrites changes on a table with a stream goes into the same batch as the change (engine/write/stream_records.h),
// and streams are made and closed with the table changes that enable and disable them.
//
// Operation-level validation of requests (shapes, parameter combinations) happens in the operation files
// (engine/write/item_operations.cc, engine/write/update_item.cc, …); the write path offers the primitives they
// share. The table lookups of readers go to the Catalog (engine/catalog/catalog.h), which the write path
// alone changes.

#ifndef DYNAPAGE_ENGINE_WRITE_WRITE_PATH_H_
#define DYNAPAGE_ENGINE_WRITE_WRITE_PATH_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/model/attribute_value.h"
#include "engine/model/backup_record.h"
#include "engine/model/table_definition.h"
#include "engine/model/wire_item.h"
#include "engine/storage/storage.h"
#include "engine/vector/vector_store.h"
#include "engine/write/client_token_cache.h"
#include "engine/write/replication.h"
#include "engine/write/space_reclaim_policy.h"

namespace dynapage {

class StoredItemEncoder;

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
  // A deletion by TTL expiry: its stream record names DynamoDB's service as the user (docs/streams-and-ttl.md).
  bool by_ttl = false;
  // A transaction's ConditionCheck: the item stays as it is, and is not a write to replicate.
  bool check_only = false;
  // A write arriving from another replica (ApplyReplicated): applied with this stamp and not sent on.
  const ReplicaStamp* replica_stamp = nullptr;
  // Filled in by ApplyWrites, with each item's DynamoDB size (0 when absent). old_item is the item replaced,
  // except after a wire_put on a table without indexes; new_item is empty after such a put.
  std::optional<AttributeMap> old_item;
  std::optional<AttributeMap> new_item;
  uint64_t old_size = 0;
  uint64_t new_size = 0;
};

class WritePath {
 public:
  // REQUIRES: storage, catalog and vectors outlive the write path; catalog is storage's, loaded. Call
  // LoadVectorIndexes before the first write.
  WritePath(Storage* storage, Catalog* catalog, VectorStore* vectors)
      : storage_(storage), catalog_(catalog), vectors_(vectors) {}
  WritePath(const WritePath&) = delete;
  WritePath& operator=(const WritePath&) = delete;

  const Catalog& catalog() const { return *catalog_; }
  const Storage& storage() const { return *storage_; }
  // The vector indexes' in-memory entries (engine/vector/vector_store.h), which this write path keeps current.
  const VectorStore& vectors() const { return *vectors_; }

  // Builds every vector index of the catalog's tables from their items (a namespace being opened).
  Status LoadVectorIndexes();

  // TransactWriteItems' ClientRequestTokens (engine/write/transactions.h).
  ClientTokenCache& client_tokens() { return client_tokens_; }

  // Tables. CreateTable expects a definition validated by the caller; it assigns keyspaces, ARN (in the
  // caller's region and account), id and creation time (the context's clock). A definition with a
  // stream_view_type gets a new stream (CreateTable, and ChangeTable when next has one and current has none); a
  // table that loses its stream (ChangeTable) or is deleted closes it. Under a transient-status delay a deleted
  // table stays DELETING in the catalog for the delay (Catalog::FindDeleting).
  Status CreateTable(const RequestContext& ctx, TableDefinition definition, TableDescription* out);
  Status DeleteTable(const RequestContext& ctx, const std::string& name, TableDescription* out);
  // ImportTable's crash safety (docs/export-import.md): MarkImporting records that the table `name` (with table_id)
  // is being loaded by an import, EndImporting that it is loaded. DropUnfinishedImports, at start-up, deletes every
  // table still marked (the same table id: a table made again since is left alone) and forgets the marks, so that
  // an import a crash cut short leaves no half-loaded table.
  Status MarkImporting(const std::string& name, const std::string& table_id);
  Status EndImporting(const std::string& name);
  Status DropUnfinishedImports(const RequestContext& ctx);
  // Changes a table's definition (UpdateTable, TTL, tags). change() sees the current definition and fills *next
  // (same name and keyspace) or fails, leaving the table as it was. An index of next with keyspace 0 is new: it
  // gets a keyspace and is backfilled from the table's items in batches, and the new definition is published
  // only once every entry is written, so no reader sees a half-built index. An index of the current definition
  // that next lacks is dropped with all its entries. *before and *after describe the table on either side.
  using DefinitionChange = std::function<Status(const TableDefinition& current, TableDefinition* next)>;
  Status ChangeTable(const RequestContext& ctx, const std::string& name, const DefinitionChange& change,
                     TableDescription* before, TableDescription* after);

  // Runs each write's mutator against the current state and, if every one succeeds, applies all of them in
  // one atomic batch. (*statuses)[i] is write i's outcome; the return value is OK only if all were applied.
  // REQUIRES: no two writes address the same item.
  Status ApplyWrites(const RequestContext& ctx, std::vector<ItemWrite>* writes, std::vector<Status>* statuses);

  // Where the writes of tables with replicas go once committed (engine/write/replication.h); null: nowhere.
  // REQUIRES: called before the first write; sink outlives the write path.
  void set_replication(ReplicationSink* sink) { replication_ = sink; }
  // Applies the writes the replica of table in from_region sent, each only if its stamp is newer than the one
  // kept here (last writer wins), in one batch, with their stream records. Writes for a table that is not (or no
  // longer) in a group with from_region are dropped. *applied counts the writes that won. REQUIRES: every write
  // names table; ctx's caller is this namespace's.
  Status ApplyReplicated(const RequestContext& ctx, const std::string& table, const std::string& from_region,
                         std::vector<ReplicatedWrite>* writes, size_t* applied);
  // A replicator's catch-up (engine/database/replicator.h): the stamped items of table (tombstones included), from
  // the item key suffix *resume on (empty: the first), as writes to every member of its group, until about
  // max_bytes of items; *resume is where the next chunk starts, empty after the last. Read under the writer lock,
  // so each chunk is consistent. A table that is not (or no longer) global has none.
  Status ReadReplicatedChunk(const std::string& table, size_t max_bytes, std::string* resume,
                             std::vector<ReplicatedWrite>* out);
  // The stamp kept for the item at item_key (a zero stamp of origin region when there is none).
  Status ReadStamp(const std::string& item_key, const std::string& region, ReplicaStamp* stamp) const;

  // Backups and restores (engine/write/backups.h, docs/backups.md). Each copies items in batches of bounded size
  // from one consistent view taken under the writer lock, and does not hold the lock while it copies, so writes go
  // on meanwhile (they are not in the copy). What it makes becomes visible only with the batch of its last items,
  // which holds its record (the backup's, the restored table's definition): a crash before that leaves only items
  // in a reserved keyspace that nothing reads.
  //
  // Copies the items of table `name` into a new keyspace and writes *backup, whose identity the caller filled in;
  // fills in its keyspace, the table's definition and its counters. A missing table: TableNotFoundException.
  Status CreateBackup(const RequestContext& ctx, const std::string& name, BackupRecord* backup);
  // Deletes a backup's record and its items.
  Status DeleteBackup(const BackupRecord& backup);
  // What a restore copies: a backup's items (keyspace), or a table's items as they were at an instant
  // (table_name, at_ms: its items now with the journal entries after at_ms undone).
  struct RestoreSource {
    uint32_t keyspace = 0;
    std::string table_name;
    int64_t at_ms = 0;
  };
  // Makes table definition (validated by the caller; keyspaces, ARN, id and creation time are given here as
  // CreateTable gives them) with source's items and its indexes' entries. A name taken (or being restored):
  // TableAlreadyExistsException.
  Status RestoreTable(const RequestContext& ctx, TableDefinition definition, const RestoreSource& source,
                      TableDescription* out);
  // Calls each(stored item) for every item of the table in keyspace as it was at at_ms: its items now with the
  // journal entries after at_ms undone (as RestoreTableToPointInTime restores it), from one consistent view taken
  // under the writer lock, which is not held while it reads. Stops at the first error each returns.
  using StoredItemVisitor = std::function<Status(std::string_view stored_item)>;
  Status VisitItemsAsOf(uint32_t keyspace, int64_t at_ms, const StoredItemVisitor& each) const;
  // Calls each(change) for every item of the table in keyspace written at least once in [from_ms, to_ms) (by the
  // journal's commit times), in storage key order: its stored value just before from_ms and just before to_ms
  // (absent: nullopt) and the time of its last write in the window. Read from one consistent view taken under the
  // writer lock, which is not held while it reads; memory grows with the number of keys changed in the window.
  // Stops at the first error each returns. The journal must cover from_ms (point-in-time recovery on since then).
  struct WindowChange {
    std::string_view storage_key;
    const std::optional<std::string>* before;
    const std::optional<std::string>* after;
    int64_t last_write_ms = 0;
  };
  using WindowChangeVisitor = std::function<Status(const WindowChange& change)>;
  Status VisitChangesBetween(uint32_t keyspace, int64_t from_ms, int64_t to_ms, const WindowChangeVisitor& each) const;
  // Deletes the journal entries of the tables with point-in-time recovery that are older than their recovery
  // period (by the context's clock), so that the journal holds the window and no more.
  Status TrimJournals(const RequestContext& ctx);
  // Deletes the tombstones (engine/write/replication.h) older than kTombstoneRetentionMicros by the context's
  // clock; *swept counts them.
  Status SweepTombstones(const RequestContext& ctx, uint64_t* swept);

  // Deletes the stream records older than the retention period, and the disabled streams that outlived it (by the
  // context's clock). Readers treat both as gone already; this gives back their space.
  Status TrimStreams(const RequestContext& ctx);

 private:
  // A new stream for table, with id (a keyspace reserved for it), added to batch; sets the table's stream_id and
  // latest stream. REQUIRES: the writer lock; table.stream_view_type is set.
  StreamInfo NewStream(const RequestContext& ctx, TableDefinition* table, uint32_t id, Storage::Batch* batch) const;
  // The enabled stream id closed: its shard ends at its last record. Added to batch.
  StreamInfo ClosedStream(const RequestContext& ctx, uint32_t id, Storage::Batch* batch) const;
  // The streams one ApplyWrites writes records to, their counters moved on past those records (published once
  // the batch is written), and the time all the records carry.
  struct StreamBatch {
    std::vector<StreamInfo> streams;
    int64_t time_ms = 0;
  };
  // Adds to batch the stream record of write, applied to table (which has a stream), unless it changed nothing.
  void AddStreamRecord(const RequestContext& ctx, const TableDefinition& table, const ItemWrite& write,
                       StreamBatch* streams, Storage::Batch* batch) const;
  void AddIndexEntries(const TableDefinition& table, const AttributeMap* old_item, const AttributeMap* new_item,
                       StoredItemEncoder* encoder, Storage::Batch* batch, std::map<uint32_t, TableStats>* deltas);
  // Writes the entries of table's indexes `added` for every item of the table; fills their counters.
  Status BackfillIndexes(const TableDefinition& table, const std::vector<IndexDefinition>& added,
                         std::map<uint32_t, TableStats>* stats);

  // ApplyWrites under the writer lock, which the caller holds.
  Status ApplyWritesLocked(const RequestContext& ctx, std::vector<ItemWrite>* writes, std::vector<Status>* statuses);
  // For the writes on tables with replicas: each write's stamp (a replicated write's own, else one newer than the
  // stamp kept and than every stamp given before), the 2017 version's aws:rep:* attributes on the item, the stamps
  // to put into the batch, and the local writes to send to the other replicas. A deletion gets a tombstone also
  // when the item was absent; a ConditionCheck gets nothing.
  Status StampReplicatedWrites(const RequestContext& ctx,
                               const std::vector<std::shared_ptr<const TableDefinition>>& current,
                               const std::vector<bool>& found, std::vector<ItemWrite>* writes,
                               std::vector<std::pair<std::string, std::string>>* stamps,
                               std::vector<ReplicatedWrite>* outgoing);

  // Adds to batch the journal entry of a write of the item at storage_key of a table with point-in-time recovery:
  // the item as stored before it (old_value; null: absent).
  void AddJournalEntry(const RequestContext& ctx, const TableDefinition& table, const std::string& storage_key,
                       const std::string* old_value, Storage::Batch* batch);
  // The ids of the new table's keyspaces, its ARN, id and creation time, as CreateTable gives them.
  Status AssignIdentity(const RequestContext& ctx, TableDefinition* definition, uint32_t extra_keyspaces,
                        uint32_t* next_keyspace);

  // Asks storage to give back what was deleted from keyspace, as the reclaim policy decided.
  void Reclaim(uint32_t keyspace, SpaceReclaimPolicy::Action action);

  // Builds table's vector indexes that before lacks, and forgets those table lacks. REQUIRES: the writer lock.
  Status SyncVectorIndexes(const TableDefinition* before, const TableDefinition& table);

  Storage* storage_;
  Catalog* catalog_;
  VectorStore* vectors_;
  // Serialises all writes (items and catalog).
  mutable std::mutex write_mutex_;  // mutable: a const reader takes a consistent view under it
  ClientTokenCache client_tokens_;
  SpaceReclaimPolicy reclaim_policy_;  // under write_mutex_
  ReplicationSink* replication_ = nullptr;
  int64_t last_stamp_micros_ = 0;    // under write_mutex_: the stamps a write path gives only grow
  uint32_t journal_seq_ = 0;         // under write_mutex_: tells apart the journal entries of one millisecond
  std::set<std::string> restoring_;  // under write_mutex_: the names of the tables being restored
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_WRITE_PATH_H_
