// SpaceReclaimPolicy: when the space of deleted items is worth giving back.
//
// Deleted items stay in RocksDB's memtable and table files (in memory: RSS) until a compaction drops them;
// Storage::ReclaimSoon compacts a key range in the background (engine/storage/space_reclaimer.h), which costs
// reading and rewriting what is stored there. The write path tells this policy what each write and table change
// deleted, and asks for a reclaim when the policy says so:
//
// - a keyspace (a table's or an index's) that has lost at least kMinBytes since its last reclaim, once it is
//   empty or once what it lost is at least what it still holds: the work of all its reclaims then stays within
//   about twice the bytes deleted, and a table emptied item by item is given back as soon as it is empty;
// - a table or an index deleted whole: its keyspace at once if it held at least kMinBytes;
// - smaller tables and indexes deleted add up; once they reach kEverythingBytes, the whole store is reclaimed.
//
// Sizes are DynamoDB's item sizes (the catalog's counters), close enough to what is stored. Not thread-safe:
// the write path calls it under its writer lock.

#ifndef DYNAPAGE_ENGINE_WRITE_SPACE_RECLAIM_POLICY_H_
#define DYNAPAGE_ENGINE_WRITE_SPACE_RECLAIM_POLICY_H_

#include <cstdint>
#include <map>

#include "engine/catalog/catalog.h"

namespace dynapage {

class SpaceReclaimPolicy {
 public:
  enum class Action { kNone, kKeyspace, kEverything };

  static constexpr int64_t kMinBytes = 1 << 20;
  static constexpr int64_t kEverythingBytes = 16 << 20;

  // Writes took deleted_bytes (> 0) from keyspace, which holds `now` after them.
  Action OnItemsDeleted(uint32_t keyspace, int64_t deleted_bytes, const TableStats& now);
  // keyspace was deleted whole (DeleteTable, an index dropped), holding `last` until then.
  Action OnKeyspaceDropped(uint32_t keyspace, const TableStats& last);

 private:
  std::map<uint32_t, int64_t> deleted_;  // bytes deleted from a keyspace since its last reclaim
  int64_t dropped_ = 0;                  // bytes of keyspaces dropped since the last reclaim of everything
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_SPACE_RECLAIM_POLICY_H_
