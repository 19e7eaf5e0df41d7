// FollowTrial: a connection tries following its client and not, and keeps the way that costs its thread less CPU;
// the warm-up epoch does not count, and the trial starts again after the kept epochs.

#include "server/http/follow_trial.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace dynapage {
namespace {

// A connection's requests, each costing the thread follow_ns or free_ns of CPU time as it follows or not.
class Requests {
 public:
  // Runs one epoch of requests; returns whether they followed the client.
  bool Epoch(int64_t follow_ns, int64_t free_ns) {
    const bool followed = trial_.following();
    for (int i = 0; i < FollowTrial::kEpochRequests; i++) {
      cpu_ns_ += trial_.following() ? follow_ns : free_ns;
      if (trial_.CountRequest()) trial_.EndEpoch(cpu_ns_);
    }
    return followed;
  }
  // The way of each of count epochs.
  std::vector<bool> Epochs(int count, int64_t follow_ns, int64_t free_ns) {
    std::vector<bool> ways;
    for (int i = 0; i < count; i++) ways.push_back(Epoch(follow_ns, free_ns));
    return ways;
  }
  bool following() const { return trial_.following(); }

 private:
  FollowTrial trial_;
  int64_t cpu_ns_ = 0;
};

constexpr int kProbes = 2 * FollowTrial::kProbeEpochs;

TEST(FollowTrialTest, ProbesAlternateFollowingFirst) {
  Requests r;
  EXPECT_TRUE(r.Epoch(10000, 10000));  // warm-up: follows, as before any trial
  std::vector<bool> probes = r.Epochs(kProbes, 10000, 10000);
  for (int i = 0; i < kProbes; i++) EXPECT_EQ(i % 2 == 0, probes[i]) << "probe " << i;
}

TEST(FollowTrialTest, KeepsFollowingWhereItIsCheaper) {
  Requests r;
  r.Epochs(1 + kProbes, 10000, 14000);
  for (bool followed : r.Epochs(FollowTrial::kKeptEpochs, 10000, 14000)) EXPECT_TRUE(followed);
}

TEST(FollowTrialTest, LetsTheSchedulerPlaceWhereFollowingCostsMore) {
  Requests r;
  r.Epochs(1 + kProbes, 14000, 10000);
  for (bool followed : r.Epochs(FollowTrial::kKeptEpochs, 14000, 10000)) EXPECT_FALSE(followed);
}

TEST(FollowTrialTest, TheWarmUpEpochDoesNotCount) {
  Requests r;
  r.Epoch(1000000, 1000000);  // first requests of a connection: pages touched for the first time
  r.Epochs(kProbes, 10000, 14000);
  EXPECT_TRUE(r.following());
}

TEST(FollowTrialTest, OneNoisyProbeEpochDoesNotDecide) {
  Requests r;
  r.Epoch(10000, 10000);  // warm-up
  EXPECT_TRUE(r.Epoch(10000, 14000));
  EXPECT_FALSE(r.Epoch(10000, 14000));
  EXPECT_TRUE(r.Epoch(40000, 14000));  // another process ran on this CPU meanwhile
  EXPECT_FALSE(r.Epoch(10000, 14000));
  EXPECT_TRUE(r.following());
}

TEST(FollowTrialTest, TriesAgainAfterTheKeptEpochs) {
  Requests r;
  r.Epochs(1 + kProbes, 14000, 10000);
  r.Epochs(FollowTrial::kKeptEpochs, 14000, 10000);
  // The host (or the client's work) changed: following is cheaper now.
  std::vector<bool> probes = r.Epochs(kProbes, 10000, 14000);
  EXPECT_TRUE(probes[0]);
  EXPECT_FALSE(probes[1]);
  for (bool followed : r.Epochs(FollowTrial::kKeptEpochs, 10000, 14000)) EXPECT_TRUE(followed);
}

// Runs kept epochs, expecting each to take the way kept, and then a trial's probes (following first); returns
// whether all were so.
bool KeptThenProbes(Requests& r, int kept, bool following_kept, int64_t follow_ns, int64_t free_ns) {
  bool as_expected = true;
  for (bool followed : r.Epochs(kept, follow_ns, free_ns)) as_expected &= followed == following_kept;
  std::vector<bool> probes = r.Epochs(kProbes, follow_ns, free_ns);
  for (int i = 0; i < kProbes; i++) as_expected &= probes[i] == (i % 2 == 0);
  return as_expected;
}

TEST(FollowTrialTest, TheSameWayAgainIsKeptTwiceAsLongUpToTheMaximum) {
  Requests r;
  r.Epochs(1 + kProbes, 10000, 20000);  // warm-up and the first trial: following is cheaper
  int kept = FollowTrial::kKeptEpochs;
  for (int trial = 0; trial < 7; trial++) {
    EXPECT_TRUE(KeptThenProbes(r, kept, true, 10000, 20000)) << "trial " << trial << ", kept " << kept;
    kept = std::min(2 * kept, FollowTrial::kMaxKeptEpochs);
  }
  EXPECT_EQ(FollowTrial::kMaxKeptEpochs, kept);
}

TEST(FollowTrialTest, AChangedDecisionIsKeptForTheShortestTimeAgain) {
  Requests r;
  r.Epochs(1 + kProbes, 10000, 20000);
  EXPECT_TRUE(KeptThenProbes(r, FollowTrial::kKeptEpochs, true, 10000, 20000));  // the same way again: kept 60
  for (bool followed : r.Epochs(2 * FollowTrial::kKeptEpochs, 10000, 20000)) EXPECT_TRUE(followed);
  r.Epochs(kProbes, 20000, 10000);  // now following is dearer
  EXPECT_TRUE(KeptThenProbes(r, FollowTrial::kKeptEpochs, false, 20000, 10000));
}

}  // namespace
}  // namespace dynapage
