// KeyspaceCounter: hands out keyspaces (and stream ids) for the whole store, every namespace's catalog alike.
//
// Each namespace has its own writer lock (engine/write/write_path.h), so two namespaces may create tables at the
// same time; their keyspaces must still differ, because items are stored under the keyspace alone
// (engine/catalog/catalog_keys.h). Reserve takes the counter's own lock and stores the counter in a write of
// its own before it returns: a keyspace is never handed out twice, not even after a crash (a reservation whose
// table was never written only leaves a number unused). Tables are made rarely; the item path never comes here.

#ifndef DYNAPAGE_ENGINE_CATALOG_KEYSPACE_COUNTER_H_
#define DYNAPAGE_ENGINE_CATALOG_KEYSPACE_COUNTER_H_

#include <cstdint>
#include <mutex>

#include "engine/base/status.h"
#include "engine/storage/storage.h"

namespace dynapage {

class KeyspaceCounter {
 public:
  // REQUIRES: storage outlives the counter.
  explicit KeyspaceCounter(Storage* storage) : storage_(storage) {}
  KeyspaceCounter(const KeyspaceCounter&) = delete;
  KeyspaceCounter& operator=(const KeyspaceCounter&) = delete;

  // Reads the stored counter (1 when there is none). Called once, before Reserve.
  Status Load();
  // Reserves count consecutive keyspaces: *first … *first + count - 1, stored as taken before it returns.
  // Thread-safe. REQUIRES: count > 0.
  Status Reserve(uint32_t count, uint32_t* first);
  // The next keyspace Reserve would hand out.
  uint32_t next() const;

 private:
  Storage* storage_;
  mutable std::mutex mu_;
  uint32_t next_ = 1;  // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_CATALOG_KEYSPACE_COUNTER_H_
