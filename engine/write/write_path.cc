#include "engine/write/write_path.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <string_view>

#include "engine/base/check.h"
#include "engine/base/messages.h"
#include "engine/base/random_seed.h"
#include "engine/base/utc_time.h"
#include "engine/catalog/catalog_keys.h"
#include "engine/storage/item_key.h"
#include "engine/storage/key_codec.h"
#include "engine/storage/stored_item.h"
#include "engine/storage/table_items.h"
#include "engine/storage/vector_item.h"
#include "engine/write/stream_records.h"

namespace dynapage {

// The entries one batch of a long job (an index backfill, a tombstone sweep) holds at most.
constexpr size_t kEntriesPerBatch = 1000;

namespace {
std::string NewUuid() {
  static std::mt19937_64 rng(RandomSeed());
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

// A stream label: the UTC time of ms as "2024-11-18T14:36:44.149".
std::string StreamLabel(int64_t ms) { return IsoUtcText(ms, /*zone_designator=*/false); }

// "shardId-" + the creation time in 20 digits + "-" + 8 hex digits from the stream's ARN: 37 characters, the
// form Flink's shard-id pattern and boto3's 28-character minimum accept.
std::string ShardId(int64_t created_ms, const std::string& arn) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "shardId-%020lld-%08x", static_cast<long long>(created_ms),
                static_cast<unsigned>(Fnv1a(arn) & 0xFFFFFFFF));
  return buf;
}

}  // namespace

StreamInfo WritePath::NewStream(const RequestContext& ctx, TableDefinition* table, uint32_t id,
                                Storage::Batch* batch) const {
  DP_DCHECK(!table->stream_view_type.empty());
  StreamInfo stream;
  stream.id = id;
  // Every enable makes a new stream, with a label no earlier stream of this table name has.
  int64_t ms = ctx.clock->NowMillis();
  while (catalog_->streams().LabelTaken(table->name, StreamLabel(ms))) ms++;
  stream.label = StreamLabel(ms);
  stream.arn = table->arn + "/stream/" + stream.label;
  stream.table_name = table->name;
  stream.view_type = table->stream_view_type;
  stream.hash_key = table->key.hash.name;
  if (table->key.range) stream.range_key = table->key.range->name;
  stream.shard_id = ShardId(ms, stream.arn);
  stream.created_ms = ms;
  table->stream_id = stream.id;
  table->latest_stream_arn = stream.arn;
  table->latest_stream_label = stream.label;
  catalog_->streams().PutStream(stream, batch);
  return stream;
}

Status WritePath::AssignIdentity(const RequestContext& ctx, TableDefinition* definition, uint32_t extra_keyspaces,
                                 uint32_t* next_keyspace) {
  uint32_t next = 0;
  DP_RETURN_IF_ERROR(
      catalog_->ReserveKeyspaces(static_cast<uint32_t>(1 + definition->indexes.size() + extra_keyspaces), &next));
  definition->keyspace = next++;
  for (auto& index : definition->indexes) index.keyspace = next++;
  definition->creation_time = ctx.clock->NowSeconds();
  definition->table_id = NewUuid();
  definition->arn =
      "arn:aws:dynamodb:" + ctx.caller.region + ":" + ctx.caller.account_id + ":table/" + definition->name;
  *next_keyspace = next;
  return Status::OK();
}

StreamInfo WritePath::ClosedStream(const RequestContext& ctx, uint32_t id, Storage::Batch* batch) const {
  StreamInfo stream;
  if (!catalog_->streams().Find(id, &stream)) return stream;
  stream.disabled_ms = std::max<int64_t>(ctx.clock->NowMillis(), 1);
  catalog_->streams().PutStream(stream, batch);
  return stream;
}

