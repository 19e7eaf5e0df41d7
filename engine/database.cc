#include "engine/database.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "engine/attribute_value_json.h"
#include "engine/item_key.h"
#include "engine/key_codec.h"
#include "engine/stored_item.h"
#include "engine/wire_item.h"

namespace dynapage {

namespace {
// Catalog keys sort before data keys ('d'): 'c' table definitions, 'k' the keyspace counter, 's' counters.
constexpr char kCatalogTag = 'c';
constexpr char kCounterKey[] = "k";
constexpr char kStatsTag = 's';

std::string CatalogKey(const std::string& name) { return std::string(1, kCatalogTag) + name; }

std::string StatsKey(uint32_t keyspace) {
  std::string key(1, kStatsTag);
  for (int shift = 24; shift >= 0; shift -= 8) key.push_back(static_cast<char>((keyspace >> shift) & 0xFF));
  return key;
}

std::string EncodeU64Pair(uint64_t a, uint64_t b) {
  char buf[48];
  int n = std::snprintf(buf, sizeof buf, "%llu %llu", static_cast<unsigned long long>(a),
                        static_cast<unsigned long long>(b));
  return std::string(buf, n);
}

std::string NewUuid() {
  static std::mt19937_64 rng(std::random_device{}());
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  uint64_t a = rng(), b = rng();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xFFFF), static_cast<unsigned>(a & 0xFFF),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3FFF)),
                static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFULL));
  return buf;
}

double NowSeconds() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count() / 1000.0;
}
}  // namespace

Status Database::Open(const DatabaseOptions& options, std::unique_ptr<Database>* out) {
  std::unique_ptr<Database> db(new Database());
  db->options_ = options;
  DP_RETURN_IF_ERROR(Storage::Open(options.path, &db->storage_));
  DP_RETURN_IF_ERROR(db->LoadCatalog());
  *out = std::move(db);
  return Status::OK();
}

Database::~Database() {
  if (storage_) storage_->Flush();
}

Status Database::LoadCatalog() {
  auto it = storage_->NewIterator(std::string(1, kCatalogTag), std::string(1, kCatalogTag + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto table = std::make_shared<TableDefinition>();
    if (!ParseTableDefinition(std::string(it->value()), table.get())) {
      return Status::Internal("corrupt table definition for " + std::string(it->key().substr(1)));
    }
    tables_[table->name] = table;
  }
  DP_RETURN_IF_ERROR(it->status());
  std::string counter;
  bool found = false;
  DP_RETURN_IF_ERROR(storage_->Get(kCounterKey, &counter, &found));
  if (found) next_keyspace_ = static_cast<uint32_t>(std::stoul(counter));
  auto stats = storage_->NewIterator(std::string(1, kStatsTag), std::string(1, kStatsTag + 1));
  for (stats->SeekToFirst(); stats->Valid(); stats->Next()) {
    std::string_view key = stats->key();
    if (key.size() != 5) continue;
    uint32_t keyspace = 0;
    for (size_t i = 1; i < 5; i++) keyspace = (keyspace << 8) | static_cast<unsigned char>(key[i]);
    unsigned long long count = 0, bytes = 0;
    std::string value(stats->value());
    if (std::sscanf(value.c_str(), "%llu %llu", &count, &bytes) == 2) {
      stats_[keyspace] = TableStats{static_cast<int64_t>(count), static_cast<int64_t>(bytes)};
    }
  }
  return stats->status();
}

TableStats Database::StatsOf(uint32_t keyspace) const {
  auto it = stats_.find(keyspace);
  return it == stats_.end() ? TableStats() : it->second;
}

void Database::PutStats(uint32_t keyspace, const TableStats& stats, Storage::Batch* batch) const {
  // Counters are stored only to be read back at Open; in memory, stats_ is all there is. (A batch write then
  // also keeps to its own stretch of the memtable, instead of going to the counter's key and back each time.)
  if (!storage_->persistent()) return;
  batch->Put(StatsKey(keyspace), EncodeU64Pair(static_cast<uint64_t>(stats.item_count),
                                               static_cast<uint64_t>(stats.size_bytes)));
}

Status Database::CreateTable(TableDefinition definition, TableDescription* out) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  {
    std::shared_lock<std::shared_mutex> read_lock(catalog_mutex_);
    if (tables_.count(definition.name)) {
      return Status::InUse("Table already exists: " + definition.name);
    }
  }
  uint32_t next = next_keyspace_;
  definition.keyspace = next++;
  for (auto& index : definition.indexes) index.keyspace = next++;
  definition.creation_time = NowSeconds();
  definition.table_id = NewUuid();
  definition.arn = "arn:aws:dynamodb:" + options_.region + ":" + options_.account_id + ":table/" + definition.name;
  auto table = std::make_shared<const TableDefinition>(std::move(definition));

  Storage::Batch batch;
  batch.Put(CatalogKey(table->name), SerializeTableDefinition(*table));
  batch.Put(kCounterKey, std::to_string(next));
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  {
    std::unique_lock<std::shared_mutex> lock(catalog_mutex_);
    tables_[table->name] = table;
    next_keyspace_ = next;
  }
  out->definition = table;
  out->status = "ACTIVE";
  out->stats = TableStats();
  out->index_stats.clear();
  for (const auto& index : table->indexes) out->index_stats[index.name] = TableStats();
  return Status::OK();
}

