// Clock: where the engine reads the time of day.
//
// The engine never calls the system clock itself: it reads the RequestContext's clock, so that tests (and the
// admin API, later) can set the time, for TTL expiry, creation times and anything else that depends on it.
// SystemClock is the real one; ManualClock is set by hand and is safe to read from any thread while it is set.

#ifndef DYNAPAGE_ENGINE_BASE_CLOCK_H_
#define DYNAPAGE_ENGINE_BASE_CLOCK_H_

#include <atomic>
#include <cstdint>

namespace dynapage {

class Clock {
 public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch.
  virtual int64_t NowMillis() const = 0;
  // Seconds since the Unix epoch, with millisecond precision (DynamoDB's CreationDateTime and the like).
  double NowSeconds() const { return static_cast<double>(NowMillis()) / 1000.0; }
};

// The system's real-time clock. One instance serves the whole process (SystemClock::Get()).
class SystemClock : public Clock {
 public:
  static const SystemClock* Get();
  int64_t NowMillis() const override;
};

// A clock that stands still until set or advanced.
class ManualClock : public Clock {
 public:
  explicit ManualClock(int64_t millis = 0) : millis_(millis) {}
  int64_t NowMillis() const override { return millis_.load(std::memory_order_relaxed); }
  void Set(int64_t millis) { millis_.store(millis, std::memory_order_relaxed); }
  void Advance(int64_t millis) { millis_.fetch_add(millis, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> millis_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_CLOCK_H_