Status WritePath::CreateTable(const RequestContext& ctx, TableDefinition definition, TableDescription* out) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  if (catalog_->FindTable(definition.name) || restoring_.count(definition.name)) {
    return Status::InUse("Table already exists: " + definition.name);
  }
  const bool with_stream = !definition.stream_view_type.empty();
  uint32_t next = 0;
  DP_RETURN_IF_ERROR(AssignIdentity(ctx, &definition, with_stream ? 1 : 0, &next));
  Storage::Batch batch;
  std::optional<StreamInfo> stream;
  if (with_stream) stream = NewStream(ctx, &definition, next, &batch);
  auto table = std::make_shared<const TableDefinition>(std::move(definition));

  catalog_->PutDefinition(*table, &batch);
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  if (stream) catalog_->mutable_streams().SetStream(*stream);
  DP_RETURN_IF_ERROR(SyncVectorIndexes(nullptr, *table));
  catalog_->SetTable(table);
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
  catalog_->DeleteDefinition(name, &batch);
  std::vector<uint32_t> keyspaces = {table.keyspace};
  for (const auto& index : table.indexes) keyspaces.push_back(index.keyspace);
  if (table.global.is_global()) {  // the stamps of the items of a replica (engine/write/replication.h)
    std::string stamps = ReplicaStampPrefix(table.keyspace);
    batch.DeleteRange(stamps, PrefixSuccessor(stamps));
  }
  for (uint32_t keyspace : keyspaces) {
    std::string prefix = KeyspacePrefix(keyspace);
    batch.DeleteRange(prefix, PrefixSuccessor(prefix));
    Catalog::DeleteStats(keyspace, &batch);
  }
  const std::string journal = JournalPrefix(table.keyspace);
  batch.DeleteRange(journal, PrefixSuccessor(journal));
  // The table's stream outlives it, disabled, for the retention period.
  std::optional<StreamInfo> closed;
  if (table.stream_id) closed = ClosedStream(ctx, table.stream_id, &batch);
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  if (closed) catalog_->mutable_streams().SetStream(*closed);
  for (uint32_t keyspace : keyspaces) {
    Reclaim(keyspace, reclaim_policy_.OnKeyspaceDropped(keyspace, catalog_->StatsOf(keyspace)));
  }
  {
    std::unique_lock<std::shared_mutex> vector_lock(vectors_->mutex());
    vectors_->DropMissing(table.keyspace, nullptr);
  }
  catalog_->RemoveTable(name);
  catalog_->RemoveStats(keyspaces);
  if (ctx.transient_status_ms) {
    const double now = ctx.clock->NowSeconds();
    catalog_->NoteDeleting(*out, now, now + static_cast<double>(ctx.transient_status_ms) / 1000);
  }
  return Status::OK();
}

Status WritePath::ChangeTable(const RequestContext& ctx, const std::string& name, const DefinitionChange& change,
                              TableDescription* before, TableDescription* after) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  DP_RETURN_IF_ERROR(catalog_->DescribeTable(name, before));
  const TableDefinition& current = *before->definition;
  TableDefinition next = current;
  DP_RETURN_IF_ERROR(change(current, &next));

  // A new index's keyspace (and a new stream's id) is reserved, for good, before its first entry is written: a
  // crash during the backfill leaves only entries that nothing will ever read.
  const bool enabling_stream = !next.stream_view_type.empty() && current.stream_view_type.empty();
  uint32_t new_indexes = 0;
  for (const auto& index : next.indexes) new_indexes += index.keyspace == 0 ? 1 : 0;
  uint32_t next_keyspace = 0;
  if (new_indexes + (enabling_stream ? 1 : 0) > 0) {
    DP_RETURN_IF_ERROR(catalog_->ReserveKeyspaces(new_indexes + (enabling_stream ? 1 : 0), &next_keyspace));
  }
  std::vector<IndexDefinition> added;
  for (auto& index : next.indexes) {
    if (index.keyspace != 0) continue;
    index.keyspace = next_keyspace++;
    added.push_back(index);
  }
  std::map<uint32_t, TableStats> added_stats;
  if (!added.empty()) DP_RETURN_IF_ERROR(BackfillIndexes(next, added, &added_stats));

  Storage::Batch batch;
  // Enabling a stream makes a new one; disabling closes the current one.
  std::optional<StreamInfo> stream_change;
  if (enabling_stream) {
    stream_change = NewStream(ctx, &next, next_keyspace, &batch);
  } else if (next.stream_view_type.empty() && !current.stream_view_type.empty()) {
    stream_change = ClosedStream(ctx, current.stream_id, &batch);
    next.stream_id = 0;
  }
  catalog_->PutDefinition(next, &batch);
  if (current.point_in_time_recovery && !next.point_in_time_recovery) {  // disabling forgets the history
    const std::string journal = JournalPrefix(current.keyspace);
    batch.DeleteRange(journal, PrefixSuccessor(journal));
  }
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
  if (current.global.is_global() && !next.global.is_global()) {  // no replica left: no stamps to keep
    std::string stamps = ReplicaStampPrefix(current.keyspace);
    batch.DeleteRange(stamps, PrefixSuccessor(stamps));
  }
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  if (stream_change) catalog_->mutable_streams().SetStream(*stream_change);
  for (uint32_t keyspace : dropped) {
    Reclaim(keyspace, reclaim_policy_.OnKeyspaceDropped(keyspace, catalog_->StatsOf(keyspace)));
  }
  DP_RETURN_IF_ERROR(SyncVectorIndexes(&current, next));
  catalog_->SetTable(std::make_shared<const TableDefinition>(std::move(next)));
  catalog_->RemoveStats(dropped);
  catalog_->SetStats(added_stats);
  return catalog_->DescribeTable(name, after);
}

