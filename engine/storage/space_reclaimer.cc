#include "engine/storage/space_reclaimer.h"

namespace dynapage {

SpaceReclaimer::~SpaceReclaimer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SpaceReclaimer::Request(Range range) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  if (pending_.empty()) first_request_ = now;
  last_request_ = now;
  pending_.insert(std::move(range));
  requested_++;
  if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  changed_.notify_all();
}

void SpaceReclaimer::WaitUntilIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t target = requested_;
  changed_.wait(lock, [&] { return done_ >= target || stopping_; });
}

uint64_t SpaceReclaimer::runs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return runs_;
}

void SpaceReclaimer::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (stopping_) return;
    // Let a burst of deletes finish first: one reclaim after it, not one per request.
    const auto due = std::min(last_request_ + kSettle, first_request_ + kMaxDelay);
    if (std::chrono::steady_clock::now() < due) {
      changed_.wait_until(lock, due, [&] { return stopping_; });
      continue;
    }
    std::vector<Range> ranges(pending_.begin(), pending_.end());
    pending_.clear();
    const uint64_t covered = requested_;
    lock.unlock();
    work_(ranges);
    lock.lock();
    done_ = covered;
    runs_++;
    changed_.notify_all();
  }
}

}  // namespace dynapage
