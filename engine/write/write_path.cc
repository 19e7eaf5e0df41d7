#include "engine/write/write_path.h"

#include <algorithm>
#include <cstdio>
#include <random>

#include "engine/base/messages.h"
#include "engine/storage/item_key.h"
#include "engine/storage/key_codec.h"
#include "engine/storage/stored_item.h"
#include "engine/storage/table_items.h"

namespace dynapage {

namespace {
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

}  // namespace

Status WritePath::CreateTable(const RequestContext& ctx, TableDefinition definition, TableDescription* out) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  if (catalog_->FindTable(definition.name)) return Status::InUse("Table already exists: " + definition.name);
  uint32_t next = catalog_->next_keyspace();
  definition.keyspace = next++;
  for (auto& index : definition.indexes) index.keyspace = next++;
  definition.creation_time = ctx.clock->NowSeconds();
  definition.table_id = NewUuid();
  definition.arn = "arn:aws:dynamodb:" + ctx.caller.region + ":" + ctx.caller.account_id + ":table/" + definition.name;
  auto table = std::make_shared<const TableDefinition>(std::move(definition));

  Storage::Batch batch;
  Catalog::PutDefinition(*table, &batch);
  Catalog::PutNextKeyspace(next, &batch);
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  catalog_->SetTable(table);
  catalog_->SetNextKeyspace(next);
  out->definition = table;
  out->status = "ACTIVE";
  out->stats = TableStats();
  out->index_stats.clear();
  for (const auto& index : table->indexes) out->index_stats[index.name] = TableStats();
  return Status::OK();
}

Status WritePath::DeleteTable(const RequestContext& ctx, const std::string& name, TableDescription* out) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  DP_RETURN_IF_ERROR(catalog_->DescribeTable(name, out));
  out->status = "DELETING";
  const TableDefinition& table = *out->definition;
  Storage::Batch batch;
  Catalog::DeleteDefinition(name, &batch);
  std::vector<uint32_t> keyspaces = {table.keyspace};
  for (const auto& index : table.indexes) keyspaces.push_back(index.keyspace);
  for (uint32_t keyspace : keyspaces) {
    std::string prefix = KeyspacePrefix(keyspace);
    batch.DeleteRange(prefix, PrefixSuccessor(prefix));
    Catalog::DeleteStats(keyspace, &batch);
  }
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  catalog_->RemoveTable(name);
  catalog_->RemoveStats(keyspaces);
  return Status::OK();
}

Status WritePath::ChangeTable(const RequestContext& ctx, const std::string& name, const DefinitionChange& change,
                              TableDescription* before, TableDescription* after) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  DP_RETURN_IF_ERROR(catalog_->DescribeTable(name, before));
  const TableDefinition& current = *before->definition;
  TableDefinition next = current;
  DP_RETURN_IF_ERROR(change(current, &next));

  // A new index's keyspace is reserved and cleared before its first entry is written: a crash during the
  // backfill leaves only entries that nothing will ever read.
  std::vector<IndexDefinition> added;
  uint32_t next_keyspace = catalog_->next_keyspace();
  for (auto& index : next.indexes) {
    if (index.keyspace != 0) continue;
    index.keyspace = next_keyspace++;
    added.push_back(index);
  }
  std::map<uint32_t, TableStats> added_stats;
  if (!added.empty()) {
    Storage::Batch reserve;
    Catalog::PutNextKeyspace(next_keyspace, &reserve);
    for (const auto& index : added) {
      std::string prefix = KeyspacePrefix(index.keyspace);
      reserve.DeleteRange(prefix, PrefixSuccessor(prefix));
    }
    DP_RETURN_IF_ERROR(storage_->Write(&reserve));
    catalog_->SetNextKeyspace(next_keyspace);
    DP_RETURN_IF_ERROR(BackfillIndexes(next, added, &added_stats));
  }

  Storage::Batch batch;
  Catalog::PutDefinition(next, &batch);
  std::vector<uint32_t> dropped;
  for (const auto& index : current.indexes) {
    bool kept = std::any_of(next.indexes.begin(), next.indexes.end(),
                            [&](const IndexDefinition& i) { return i.keyspace == index.keyspace; });
    if (kept) continue;
    std::string prefix = KeyspacePrefix(index.keyspace);
    batch.DeleteRange(prefix, PrefixSuccessor(prefix));
    Catalog::DeleteStats(index.keyspace, &batch);
    dropped.push_back(index.keyspace);
  }
  for (const auto& [keyspace, stats] : added_stats) catalog_->PutStats(keyspace, stats, &batch);
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  catalog_->SetTable(std::make_shared<const TableDefinition>(std::move(next)));
  catalog_->RemoveStats(dropped);
  catalog_->SetStats(added_stats);
  return catalog_->DescribeTable(name, after);
}

void WritePath::AddIndexEntries(const TableDefinition& table, const AttributeMap* old_item,
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

Status WritePath::BackfillIndexes(const TableDefinition& table, const std::vector<IndexDefinition>& added,
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
    AttributeMap item;
    uint64_t size = 0;
    DP_RETURN_IF_ERROR(DecodeTableItem(table, it->value(), &item, &size));
    AddIndexEntries(only_added, nullptr, &item, &encoder, batch.get(), stats);
    if (batch->Count() >= kEntriesPerBatch) {
      DP_RETURN_IF_ERROR(storage_->Write(batch.get()));
      batch = std::make_unique<Storage::Batch>();
    }
  }
  DP_RETURN_IF_ERROR(it->status());
  return batch->Count() ? storage_->Write(batch.get()) : Status::OK();
}

Status WritePath::ApplyWrites(const RequestContext& ctx, std::vector<ItemWrite>* writes,
                              std::vector<Status>* statuses) {
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
      current[i] = catalog_->FindTable(w.table->name);
      current_for = w.table.get();
    } else {
      current[i] = current[i - 1];
    }
    if (!current[i] || current[i]->keyspace != w.table->keyspace) {
      return Status::NotFound(kResourceNotFound);
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
      s = DecodeTableItem(*w.table, values[i], &old_item, &w.old_size);
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
  for (const auto& [keyspace, delta] : deltas) {
    if (delta.item_count == 0 && delta.size_bytes == 0) continue;
    TableStats stats = catalog_->StatsOf(keyspace);
    stats.item_count += delta.item_count;
    stats.size_bytes += delta.size_bytes;
    updated[keyspace] = stats;
    catalog_->PutStats(keyspace, stats, &batch);
  }
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  catalog_->SetStats(updated);
  if (ctx.counters) {
    for (const ItemWrite& w : *writes) {
      ctx.counters->items_written++;
      ctx.counters->bytes_written += w.new_size;
    }
  }
  return Status::OK();
}

}  // namespace dynapage
