#include "engine/base/random_seed.h"

#include <sys/random.h>

#include <atomic>
#include <chrono>

namespace dynapage {

uint64_t RandomSeed() {
  uint64_t seed = 0;
  if (::getrandom(&seed, sizeof seed, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof seed)) return seed;
  // Only before the kernel's pool is ready (early boot) or under a seccomp filter without getrandom: the clock and
  // a count, mixed (splitmix64's finaliser), still distinct between calls and between processes started apart.
  static std::atomic<uint64_t> calls{0};
  seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
         (calls.fetch_add(1) * 0x9E3779B97F4A7C15ULL);
  seed = (seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9ULL;
  seed = (seed ^ (seed >> 27)) * 0x94D049BB133111EBULL;
  return seed ^ (seed >> 31);
}

}  // namespace dynapage
