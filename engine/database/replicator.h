// Replicator: the thread that applies the writes of one replica of a global table to the others
// (docs/global-tables.md).
//
// A namespace's write path sends each committed write of a table with replicas here (Send, through the
// namespace's sink: engine/write/replication.h), under its writer lock; the replicator only queues it, so a writer
// never waits for another region. Its one thread takes what is queued, in order, and applies each write to the
// same table in every other region of the write's group, in the namespace of the same access key (found through
// DatabaseSet), with WritePath::ApplyReplicated: last writer wins, one batch per table and region. What is queued
// when the replicator is destroyed is applied first; a process killed meanwhile loses it (replicas may then
// differ in the items written in the last moments).

#ifndef DYNAPAGE_ENGINE_DATABASE_REPLICATOR_H_
#define DYNAPAGE_ENGINE_DATABASE_REPLICATOR_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/write/replication.h"

namespace dynapage {

class Replicator {
 public:
  // The database of a caller's namespace (DatabaseSet::For).
  using DatabaseFinder = std::function<Status(const Caller& caller, Database** db)>;
  // REQUIRES: what find uses outlives the replicator.
  explicit Replicator(DatabaseFinder find);
  ~Replicator();  // applies what is queued, then stops the thread
  Replicator(const Replicator&) = delete;
  Replicator& operator=(const Replicator&) = delete;

  // The context writes are applied in (its clock times their stream records); the system clock until set.
  // REQUIRES: context's clock outlives the replicator.
  void SetContext(const RequestContext& context);
  // Queues writes that from's namespace committed. Starts the thread on first use.
  void Enqueue(const Caller& from, std::vector<ReplicatedWrite> writes);
  // Returns once every write queued before the call is applied.
  void Drain();

  // The sink of one namespace's write path: its writes go to the replicator as from's.
  std::unique_ptr<ReplicationSink> SinkFor(const Caller& from);

 private:
  struct Batch {
    Caller from;
    std::vector<ReplicatedWrite> writes;
  };
  void Run();
  void Apply(Batch* batch);

  DatabaseFinder find_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::deque<Batch> queue_;  // guarded by mu_
  uint64_t queued_ = 0;      // batches ever queued, guarded by mu_
  uint64_t applied_ = 0;     // batches ever applied, guarded by mu_
  bool stopping_ = false;    // guarded by mu_
  RequestContext context_;   // guarded by mu_
  std::thread thread_;       // started by the first Enqueue, under mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_REPLICATOR_H_
