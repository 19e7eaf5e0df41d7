// Replication: what the write path records and sends on for tables with replicas (docs/global-tables.md).
//
// Every item write committed on a table with replicas carries a ReplicaStamp: the time of the write in
// microseconds and the region it was made in. The stamp is kept beside the item under its own key ('g' instead of
// the item key's 'd'), also after a deletion (a tombstone: the stamp of a deletion, also of an item that was not
// there, so that an older put still on its way from another replica loses), and is written in the same batch as
// the item. Tombstones are kept kTombstoneRetentionMicros, then swept (WritePath::SweepTombstones). A
// write arriving from another replica is applied only if its stamp is newer than the stamp kept (last writer
// wins, ties broken by region name), so that every replica ends with the same item whatever the order the writes
// arrive in. A local write gets a stamp newer than the one kept, so it always applies and always wins where it
// goes. After the batch, the write path hands each local write to its ReplicationSink
// (engine/database/replicator.h), which applies it to the other replicas on its own thread: the writer only
// enqueues.

#ifndef DYNAPAGE_ENGINE_WRITE_REPLICATION_H_
#define DYNAPAGE_ENGINE_WRITE_REPLICATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/attribute_value.h"

namespace dynapage {

struct ReplicaStamp {
  int64_t micros = 0;    // 0: an item written before its table had replicas
  std::string origin;    // the region the write was made in
  bool deleted = false;  // a tombstone: the write deleted the item (or found none)

  // The order of last writer wins: the later time, then the greater region name.
  bool NewerThan(const ReplicaStamp& other) const {
    return micros != other.micros ? micros > other.micros : origin > other.origin;
  }
};

// How long a tombstone is kept: a write older than a deletion that arrives later than this after it resurrects the
// item. Replication takes milliseconds (a catch-up after an overflow of the replicator's queue, seconds), so a
// day is ample; it bounds what deletes keep on disk.
constexpr int64_t kTombstoneRetentionMicros = 24LL * 3600 * 1000 * 1000;

// The key of an item's stamp: its storage key with 'g' for the leading 'd'. REQUIRES: item_key is a 'd' key.
std::string ReplicaStampKey(std::string_view item_key);
// The prefix of every stamp of a keyspace (a table's deletion drops the range).
std::string ReplicaStampPrefix(uint32_t keyspace);
std::string EncodeReplicaStamp(const ReplicaStamp& stamp);
bool DecodeReplicaStamp(std::string_view value, ReplicaStamp* stamp);

// One committed write of a replica, to apply to the others: the item's key within its table (its storage key
// without the 'd' and keyspace, the same in every replica since their key schemas are the same), the item after
// the write (none: deleted), and its stamp.
struct ReplicatedWrite {
  std::string table;
  std::string key_suffix;
  std::optional<AttributeMap> item;
  ReplicaStamp stamp;
  std::vector<std::string> to_regions;
};

// Where a namespace's write path sends the writes of its tables with replicas.
class ReplicationSink {
 public:
  virtual ~ReplicationSink() = default;
  // Called after the writes are committed, under the writer lock: must only enqueue.
  virtual void Send(std::vector<ReplicatedWrite> writes) = 0;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_REPLICATION_H_