Status WritePath::SyncVectorIndexes(const TableDefinition* before, const TableDefinition& table) {
  std::unique_lock<std::shared_mutex> vector_lock(vectors_->mutex());
  vectors_->DropMissing(table.keyspace, &table);
  for (const auto& index : table.vector_indexes) {
    if (before && before->FindVectorIndex(index.name)) continue;
    DP_RETURN_IF_ERROR(vectors_->Build(*storage_, table, index));  // the backfill: invalid items are left out
  }
  return Status::OK();
}

Status WritePath::LoadVectorIndexes() {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  std::vector<std::string> names;
  bool more = false;
  catalog_->ListTables("", SIZE_MAX, &names, &more);
  for (const auto& name : names) {
    auto table = catalog_->FindTable(name);
    if (table && !table->vector_indexes.empty()) DP_RETURN_IF_ERROR(SyncVectorIndexes(nullptr, *table));
  }
  return Status::OK();
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
  return ApplyWritesLocked(ctx, writes, statuses);
}

Status WritePath::ApplyWritesLocked(const RequestContext& ctx, std::vector<ItemWrite>* writes,
                                    std::vector<Status>* statuses) {
#if DP_DCHECK_IS_ON()
  {
    std::set<std::string_view> distinct;
    for (const ItemWrite& w : *writes) {
      DP_DCHECK(distinct.insert(w.storage_key).second);  // no two writes address the same item
      DP_DCHECK(!w.wire_put || (!w.mutate && w.put_size && *w.put_size == w.wire_put->size()));
    }
  }
#endif
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
  bool replicated_tables = false;  // a write on a table with replicas (docs/global-tables.md)
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
    // So does one on a table with a stream (whose records compare the items and carry their images).
    // And one on a table with replicas, whose items are sent on.
    replicated_tables |= current[i]->global.is_global();
    const bool needs_attribute_maps = !w.wire_put || !current[i]->indexes.empty() || current[i]->stream_id != 0 ||
                                      !current[i]->vector_indexes.empty() || current[i]->global.is_global();
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
    // A vector index refuses a malformed vector or SearchSchema value, and so the whole call (docs/vector-search.md).
    if (s.ok() && w.new_item) s = CheckVectorIndexValues(*current[i], *w.new_item);
    if (!s.ok()) {
      (*statuses)[i] = s;
      if (all_ok) first_error = s;
      all_ok = false;
    }
  }
  if (!all_ok) return first_error;
  std::vector<std::pair<std::string, std::string>> stamps;
  std::vector<ReplicatedWrite> outgoing;
  if (replicated_tables) DP_RETURN_IF_ERROR(StampReplicatedWrites(ctx, current, found, writes, &stamps, &outgoing));

  // Room for the items (their JSON is about half as long again as their DynamoDB size), their keys and RocksDB's
  // few bytes of framing each; index entries aside.
  size_t batch_bytes = 0;
  for (const ItemWrite& w : *writes) batch_bytes += w.storage_key.size() + (w.put_size ? *w.put_size * 3 / 2 : 0) + 32;
  Storage::Batch batch(batch_bytes);
  std::map<uint32_t, TableStats> deltas;
  StoredItemEncoder encoder;
  StreamBatch streams;
  for (size_t i = 0; i < writes->size(); i++) {
    ItemWrite& w = (*writes)[i];
    const TableDefinition& table = *current[i];
    if (table.stream_id) AddStreamRecord(ctx, table, w, &streams, &batch);
    if (table.point_in_time_recovery)
      AddJournalEntry(ctx, table, w.storage_key, found[i] ? &values[i] : nullptr, &batch);
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
    AddIndexEntries(table, w.old_item ? &*w.old_item : nullptr, w.new_item ? &*w.new_item : nullptr, &encoder, &batch,
                    &deltas);
  }
  for (const auto& [key, stamp] : stamps) batch.Put(key, stamp);
  std::map<uint32_t, TableStats> updated;
  for (const auto& [keyspace, delta] : deltas) {
    if (delta.item_count == 0 && delta.size_bytes == 0) continue;
    TableStats stats = catalog_->StatsOf(keyspace);
    stats.item_count += delta.item_count;
    stats.size_bytes += delta.size_bytes;
    updated[keyspace] = stats;
    catalog_->PutStats(keyspace, stats, &batch);
  }
  // Searches see the vector indexes and the items they read back change together.
  std::unique_lock<std::shared_mutex> vector_lock(vectors_->mutex(), std::defer_lock);
  const bool vector_writes =
      std::any_of(current.begin(), current.end(), [](const auto& t) { return !t->vector_indexes.empty(); });
  if (vector_writes) vector_lock.lock();
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  if (vector_writes) {
    for (size_t i = 0; i < writes->size(); i++) {
      const ItemWrite& w = (*writes)[i];
      if (current[i]->vector_indexes.empty()) continue;
      vectors_->Apply(*current[i], w.storage_key, w.old_item ? &*w.old_item : nullptr,
                      w.new_item ? &*w.new_item : nullptr);
    }
    vector_lock.unlock();
  }
  catalog_->SetStats(updated);
  for (const auto& [keyspace, stats] : updated) {
    const int64_t change = deltas[keyspace].size_bytes;
    if (change < 0) Reclaim(keyspace, reclaim_policy_.OnItemsDeleted(keyspace, -change, stats));
  }
  for (const StreamInfo& stream : streams.streams) {
    catalog_->mutable_streams().SetNextSequence(stream.id, stream.next_seq);
  }
  if (!outgoing.empty() && replication_) replication_->Send(std::move(outgoing));
  if (ctx.counters) {
    for (const ItemWrite& w : *writes) {
      ctx.counters->items_written++;
      ctx.counters->bytes_written += w.new_size;
    }
  }
  return Status::OK();
}

