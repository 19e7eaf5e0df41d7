// RandomSeed: distinct seeds, from any thread.

#include "engine/base/random_seed.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace dynapage {
namespace {

TEST(RandomSeedTest, SeedsDifferBetweenCallsAndThreads) {
  std::vector<uint64_t> seeds(1000);
  for (uint64_t& seed : seeds) seed = RandomSeed();
  std::vector<uint64_t> other(1000);
  std::thread([&other] {
    for (uint64_t& seed : other) seed = RandomSeed();
  }).join();
  std::set<uint64_t> distinct(seeds.begin(), seeds.end());
  distinct.insert(other.begin(), other.end());
  EXPECT_EQ(2000u, distinct.size());
  // Both halves of the bits vary: an id built from either half is random.
  std::set<uint32_t> high, low;
  for (uint64_t seed : seeds) {
    high.insert(static_cast<uint32_t>(seed >> 32));
    low.insert(static_cast<uint32_t>(seed));
  }
  EXPECT_GT(high.size(), 990u);
  EXPECT_GT(low.size(), 990u);
}

}  // namespace
}  // namespace dynapage
