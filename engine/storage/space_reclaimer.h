// SpaceReclaimer: a background thread that gives back the space of deleted data, soon after it is deleted.
//
// RocksDB does not free a deleted entry: it writes a tombstone, and both stay in the memtable and in the table
// files (in memory: the in-memory Env's files) until a compaction merges them. Compactions follow writes, so a
// store that deletes much and then idles keeps the deleted data for ever. Storage asks this thread to reclaim a
// key range after a large delete (engine/write/space_reclaim_policy.h decides when); the thread waits until the
// requests settle (kSettle without a new one, at most kMaxDelay after the first), then runs the work once for
// every range asked for, off the request threads. The write path only enqueues a range: no write waits for it.

#ifndef DYNAPAGE_ENGINE_STORAGE_SPACE_RECLAIMER_H_
#define DYNAPAGE_ENGINE_STORAGE_SPACE_RECLAIMER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace dynapage {

class SpaceReclaimer {
 public:
  // [begin, end) of keys; an empty end means no upper bound.
  using Range = std::pair<std::string, std::string>;
  using Work = std::function<void(const std::vector<Range>& ranges)>;

  static constexpr std::chrono::milliseconds kSettle{200};
  static constexpr std::chrono::milliseconds kMaxDelay{2000};

  // work runs on the reclaimer's thread, one call at a time. The thread starts at the first request.
  explicit SpaceReclaimer(Work work) : work_(std::move(work)) {}
  // Waits for the work in progress, if any; drops requests not started.
  ~SpaceReclaimer();
  SpaceReclaimer(const SpaceReclaimer&) = delete;
  SpaceReclaimer& operator=(const SpaceReclaimer&) = delete;

  void Request(Range range);
  // Returns once every range requested before the call has been reclaimed.
  void WaitUntilIdle();
  // How many times the work has run.
  uint64_t runs() const;

 private:
  void Run();

  Work work_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::set<Range> pending_;
  std::chrono::steady_clock::time_point first_request_, last_request_;
  uint64_t requested_ = 0, done_ = 0;  // requests made, and requests whose work has finished
  uint64_t runs_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_SPACE_RECLAIMER_H_
