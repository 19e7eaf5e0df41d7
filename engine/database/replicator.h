// Replicator: the thread that applies the writes of one replica of a global table to the others
// (docs/global-tables.md).
//
// A namespace's write path sends each committed write of a table with replicas here (Send, through the
// namespace's sink: engine/write/replication.h), under its writer lock; the replicator only queues it, so a writer
// never waits for another region. Its one thread takes what is queued, in order, and applies each write to the
// same table in every other region of the write's group, in the namespace of the same access key (found through
// DatabaseSet), with WritePath::ApplyReplicated: last writer wins, one batch per table and region.
//
// The queue is bounded: it holds at most ReplicatorOptions::max_queued_bytes of writes (their items and keys). A
// write that does not fit is not queued (a writer cannot wait: it holds its namespace's writer lock, which the
// replicator may need); its table is marked for a catch-up instead, one mark per table and source region whatever
// the number of writes. When the queue is empty the thread catches each marked table up: it reads the table's
// every stamped item (tombstones included) in chunks of at most kCatchUpChunkBytes, each chunk under the source's
// writer lock, and applies them like queued writes; last writer wins makes that safe whatever else arrived in
// between. A write dropped while its table's catch-up runs marks the table again. So an acknowledged write always
// reaches the replicas, and memory stays under max_queued_bytes + one chunk + one mark per table.
// What is queued or marked when the replicator is destroyed is applied first; a process killed meanwhile loses it
// (replicas may then differ in the items written in the last moments).

#ifndef DYNAPAGE_ENGINE_DATABASE_REPLICATOR_H_
#define DYNAPAGE_ENGINE_DATABASE_REPLICATOR_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/write/replication.h"

namespace dynapage {

struct ReplicatorOptions {
  size_t max_queued_bytes = 64u << 20;  // the queue's bound; writes beyond it are caught up
};

class Replicator {
 public:
  static constexpr size_t kCatchUpChunkBytes = 4u << 20;
  // The database of a caller's namespace (DatabaseSet::For).
  using DatabaseFinder = std::function<Status(const Caller& caller, Database** db)>;
  // REQUIRES: what find uses outlives the replicator.
  explicit Replicator(DatabaseFinder find, ReplicatorOptions options = ReplicatorOptions());
  ~Replicator();  // applies what is queued, then stops the thread
  Replicator(const Replicator&) = delete;
  Replicator& operator=(const Replicator&) = delete;

  // The context writes are applied in (its clock times their stream records); the system clock until set.
  // REQUIRES: context's clock outlives the replicator.
  void SetContext(const RequestContext& context);
  // Queues writes that from's namespace committed. Starts the thread on first use.
  void Enqueue(const Caller& from, std::vector<ReplicatedWrite> writes);
  // Returns once every write queued before the call is applied (waits until nothing is queued or marked).
  void Drain();
  // The most bytes the queue has held, and the catch-ups run (tests).
  size_t peak_queued_bytes();
  uint64_t catch_ups();

  // The sink of one namespace's write path: its writes go to the replicator as from's.
  std::unique_ptr<ReplicationSink> SinkFor(const Caller& from);

 private:
  struct Batch {
    Caller from;
    std::vector<ReplicatedWrite> writes;
    size_t bytes = 0;
  };
  // A table of from's namespace to catch up.
  struct CatchUp {
    Caller from;
    std::string table;
  };
  void Run();
  void Apply(Batch* batch);
  void RunCatchUp(const CatchUp& catch_up);

  DatabaseFinder find_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  const ReplicatorOptions options_;
  std::deque<Batch> queue_;  // guarded by mu_
  size_t queued_bytes_ = 0;  // of queue_, guarded by mu_
  size_t peak_queued_bytes_ = 0;
  // Tables to catch up, by source access key, region and table name; guarded by mu_.
  std::map<std::string, CatchUp> catch_up_;
  uint64_t catch_ups_ = 0;      // run, guarded by mu_
  bool catch_up_turn_ = false;  // guarded by mu_
  bool busy_ = false;           // applying a batch or catching up, guarded by mu_
  bool stopping_ = false;       // guarded by mu_
  RequestContext context_;      // guarded by mu_
  std::thread thread_;          // started by the first Enqueue, under mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_REPLICATOR_H_