namespace {
// The 2017 version's time attribute: epoch seconds with microseconds ("1565723640.315001").
std::string RepUpdateTime(int64_t micros) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%lld.%06lld", static_cast<long long>(micros / 1000000),
                static_cast<long long>(micros % 1000000));
  return buf;
}
}  // namespace

Status WritePath::ReadStamp(const std::string& item_key, const std::string& region, ReplicaStamp* stamp) const {
  std::string value;
  bool found = false;
  DP_RETURN_IF_ERROR(storage_->Get(ReplicaStampKey(item_key), &value, &found));
  *stamp = ReplicaStamp{0, region};
  if (found && !DecodeReplicaStamp(value, stamp)) return Status::Internal("corrupt replica stamp");
  return Status::OK();
}

Status WritePath::StampReplicatedWrites(const RequestContext& ctx,
                                        const std::vector<std::shared_ptr<const TableDefinition>>& current,
                                        const std::vector<bool>& found, std::vector<ItemWrite>* writes,
                                        std::vector<std::pair<std::string, std::string>>* stamps,
                                        std::vector<ReplicatedWrite>* outgoing) {
  for (size_t i = 0; i < writes->size(); i++) {
    ItemWrite& w = (*writes)[i];
    const TableDefinition& table = *current[i];
    if (!table.global.is_global()) continue;
    if (w.replica_stamp) {
      stamps->emplace_back(ReplicaStampKey(w.storage_key), EncodeReplicaStamp(*w.replica_stamp));
      continue;
    }
    if (w.check_only) continue;  // nothing written
    ReplicaStamp kept;
    DP_RETURN_IF_ERROR(ReadStamp(w.storage_key, ctx.caller.region, &kept));
    ReplicaStamp stamp{std::max({ctx.clock->NowMillis() * 1000, last_stamp_micros_ + 1, kept.micros + 1}),
                       ctx.caller.region, !w.new_item};
    last_stamp_micros_ = stamp.micros;
    if (w.new_item && table.global.version == kGlobalTableVersion2017) {
      (*w.new_item)["aws:rep:deleting"] = AttributeValue::Bool(false);
      (*w.new_item)["aws:rep:updateregion"] = AttributeValue::String(stamp.origin);
      (*w.new_item)["aws:rep:updatetime"] = AttributeValue::Number(RepUpdateTime(stamp.micros));
      w.put_size.reset();
    }
    stamps->emplace_back(ReplicaStampKey(w.storage_key), EncodeReplicaStamp(stamp));
    ReplicatedWrite out;
    out.table = table.name;
    out.key_suffix = w.storage_key.substr(KeyspacePrefix(table.keyspace).size());
    out.item = w.new_item;
    out.stamp = std::move(stamp);
    for (const ReplicaMember& member : table.global.replicas) {
      if (member.region != ctx.caller.region) out.to_regions.push_back(member.region);
    }
    outgoing->push_back(std::move(out));
  }
  return Status::OK();
}