Status Database::DescribeTable(const std::string& name, TableDescription* out) const {
  std::shared_lock<std::shared_mutex> lock(catalog_mutex_);
  auto it = tables_.find(name);
  if (it == tables_.end()) return Status::NotFound("Requested resource not found: Table: " + name + " not found");
  out->definition = it->second;
  out->status = "ACTIVE";
  out->stats = StatsOf(it->second->keyspace);
  out->index_stats.clear();
  for (const auto& index : it->second->indexes) out->index_stats[index.name] = StatsOf(index.keyspace);
  return Status::OK();
}

Status Database::DeleteTable(const std::string& name, TableDescription* out) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  DP_RETURN_IF_ERROR(DescribeTable(name, out));
  out->status = "DELETING";
  const TableDefinition& table = *out->definition;
  Storage::Batch batch;
  batch.Delete(CatalogKey(name));
  std::vector<uint32_t> keyspaces = {table.keyspace};
  for (const auto& index : table.indexes) keyspaces.push_back(index.keyspace);
  for (uint32_t keyspace : keyspaces) {
    std::string prefix = KeyspacePrefix(keyspace);
    batch.DeleteRange(prefix, PrefixSuccessor(prefix));
    batch.Delete(StatsKey(keyspace));
  }
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  std::unique_lock<std::shared_mutex> lock(catalog_mutex_);
  tables_.erase(name);
  for (uint32_t keyspace : keyspaces) stats_.erase(keyspace);
  return Status::OK();
}

Status Database::ChangeTable(const std::string& name, const DefinitionChange& change, TableDescription* before,
                             TableDescription* after) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  DP_RETURN_IF_ERROR(DescribeTable(name, before));
  const TableDefinition& current = *before->definition;
  TableDefinition next = current;
  DP_RETURN_IF_ERROR(change(current, &next));

  // A new index's keyspace is reserved and cleared before its first entry is written: a crash during the
  // backfill leaves only entries that nothing will ever read.
  std::vector<IndexDefinition> added;
  uint32_t next_keyspace = next_keyspace_;
  for (auto& index : next.indexes) {
    if (index.keyspace != 0) continue;
    index.keyspace = next_keyspace++;
    added.push_back(index);
  }
  std::map<uint32_t, TableStats> added_stats;
  if (!added.empty()) {
    Storage::Batch reserve;
    reserve.Put(kCounterKey, std::to_string(next_keyspace));
    for (const auto& index : added) {
      std::string prefix = KeyspacePrefix(index.keyspace);
      reserve.DeleteRange(prefix, PrefixSuccessor(prefix));
    }
    DP_RETURN_IF_ERROR(storage_->Write(&reserve));
    {
      std::unique_lock<std::shared_mutex> lock(catalog_mutex_);
      next_keyspace_ = next_keyspace;
    }
    DP_RETURN_IF_ERROR(BackfillIndexes(next, added, &added_stats));
  }

  Storage::Batch batch;
  batch.Put(CatalogKey(name), SerializeTableDefinition(next));
  std::vector<uint32_t> dropped;
  for (const auto& index : current.indexes) {
    bool kept = std::any_of(next.indexes.begin(), next.indexes.end(),
                            [&](const IndexDefinition& i) { return i.keyspace == index.keyspace; });
    if (kept) continue;
    std::string prefix = KeyspacePrefix(index.keyspace);
    batch.DeleteRange(prefix, PrefixSuccessor(prefix));
    batch.Delete(StatsKey(index.keyspace));
    dropped.push_back(index.keyspace);
  }
  for (const auto& [keyspace, stats] : added_stats) PutStats(keyspace, stats, &batch);
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  {
    std::unique_lock<std::shared_mutex> lock(catalog_mutex_);
    tables_[name] = std::make_shared<const TableDefinition>(std::move(next));
    for (uint32_t keyspace : dropped) stats_.erase(keyspace);
    for (const auto& [keyspace, stats] : added_stats) stats_[keyspace] = stats;
  }
  return DescribeTable(name, after);
}

