// SpaceReclaimer: requests close together are done in one run, after they settle, off the caller's thread.

#include "engine/storage/space_reclaimer.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dynapage {
namespace {

struct Recorder {
  std::mutex mu;
  std::vector<std::vector<SpaceReclaimer::Range>> runs;
  std::thread::id thread;

  SpaceReclaimer::Work Work() {
    return [this](const std::vector<SpaceReclaimer::Range>& ranges) {
      std::lock_guard<std::mutex> lock(mu);
      runs.push_back(ranges);
      thread = std::this_thread::get_id();
    };
  }
};

TEST(SpaceReclaimerTest, RequestsCloseTogetherAreDoneOnceEach) {
  Recorder recorder;
  SpaceReclaimer reclaimer(recorder.Work());
  reclaimer.Request({"a", "b"});
  reclaimer.Request({"c", "d"});
  reclaimer.Request({"a", "b"});
  reclaimer.WaitUntilIdle();
  ASSERT_EQ(1u, recorder.runs.size());
  EXPECT_EQ((std::vector<SpaceReclaimer::Range>{{"a", "b"}, {"c", "d"}}), recorder.runs[0]);
  EXPECT_NE(std::this_thread::get_id(), recorder.thread);
  EXPECT_EQ(1u, reclaimer.runs());

  reclaimer.Request({"x", ""});
  reclaimer.WaitUntilIdle();
  ASSERT_EQ(2u, recorder.runs.size());
  EXPECT_EQ((std::vector<SpaceReclaimer::Range>{{"x", ""}}), recorder.runs[1]);
}

TEST(SpaceReclaimerTest, WaitsForTheRequestsToSettle) {
  Recorder recorder;
  SpaceReclaimer reclaimer(recorder.Work());
  const auto start = std::chrono::steady_clock::now();
  reclaimer.Request({"a", "b"});
  reclaimer.WaitUntilIdle();
  EXPECT_GE(std::chrono::steady_clock::now() - start, SpaceReclaimer::kSettle);
}

TEST(SpaceReclaimerTest, NothingRunsWithoutARequestAndPendingWorkIsDroppedAtTheEnd) {
  Recorder recorder;
  {
    SpaceReclaimer idle(recorder.Work());
    idle.WaitUntilIdle();  // nothing asked: returns at once
  }
  {
    SpaceReclaimer reclaimer(recorder.Work());
    reclaimer.Request({"a", "b"});
  }  // destroyed before the request settled
  EXPECT_TRUE(recorder.runs.empty());
}

}  // namespace
}  // namespace dynapage
