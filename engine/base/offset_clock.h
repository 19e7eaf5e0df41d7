// OffsetClock: the system clock moved by an offset that can be set and advanced while the server runs.
//
// The server's clock (ServiceOptions::clock) is one of these, so that tests can expire TTL items, stream records
// and shard iterators without waiting (POST /_dynapage/clock, docs/streams-and-ttl.md). Time keeps running from
// the point it is set to. Safe to read and change from any thread.

#ifndef DYNAPAGE_ENGINE_BASE_OFFSET_CLOCK_H_
#define DYNAPAGE_ENGINE_BASE_OFFSET_CLOCK_H_

#include <atomic>
#include <cstdint>

#include "engine/base/clock.h"

namespace dynapage {

class OffsetClock : public Clock {
 public:
  int64_t NowMillis() const override {
    return SystemClock::Get()->NowMillis() + offset_ms_.load(std::memory_order_relaxed);
  }
  // From now on the clock reads epoch_ms, and runs on from there.
  void Set(int64_t epoch_ms) { offset_ms_.store(epoch_ms - SystemClock::Get()->NowMillis(), std::memory_order_relaxed); }
  void Advance(int64_t ms) { offset_ms_.fetch_add(ms, std::memory_order_relaxed); }
  // Back to the system's time.
  void Reset() { offset_ms_.store(0, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> offset_ms_{0};
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_OFFSET_CLOCK_H_
