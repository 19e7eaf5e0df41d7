// WritePath's backups, restores and point-in-time recovery journal (write_path.h, docs/backups.md).

#include <functional>
#include <map>
#include <optional>

#include "engine/catalog/catalog_keys.h"
#include "engine/catalog/stream_catalog.h"
#include "engine/storage/key_codec.h"
#include "engine/storage/stored_item.h"
#include "engine/write/write_path.h"

namespace dynapage {

namespace {
// A copy writes its items in batches of this many, or of this many bytes, whichever comes first: memory stays
// bounded and no batch holds RocksDB's write queue for long.
constexpr size_t kItemsPerBatch = 1000;
constexpr size_t kBytesPerBatch = 4 << 20;

// A journal entry's value: 'P' · key length (4 bytes BE) · the item's storage key · the item as stored before the
// write, or 'A' · key length · key when it was absent.
constexpr char kJournalPresent = 'P';
constexpr char kJournalAbsent = 'A';

// The item keys of a table at an instant that differ from its keys now: the stored value then (empty: absent).
using Overlay = std::map<std::string, std::optional<std::string>>;

bool ParseJournalEntry(std::string_view value, std::string_view* item_key, std::optional<std::string_view>* old) {
  if (value.size() < 5 || (value[0] != kJournalPresent && value[0] != kJournalAbsent)) return false;
  const uint64_t length = ReadBigEndian(value.substr(1, 4));
  if (value.size() < 5 + length) return false;
  *item_key = value.substr(5, length);
  if (value[0] == kJournalPresent) {
    *old = value.substr(5 + length);
  } else {
    old->reset();
  }
  return true;
}

// Calls each(key, value) for every item of items, with overlay's values in place of the ones items has (an item
// absent from the overlay's view is skipped): a table's items at an instant, from its items now.
Status VisitOverlaid(Storage::Iterator* items, const Overlay& overlay,
                     const std::function<Status(std::string_view key, std::string_view value)>& each) {
  for (items->SeekToFirst(); items->Valid(); items->Next()) {
    const std::string_view key = items->key();
    if (!overlay.empty() && overlay.count(std::string(key))) continue;  // written since: the overlay's value, below
    DP_RETURN_IF_ERROR(each(key, items->value()));
  }
  DP_RETURN_IF_ERROR(items->status());
  for (const auto& [key, value] : overlay) {
    if (value) DP_RETURN_IF_ERROR(each(key, *value));
  }
  return Status::OK();
}

// The overlay of the journal entries journal reads (those after an instant): the earliest entry of each key
// written since holds its value at the instant.
Status ReadOverlay(Storage::Iterator* journal, Overlay* overlay) {
  for (journal->SeekToFirst(); journal->Valid(); journal->Next()) {
    std::string_view item_key;
    std::optional<std::string_view> old;
    if (!ParseJournalEntry(journal->value(), &item_key, &old)) return Status::Internal("corrupt journal entry");
    overlay->emplace(std::string(item_key), old ? std::optional<std::string>(std::string(*old)) : std::nullopt);
  }
  return journal->status();
}

// Copies items (a table's or a backup's, each key 'd' | keyspace | rest) to 'd' | into | rest, with overlay's values
// in place of the ones items has, in batches; counts them into *stats. The last batch is left in *batch, unwritten,
// for the caller's record.
Status CopyItems(Storage* storage, Storage::Iterator* items, const Overlay& overlay, uint32_t into,
                 std::unique_ptr<Storage::Batch>* batch, TableStats* stats) {
  const std::string target = KeyspacePrefix(into);
  const size_t prefix_length = target.size();
  size_t batch_bytes = 0;
  *batch = std::make_unique<Storage::Batch>();
  return VisitOverlaid(items, overlay, [&](std::string_view key, std::string_view value) -> Status {
    StoredItemView view;
    if (!ParseStoredItem(value, &view)) return Status::Internal("corrupt item in a copy");
    stats->item_count++;
    stats->size_bytes += view.size;
    (*batch)->Put(target + std::string(key.substr(prefix_length)), value);
    batch_bytes += key.size() + value.size();
    if ((*batch)->Count() >= kItemsPerBatch || batch_bytes >= kBytesPerBatch) {
      DP_RETURN_IF_ERROR(storage->Write(batch->get()));
      *batch = std::make_unique<Storage::Batch>();
      batch_bytes = 0;
    }
    return Status::OK();
  });
}
}  // namespace

void WritePath::AddJournalEntry(const RequestContext& ctx, const TableDefinition& table, const std::string& storage_key,
                                const std::string* old_value, Storage::Batch* batch) {
  std::string value(1, old_value ? kJournalPresent : kJournalAbsent);
  AppendBigEndian(storage_key.size(), 4, &value);
  value += storage_key;
  if (old_value) value += *old_value;
  batch->Put(JournalKey(table.keyspace, ctx.clock->NowMillis(), journal_seq_++), value);
}

Status WritePath::CreateBackup(const RequestContext& ctx, const std::string& name, BackupRecord* backup) {
  std::unique_ptr<Storage::Iterator> items;
  {
    std::lock_guard<std::mutex> write_lock(write_mutex_);
    auto table = catalog_->FindTable(name);
    if (!table) return Status::Error(ErrorCode::kTableNotFound, "Table not found: " + name);
    DP_RETURN_IF_ERROR(catalog_->ReserveKeyspaces(1, &backup->keyspace));
    backup->table = *table;
    const std::string prefix = KeyspacePrefix(table->keyspace);
    items = storage_->NewIterator(prefix, PrefixSuccessor(prefix));  // the instant of the backup
  }
  std::unique_ptr<Storage::Batch> batch;
  TableStats stats;
  DP_RETURN_IF_ERROR(CopyItems(storage_, items.get(), Overlay(), backup->keyspace, &batch, &stats));
  backup->item_count = stats.item_count;
  backup->size_bytes = stats.size_bytes;
  catalog_->PutBackup(*backup, batch.get());
  (void)ctx;
  return storage_->Write(batch.get());
}

Status WritePath::DeleteBackup(const BackupRecord& backup) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  Storage::Batch batch;
  catalog_->DeleteBackup(backup.id, &batch);
  const std::string prefix = KeyspacePrefix(backup.keyspace);
  batch.DeleteRange(prefix, PrefixSuccessor(prefix));
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  storage_->ReclaimSoon(prefix, PrefixSuccessor(prefix));
  return Status::OK();
}

