#include "engine/base/clock.h"

#include <chrono>

namespace dynapage {

const SystemClock* SystemClock::Get() {
  static const SystemClock clock;
  return &clock;
}

int64_t SystemClock::NowMillis() const {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace dynapage