void Database::ListTables(const std::string& exclusive_start, size_t limit, std::vector<std::string>* names,
                          bool* more) const {
  std::shared_lock<std::shared_mutex> lock(catalog_mutex_);
  names->clear();
  *more = false;
  auto it = exclusive_start.empty() ? tables_.begin() : tables_.upper_bound(exclusive_start);
  for (; it != tables_.end(); ++it) {
    if (names->size() == limit) {
      *more = true;
      break;
    }
    names->push_back(it->first);
  }
}

std::shared_ptr<const TableDefinition> Database::FindTable(const std::string& name) const {
  std::shared_lock<std::shared_mutex> lock(catalog_mutex_);
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second;
}

Status Database::GetItem(const TableDefinition& table, const AttributeMap& key, AttributeMap* item, bool* found,
                         uint64_t* size) const {
  return ReadStoredItem(table, TableItemKey(table, key), item, found, size);
}

Status Database::ReadStoredItem(const TableDefinition& table, const std::string& storage_key, AttributeMap* item,
                                bool* found, uint64_t* size) const {
  std::string value;
  DP_RETURN_IF_ERROR(storage_->Get(storage_key, &value, found));
  if (!*found) return Status::OK();
  return DecodeStoredItem(table, value, item, size);
}

Status Database::DecodeStoredItem(const TableDefinition& table, std::string_view value, AttributeMap* item,
                                  uint64_t* size) const {
  StoredItemView view;
  if (!ParseStoredItem(value, &view) || !DecodeStoredAttributeMap(view.json, item)) {
    return Status::Internal("corrupt item in table " + table.name);
  }
  *size = view.size;
  return Status::OK();
}

Status Database::GetItems(std::vector<ItemRead>* reads) const {
  std::vector<std::string> keys, values;
  std::vector<bool> found;
  for (const ItemRead& r : *reads) keys.push_back(TableItemKey(*r.table, r.key));
  DP_RETURN_IF_ERROR(storage_->MultiGet(std::vector<std::string_view>(keys.begin(), keys.end()), &values, &found));
  for (size_t i = 0; i < reads->size(); i++) {
    ItemRead& r = (*reads)[i];
    r.item.reset();
    r.size = 0;
    if (!found[i]) continue;
    AttributeMap item;
    DP_RETURN_IF_ERROR(DecodeStoredItem(*r.table, values[i], &item, &r.size));
    r.item = std::move(item);
  }
  return Status::OK();
}

void Database::AddIndexEntries(const TableDefinition& table, const AttributeMap* old_item,
                               const AttributeMap* new_item, StoredItemEncoder* encoder, Storage::Batch* batch,
                               std::map<uint32_t, TableStats>* deltas) {
  for (const auto& index : table.indexes) {
    TableStats& delta = (*deltas)[index.keyspace];
    std::string old_key, new_key;
    bool had = old_item && IndexEntryKey(table, index, *old_item, &old_key);
    bool has = new_item && IndexEntryKey(table, index, *new_item, &new_key);
    if (had) {
      delta.item_count--;
      delta.size_bytes -= static_cast<int64_t>(ItemSize(ProjectForIndex(table, index, *old_item)));
      if (!has || old_key != new_key) batch->Delete(old_key);
    }
    if (has) {
      AttributeMap entry = ProjectForIndex(table, index, *new_item);
      uint64_t size = ItemSize(entry);
      delta.item_count++;
      delta.size_bytes += static_cast<int64_t>(size);
      batch->Put(new_key, encoder->Encode(entry, size));
    }
  }
}

Status Database::BackfillIndexes(const TableDefinition& table, const std::vector<IndexDefinition>& added,
                                 std::map<uint32_t, TableStats>* stats) {
  constexpr size_t kEntriesPerBatch = 1000;
  TableDefinition only_added = table;
  only_added.indexes = added;
  for (const auto& index : added) (*stats)[index.keyspace] = TableStats();
  std::string prefix = KeyspacePrefix(table.keyspace);
  auto it = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
  auto batch = std::make_unique<Storage::Batch>();
  StoredItemEncoder encoder;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    StoredItemView view;
    AttributeMap item;
    if (!ParseStoredItem(it->value(), &view) || !DecodeStoredAttributeMap(view.json, &item)) {
      return Status::Internal("corrupt item in table " + table.name);
    }
    AddIndexEntries(only_added, nullptr, &item, &encoder, batch.get(), stats);
    if (batch->Count() >= kEntriesPerBatch) {
      DP_RETURN_IF_ERROR(storage_->Write(batch.get()));
      batch = std::make_unique<Storage::Batch>();
    }
  }
  DP_RETURN_IF_ERROR(it->status());
  return batch->Count() ? storage_->Write(batch.get()) : Status::OK();
}