Status WritePath::RestoreTable(const RequestContext& ctx, TableDefinition definition, const RestoreSource& source,
                               TableDescription* out) {
  const std::string name = definition.name;
  std::unique_ptr<Storage::Iterator> items, journal;
  int64_t at_ms = source.at_ms;
  {
    std::lock_guard<std::mutex> write_lock(write_mutex_);
    if (catalog_->FindTable(name) || restoring_.count(name)) {
      return Status::Error(ErrorCode::kTableAlreadyExists, "Table already exists: " + name);
    }
    uint32_t source_keyspace = source.keyspace;
    if (!source.table_name.empty()) {
      auto table = catalog_->FindTable(source.table_name);
      if (!table) return Status::Error(ErrorCode::kTableNotFound, "Table not found: " + source.table_name);
      source_keyspace = table->keyspace;
      const std::string entries = JournalPrefix(table->keyspace);
      journal = storage_->NewIterator(JournalKey(table->keyspace, at_ms + 1, 0), PrefixSuccessor(entries));
    }
    uint32_t next = 0;
    DP_RETURN_IF_ERROR(AssignIdentity(ctx, &definition, 0, &next));
    const std::string prefix = KeyspacePrefix(source_keyspace);
    items = storage_->NewIterator(prefix, PrefixSuccessor(prefix));  // with journal: the same instant
    restoring_.insert(name);
  }
  Status s = [&]() -> Status {
    // The earliest entry after the instant of each key written since holds its value at the instant.
    Overlay overlay;
    if (journal) DP_RETURN_IF_ERROR(ReadOverlay(journal.get(), &overlay));
    std::unique_ptr<Storage::Batch> batch;
    TableStats stats;
    DP_RETURN_IF_ERROR(CopyItems(storage_, items.get(), overlay, definition.keyspace, &batch, &stats));
    DP_RETURN_IF_ERROR(storage_->Write(batch.get()));
    std::map<uint32_t, TableStats> all_stats;
    if (!definition.indexes.empty()) DP_RETURN_IF_ERROR(BackfillIndexes(definition, definition.indexes, &all_stats));
    all_stats[definition.keyspace] = stats;
    std::lock_guard<std::mutex> write_lock(write_mutex_);
    Storage::Batch last;
    catalog_->PutDefinition(definition, &last);
    for (const auto& [keyspace, counts] : all_stats) catalog_->PutStats(keyspace, counts, &last);
    DP_RETURN_IF_ERROR(storage_->Write(&last));
    auto table = std::make_shared<const TableDefinition>(definition);
    DP_RETURN_IF_ERROR(SyncVectorIndexes(nullptr, *table));
    catalog_->SetTable(table);
    catalog_->SetStats(all_stats);
    restoring_.erase(name);
    return catalog_->DescribeTable(name, out);
  }();
  if (!s.ok()) {
    std::lock_guard<std::mutex> write_lock(write_mutex_);
    restoring_.erase(name);
  }
  return s;
}

