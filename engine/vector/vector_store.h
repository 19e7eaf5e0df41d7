// VectorStore: the vector indexes of one namespace, in memory (docs/vector-search.md, "Memory").
//
// The items and their vectors are stored once, in the table (an L of N). Each vector index keeps, per HASH value
// (one bucket without a HASH), its entries' vectors as contiguous 32-bit floats plus each entry's storage key,
// INLINE_FILTER values and capacity size: what a brute-force search scans. It is rebuilt from the table's items
// when a namespace is opened and when UpdateTable creates an index, and changed by the write path after every item
// write (engine/write/write_path.cc), under the exclusive lock; searches hold the shared lock, so they see every
// write either wholly or not at all, together with the stored items they then read.

#ifndef DYNAPAGE_ENGINE_VECTOR_VECTOR_STORE_H_
#define DYNAPAGE_ENGINE_VECTOR_VECTOR_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/table_definition.h"
#include "engine/storage/storage.h"
#include "engine/storage/vector_item.h"

namespace dynapage {

struct VectorEntry {
  std::string storage_key;  // the item's key in the table; after its first 13 bytes, the key's parts in key order
  std::vector<std::optional<AttributeValue>> filters;  // INLINE_FILTER values, in SearchSchema order
  double norm_squared = 0;                             // Σ v², of the float components, in double
  uint64_t entry_bytes = 0;
};

// The entries of one HASH value. vectors holds entries.size() × dimensions floats, entry i at i × dimensions.
struct VectorBucket {
  std::vector<float> vectors;
  std::vector<VectorEntry> entries;
  std::unordered_map<std::string, uint32_t> slot_of;  // storage key → entry index
  uint64_t total_entry_bytes = 0;
};

struct VectorIndexData {
  uint32_t dimensions = 0;
  std::unordered_map<std::string, VectorBucket> buckets;  // by VectorBucketOf(HASH value); "" without a HASH
  uint64_t entry_count = 0;
  uint64_t MemoryBytes() const;
};

class VectorStore {
 public:
  VectorStore() = default;
  VectorStore(const VectorStore&) = delete;
  VectorStore& operator=(const VectorStore&) = delete;

  // Writers take it exclusively around the storage write and Apply; searches take it shared.
  std::shared_mutex& mutex() const { return mutex_; }

  // The item at storage_key of table changed from old_item to new_item (either may be null): every vector index
  // of the table drops the old entry and takes the new one if the item is indexed. REQUIRES: the exclusive lock.
  void Apply(const TableDefinition& table, const std::string& storage_key, const AttributeMap* old_item,
             const AttributeMap* new_item);
  // (Re)builds index of table from the table's items as storage holds them now. REQUIRES: the exclusive lock and
  // no item write in between (the writer lock).
  Status Build(const Storage& storage, const TableDefinition& table, const VectorIndexDefinition& index);
  // Forgets the indexes of the table in keyspace that keep is missing (all of them when keep is null).
  // REQUIRES: the exclusive lock.
  void DropMissing(uint32_t table_keyspace, const TableDefinition* keep);

  // The index data, or nullptr when it was never built. REQUIRES: the shared (or exclusive) lock, held while the
  // result is used.
  const VectorIndexData* Find(uint32_t table_keyspace, const std::string& index_name) const;

 private:
  using IndexKey = std::pair<uint32_t, std::string>;  // the table's keyspace, the index name
  void Insert(const TableDefinition& table, const VectorIndexDefinition& index, const std::string& storage_key,
              const AttributeMap& item, VectorIndexData* data);
  static void Remove(const VectorIndexDefinition& index, const std::string& storage_key, const AttributeMap& item,
                     VectorIndexData* data);

  mutable std::shared_mutex mutex_;
  std::map<IndexKey, std::unique_ptr<VectorIndexData>> indexes_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_VECTOR_VECTOR_STORE_H_
