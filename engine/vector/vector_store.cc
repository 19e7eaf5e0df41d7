#include "engine/vector/vector_store.h"

#include "engine/storage/key_codec.h"
#include "engine/storage/table_items.h"

namespace dynapage {

uint64_t VectorIndexData::MemoryBytes() const {
  uint64_t bytes = 0;
  for (const auto& [hash, bucket] : buckets) {
    bytes += hash.size() + bucket.vectors.capacity() * sizeof(float) + bucket.entries.capacity() * sizeof(VectorEntry);
    for (const auto& e : bucket.entries) bytes += e.storage_key.capacity() + e.filters.size() * sizeof(AttributeValue);
    bytes += bucket.slot_of.size() * 64;  // a hash node and its key, roughly
  }
  return bytes;
}

void VectorStore::Insert(const TableDefinition& table, const VectorIndexDefinition& index,
                         const std::string& storage_key, const AttributeMap& item, VectorIndexData* data) {
  VectorEntryValues values;
  if (!VectorEntryOf(table, index, item, &values)) return;
  VectorBucket& bucket = data->buckets[values.bucket];
  VectorEntry entry;
  entry.storage_key = storage_key;
  entry.filters = std::move(values.filters);
  for (float f : values.vector) entry.norm_squared += static_cast<double>(f) * f;
  entry.entry_bytes = values.entry_bytes;
  bucket.slot_of[storage_key] = static_cast<uint32_t>(bucket.entries.size());
  bucket.vectors.insert(bucket.vectors.end(), values.vector.begin(), values.vector.end());
  bucket.total_entry_bytes += entry.entry_bytes;
  bucket.entries.push_back(std::move(entry));
  data->entry_count++;
}

void VectorStore::Remove(const VectorIndexDefinition& index, const std::string& storage_key, const AttributeMap& item,
                         VectorIndexData* data) {
  std::string bucket_key;
  if (const SearchSchemaElement* hash = index.HashElement()) {
    auto value = item.find(hash->attribute.name);
    if (value == item.end()) return;
    bucket_key = VectorBucketOf(value->second);
  }
  auto b = data->buckets.find(bucket_key);
  if (b == data->buckets.end()) return;
  VectorBucket& bucket = b->second;
  auto slot = bucket.slot_of.find(storage_key);
  if (slot == bucket.slot_of.end()) return;
  // Swap with the last entry, then shrink: O(dimensions).
  const uint32_t i = slot->second, last = static_cast<uint32_t>(bucket.entries.size() - 1);
  const size_t d = data->dimensions;
  bucket.total_entry_bytes -= bucket.entries[i].entry_bytes;
  bucket.slot_of.erase(slot);
  if (i != last) {
    std::copy(bucket.vectors.begin() + last * d, bucket.vectors.begin() + (last + 1) * d,
              bucket.vectors.begin() + i * d);
    bucket.entries[i] = std::move(bucket.entries[last]);
    bucket.slot_of[bucket.entries[i].storage_key] = i;
  }
  bucket.entries.pop_back();
  bucket.vectors.resize(last * d);
  data->entry_count--;
  if (bucket.entries.empty()) data->buckets.erase(b);
}

void VectorStore::Apply(const TableDefinition& table, const std::string& storage_key, const AttributeMap* old_item,
                        const AttributeMap* new_item) {
  for (const auto& index : table.vector_indexes) {
    auto it = indexes_.find({table.keyspace, index.name});
    if (it == indexes_.end()) continue;
    if (old_item) Remove(index, storage_key, *old_item, it->second.get());
    if (new_item) Insert(table, index, storage_key, *new_item, it->second.get());
  }
}

Status VectorStore::Build(const Storage& storage, const TableDefinition& table, const VectorIndexDefinition& index) {
  auto data = std::make_unique<VectorIndexData>();
  data->dimensions = index.dimensions;
  std::string prefix = KeyspacePrefix(table.keyspace);
  auto it = storage.NewIterator(prefix, PrefixSuccessor(prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    AttributeMap item;
    uint64_t size = 0;
    DP_RETURN_IF_ERROR(DecodeTableItem(table, it->value(), &item, &size));
    Insert(table, index, std::string(it->key()), item, data.get());
  }
  DP_RETURN_IF_ERROR(it->status());
  indexes_[{table.keyspace, index.name}] = std::move(data);
  return Status::OK();
}

void VectorStore::DropMissing(uint32_t table_keyspace, const TableDefinition* keep) {
  for (auto it = indexes_.lower_bound({table_keyspace, ""});
       it != indexes_.end() && it->first.first == table_keyspace;) {
    if (keep && keep->FindVectorIndex(it->first.second)) {
      ++it;
    } else {
      it = indexes_.erase(it);
    }
  }
}

const VectorIndexData* VectorStore::Find(uint32_t table_keyspace, const std::string& index_name) const {
  auto it = indexes_.find({table_keyspace, index_name});
  return it == indexes_.end() ? nullptr : it->second.get();
}

}  // namespace dynapage