Status WritePath::ApplyReplicated(const RequestContext& ctx, const std::string& table_name,
                                  const std::string& from_region, std::vector<ReplicatedWrite>* writes,
                                  size_t* applied) {
  *applied = 0;
  if (writes->empty()) return Status::OK();
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  auto table = catalog_->FindTable(table_name);
  if (!table || !table->global.has(from_region) || !table->global.has(ctx.caller.region)) return Status::OK();
  std::vector<ItemWrite> items;
  std::string prefix = KeyspacePrefix(table->keyspace);
  for (ReplicatedWrite& r : *writes) {
    DP_DCHECK(r.table == table_name);
    ItemWrite w;
    w.table = table;
    w.storage_key = prefix + r.key_suffix;
    ReplicaStamp kept;
    DP_RETURN_IF_ERROR(ReadStamp(w.storage_key, ctx.caller.region, &kept));
    if (!r.stamp.NewerThan(kept)) continue;  // a later write is here already
    w.replica_stamp = &r.stamp;
    const std::optional<AttributeMap>* item = &r.item;
    w.mutate = [item](const AttributeMap*, std::optional<AttributeMap>* next) {
      *next = *item;
      return Status::OK();
    };
    items.push_back(std::move(w));
  }
  if (items.empty()) return Status::OK();
  std::vector<Status> statuses;
  DP_RETURN_IF_ERROR(ApplyWritesLocked(ctx, &items, &statuses));
  *applied = items.size();
  return Status::OK();
}

Status WritePath::ReadReplicatedChunk(const std::string& table_name, size_t max_bytes, std::string* resume,
                                      std::vector<ReplicatedWrite>* out) {
  out->clear();
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  auto table = catalog_->FindTable(table_name);
  std::string start = *resume;
  resume->clear();
  if (!table || !table->global.is_global()) return Status::OK();
  const std::string item_prefix = KeyspacePrefix(table->keyspace);
  const std::string stamp_prefix = ReplicaStampPrefix(table->keyspace);
  std::vector<std::string> to_regions;
  for (const ReplicaMember& member : table->global.replicas) to_regions.push_back(member.region);
  size_t bytes = 0;
  auto it = storage_->NewIterator(stamp_prefix + start, PrefixSuccessor(stamp_prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (bytes >= max_bytes) {
      *resume = std::string(it->key().substr(stamp_prefix.size()));
      break;
    }
    ReplicatedWrite w;
    w.table = table_name;
    w.key_suffix = std::string(it->key().substr(stamp_prefix.size()));
    if (!DecodeReplicaStamp(it->value(), &w.stamp)) return Status::Internal("corrupt replica stamp");
    w.to_regions = to_regions;
    std::string value;
    bool found = false;
    DP_RETURN_IF_ERROR(storage_->Get(item_prefix + w.key_suffix, &value, &found));
    if (found) {
      AttributeMap item;
      uint64_t size = 0;
      DP_RETURN_IF_ERROR(DecodeTableItem(*table, value, &item, &size));
      bytes += size;
      w.item = std::move(item);
    }
    bytes += w.key_suffix.size() + 64;
    out->push_back(std::move(w));
  }
  return it->status();
}

Status WritePath::SweepTombstones(const RequestContext& ctx, uint64_t* swept) {
  *swept = 0;
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  const int64_t horizon = ctx.clock->NowMillis() * 1000 - kTombstoneRetentionMicros;
  std::vector<std::string> names;
  bool more = false;
  catalog_->ListTables("", SIZE_MAX, &names, &more);
  auto batch = std::make_unique<Storage::Batch>();
  for (const std::string& name : names) {
    auto table = catalog_->FindTable(name);
    if (!table || !table->global.is_global()) continue;
    const std::string prefix = ReplicaStampPrefix(table->keyspace);
    auto it = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ReplicaStamp stamp;
      if (!DecodeReplicaStamp(it->value(), &stamp) || !stamp.deleted || stamp.micros >= horizon) continue;
      batch->Delete(std::string(it->key()));
      (*swept)++;
      if (batch->Count() >= kEntriesPerBatch) {  // bounded memory, whatever the number of tombstones
        DP_RETURN_IF_ERROR(storage_->Write(batch.get()));
        batch = std::make_unique<Storage::Batch>();
      }
    }
    DP_RETURN_IF_ERROR(it->status());
  }
  return batch->Count() ? storage_->Write(batch.get()) : Status::OK();
}