Status Database::ApplyWrites(std::vector<ItemWrite>* writes, std::vector<Status>* statuses) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  statuses->assign(writes->size(), Status::OK());
  bool all_ok = true;
  Status first_error;
  // The caller's storage key stays valid: the key encoding depends only on the table's key schema and keyspace,
  // which no change of definition alters. The size of the item replaced comes from its stored header. The
  // items replaced are read in one batched lookup.
  std::vector<std::string_view> keys;
  keys.reserve(writes->size());
  for (const ItemWrite& w : *writes) keys.push_back(w.storage_key);
  std::vector<std::string> values;
  std::vector<bool> found;
  DP_RETURN_IF_ERROR(storage_->MultiGet(keys, &values, &found));
  // Each write's table as it is now: an index created or dropped since the caller looked the table up counts.
  // The catalog cannot change under the writer lock, so writes to the table looked up last reuse its definition.
  std::vector<std::shared_ptr<const TableDefinition>> current(writes->size());
  const TableDefinition* current_for = nullptr;
  for (size_t i = 0; i < writes->size(); i++) {
    ItemWrite& w = (*writes)[i];
    if (w.table.get() != current_for) {
      current[i] = FindTable(w.table->name);
      current_for = w.table.get();
    } else {
      current[i] = current[i - 1];
    }
    if (!current[i] || current[i]->keyspace != w.table->keyspace) {
      return Status::NotFound("Requested resource not found");
    }
    w.old_item.reset();
    w.new_item.reset();
    w.old_size = 0;
    w.new_size = 0;
    // A request's item put as it is needs of the item it replaces only the size, unless index entries change.
    const bool needs_attribute_maps = !w.wire_put || !current[i]->indexes.empty();
    Status s;
    if (found[i] && needs_attribute_maps) {
      AttributeMap old_item;
      s = DecodeStoredItem(*w.table, values[i], &old_item, &w.old_size);
      if (s.ok()) w.old_item = std::move(old_item);
    } else if (found[i]) {
      StoredItemView view;
      if (!ParseStoredItem(values[i], &view)) s = Status::Internal("corrupt item in table " + w.table->name);
      w.old_size = view.size;
    }
    if (s.ok() && w.mutate) s = w.mutate(w.old_item ? &*w.old_item : nullptr, &w.new_item);
    if (s.ok() && w.wire_put && needs_attribute_maps) w.new_item = w.wire_put->ToAttributeMap();
    if (!s.ok()) {
      (*statuses)[i] = s;
      if (all_ok) first_error = s;
      all_ok = false;
    }
  }
  if (!all_ok) return first_error;

  // Room for the items (their JSON is about half as long again as their DynamoDB size), their keys and RocksDB's
  // few bytes of framing each; index entries aside.
  size_t batch_bytes = 0;
  for (const ItemWrite& w : *writes) batch_bytes += w.storage_key.size() + (w.put_size ? *w.put_size * 3 / 2 : 0) + 32;
  Storage::Batch batch(batch_bytes);
  std::map<uint32_t, TableStats> deltas;
  StoredItemEncoder encoder;
  for (size_t i = 0; i < writes->size(); i++) {
    ItemWrite& w = (*writes)[i];
    const TableDefinition& table = *current[i];
    const std::string& key = w.storage_key;
    TableStats& delta = deltas[table.keyspace];
    if (found[i]) {
      delta.item_count--;
      delta.size_bytes -= static_cast<int64_t>(w.old_size);
    }
    if (w.new_item || w.wire_put) {
      w.new_size = w.put_size ? *w.put_size : ItemSize(*w.new_item);
      delta.item_count++;
      delta.size_bytes += static_cast<int64_t>(w.new_size);
      batch.Put(key, w.new_item ? encoder.Encode(*w.new_item, w.new_size) : encoder.Encode(*w.wire_put));
    } else if (found[i]) {
      batch.Delete(key);
    }
    AddIndexEntries(table, w.old_item ? &*w.old_item : nullptr, w.new_item ? &*w.new_item : nullptr, &encoder,
                    &batch, &deltas);
  }
  std::map<uint32_t, TableStats> updated;
  {
    std::shared_lock<std::shared_mutex> lock(catalog_mutex_);
    for (const auto& [keyspace, delta] : deltas) {
      if (delta.item_count == 0 && delta.size_bytes == 0) continue;
      TableStats stats = StatsOf(keyspace);
      stats.item_count += delta.item_count;
      stats.size_bytes += delta.size_bytes;
      updated[keyspace] = stats;
      PutStats(keyspace, stats, &batch);
    }
  }
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  std::unique_lock<std::shared_mutex> lock(catalog_mutex_);
  for (const auto& [keyspace, stats] : updated) stats_[keyspace] = stats;
  return Status::OK();
}

}  // namespace dynapage