Status WritePath::VisitItemsAsOf(uint32_t keyspace, int64_t at_ms, const StoredItemVisitor& each) const {
  std::unique_ptr<Storage::Iterator> items, journal;
  {
    std::lock_guard<std::mutex> write_lock(write_mutex_);  // the items and the journal of one instant
    const std::string prefix = KeyspacePrefix(keyspace);
    items = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
    journal = storage_->NewIterator(JournalKey(keyspace, at_ms + 1, 0), PrefixSuccessor(JournalPrefix(keyspace)));
  }
  Overlay overlay;
  DP_RETURN_IF_ERROR(ReadOverlay(journal.get(), &overlay));
  return VisitOverlaid(items.get(), overlay, [&](std::string_view, std::string_view value) { return each(value); });
}

Status WritePath::VisitChangesBetween(uint32_t keyspace, int64_t from_ms, int64_t to_ms,
                                      const WindowChangeVisitor& each) const {
  std::unique_ptr<Storage::Iterator> items, journal;
  {
    std::lock_guard<std::mutex> write_lock(write_mutex_);  // the items and the journal of one instant
    const std::string prefix = KeyspacePrefix(keyspace);
    items = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
    journal = storage_->NewIterator(JournalKey(keyspace, from_ms, 0), PrefixSuccessor(JournalPrefix(keyspace)));
  }
  struct Change {
    std::optional<std::string> before, after;
    bool after_known = false;  // a write after the window gave the value at its end
    int64_t last_write_ms = 0;
  };
  std::map<std::string, Change> changes;
  const size_t time_at = JournalPrefix(keyspace).size();
  for (journal->SeekToFirst(); journal->Valid(); journal->Next()) {
    const std::string_view entry_key = journal->key();
    if (entry_key.size() < time_at + 8) return Status::Internal("corrupt journal key");
    const int64_t ms = static_cast<int64_t>(ReadBigEndian(entry_key.substr(time_at, 8)));
    std::string_view item_key;
    std::optional<std::string_view> old;
    if (!ParseJournalEntry(journal->value(), &item_key, &old)) return Status::Internal("corrupt journal entry");
    auto as_value = [&old]() { return old ? std::optional<std::string>(std::string(*old)) : std::nullopt; };
    if (ms < to_ms) {
      auto [change, first] = changes.try_emplace(std::string(item_key));
      if (first) change->second.before = as_value();  // the earliest write in the window undone: its value before
      change->second.last_write_ms = ms;
    } else {
      auto change = changes.find(std::string(item_key));
      if (change != changes.end() && !change->second.after_known) {
        change->second.after = as_value();  // the earliest write after the window undone: its value at the end
        change->second.after_known = true;
      }
    }
  }
  DP_RETURN_IF_ERROR(journal->status());
  for (auto& [key, change] : changes) {
    if (!change.after_known) {  // not written since the window: its value now
      items->Seek(key);
      if (items->Valid() && items->key() == key) change.after = std::string(items->value());
      DP_RETURN_IF_ERROR(items->status());
    }
    if (!change.before && !change.after) continue;  // made and deleted within the window: no change to show
    DP_RETURN_IF_ERROR(each(WindowChange{key, &change.before, &change.after, change.last_write_ms}));
  }
  return Status::OK();
}

Status WritePath::TrimJournals(const RequestContext& ctx) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  std::vector<std::string> names;
  bool more = false;
  catalog_->ListTables("", SIZE_MAX, &names, &more);
  Storage::Batch batch;
  const int64_t now_ms = ctx.clock->NowMillis();
  for (const auto& name : names) {
    auto table = catalog_->FindTable(name);
    if (!table || !table->point_in_time_recovery) continue;
    const int64_t horizon_ms = now_ms - table->recovery_period_in_days * 86400 * 1000;
    if (horizon_ms <= 0) continue;
    batch.DeleteRange(JournalPrefix(table->keyspace), JournalKey(table->keyspace, horizon_ms, 0));
  }
  return batch.Count() ? storage_->Write(&batch) : Status::OK();
}

}  // namespace dynapage