void WritePath::AddStreamRecord(const RequestContext& ctx, const TableDefinition& table, const ItemWrite& write,
                                StreamBatch* streams, Storage::Batch* batch) const {
  StreamChange change;
  change.old_item = write.old_item ? &*write.old_item : nullptr;
  change.new_item = write.new_item ? &*write.new_item : nullptr;
  change.event = EventOf(change.old_item, change.new_item);
  if (change.event == StreamEvent::kNone) return;
  change.by_ttl = write.by_ttl;
  auto& seen = streams->streams;
  auto stream = std::find_if(seen.begin(), seen.end(), [&](const StreamInfo& s) { return s.id == table.stream_id; });
  if (stream == seen.end()) {
    StreamInfo found;
    if (!catalog_->streams().Find(table.stream_id, &found)) return;
    stream = seen.insert(seen.end(), std::move(found));
  }
  // One time for the whole call: the records of a transaction or a batch share it.
  if (streams->time_ms == 0) streams->time_ms = ctx.clock->NowMillis();
  uint64_t seq = stream->next_seq++;
  std::string json = StreamRecordJson(*stream, table.key, seq, streams->time_ms, ctx.caller.region, change);
  batch->Put(StreamRecordKey(stream->id, seq), EncodeStreamRecord(streams->time_ms, json));
}

Status WritePath::TrimStreams(const RequestContext& ctx) {
  std::lock_guard<std::mutex> write_lock(write_mutex_);
  const int64_t now = ctx.clock->NowMillis();
  Storage::Batch batch;
  std::vector<uint32_t> dropped;
  std::vector<StreamInfo> trimmed;
  for (StreamInfo& stream : catalog_->streams().List()) {
    if (stream.expired(now)) {
      catalog_->streams().DeleteStream(stream.id, &batch);
      dropped.push_back(stream.id);
      continue;
    }
    // Records are in time order: the old ones are a run at the start of the shard.
    auto it = storage_->NewIterator(StreamRecordKey(stream.id, stream.trim_seq), StreamRecordPrefix(stream.id + 1));
    uint64_t keep_from = stream.trim_seq;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      int64_t written_ms = 0;
      std::string_view json;
      if (DecodeStreamRecord(it->value(), &written_ms, &json) && written_ms + kStreamRetentionMillis >= now) break;
      keep_from = SequenceOfRecordKey(it->key()) + 1;
    }
    DP_RETURN_IF_ERROR(it->status());
    if (keep_from == stream.trim_seq) continue;
    batch.DeleteRange(StreamRecordKey(stream.id, stream.trim_seq), StreamRecordKey(stream.id, keep_from));
    stream.trim_seq = keep_from;
    catalog_->streams().PutStream(stream, &batch);
    trimmed.push_back(stream);
  }
  if (dropped.empty() && trimmed.empty()) return Status::OK();
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  for (uint32_t id : dropped) catalog_->mutable_streams().RemoveStream(id);
  for (const StreamInfo& stream : trimmed) catalog_->mutable_streams().SetStream(stream);
  return Status::OK();
}

void WritePath::Reclaim(uint32_t keyspace, SpaceReclaimPolicy::Action action) {
  if (action == SpaceReclaimPolicy::Action::kKeyspace) {
    std::string prefix = KeyspacePrefix(keyspace);
    storage_->ReclaimSoon(prefix, PrefixSuccessor(prefix));
  } else if (action == SpaceReclaimPolicy::Action::kEverything) {
    storage_->ReclaimSoon("", "");
  }
}

}  // namespace dynapage
