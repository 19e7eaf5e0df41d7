// ClientTurn: a connection's thread that shares its client's CPU waits its turn (SCHED_BATCH), preempts again
// (SCHED_OTHER) when it stops sharing, and pauses waiting, each pause twice as long as the last, while a client
// keeps it waiting too long.

#include "server/http/client_turn.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <functional>
#include <thread>

namespace dynapage {
namespace {

// Runs fn on a new thread: the policy is the calling thread's, and the test's own thread keeps its own.
void OnThread(const std::function<void()>& fn) { std::thread(fn).join(); }

constexpr int kRequests = 64;
constexpr int64_t kLimit = ClientTurn::kMaxRunDelayNs * kRequests;  // an epoch's most waiting that is kept

// A thread's run delay as the tests feed it to ClientTurn: it only grows.
class RunDelay {
 public:
  int64_t now() const { return ns_; }
  int64_t After(int64_t waited) { return ns_ += waited; }

 private:
  int64_t ns_ = 1000000000;
};

TEST(ClientTurnTest, WaitsItsTurnWhileSharingTheClientsCpu) {
  OnThread([] {
    ClientTurn turn;
    EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
    turn.Begin();
    EXPECT_TRUE(turn.waiting_turn());
    EXPECT_EQ(SCHED_BATCH, sched_getscheduler(0));
    turn.End();
    EXPECT_FALSE(turn.waiting_turn());
    EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
  });
}

TEST(ClientTurnTest, AShortWaitKeepsIt) {
  OnThread([] {
    ClientTurn turn;
    RunDelay delay;
    turn.Begin(delay.now());
    for (int epoch = 0; epoch < 3; epoch++) turn.EndEpoch(kRequests, delay.After(kLimit));  // the limit: kept
    EXPECT_TRUE(turn.waiting_turn());
    EXPECT_EQ(SCHED_BATCH, sched_getscheduler(0));
  });
}

TEST(ClientTurnTest, AClientThatKeepsTheThreadWaitingPausesItThenItWaitsAgain) {
  OnThread([] {
    ClientTurn turn;
    RunDelay delay;
    turn.Begin(delay.now());
    turn.EndEpoch(kRequests, delay.After(kLimit + 1));
    EXPECT_FALSE(turn.waiting_turn());
    EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
    for (int epoch = 1; epoch < ClientTurn::kPauseEpochs; epoch++) turn.EndEpoch(kRequests, delay.now());
    EXPECT_FALSE(turn.waiting_turn());
    turn.EndEpoch(kRequests, delay.now());  // the pause's last epoch
    EXPECT_TRUE(turn.waiting_turn());
    EXPECT_EQ(SCHED_BATCH, sched_getscheduler(0));
  });
}

TEST(ClientTurnTest, EachPauseIsTwiceAsLongUpToTheMaximum) {
  OnThread([] {
    ClientTurn turn;
    RunDelay delay;
    turn.Begin(delay.now());
    for (int pause : {30, 60, 120, 240, 480, 480}) {
      ASSERT_TRUE(turn.waiting_turn());
      turn.EndEpoch(kRequests, delay.After(10 * kLimit));
      int epochs = 0;
      while (!turn.waiting_turn() && epochs < 1000) {
        turn.EndEpoch(kRequests, delay.now());
        epochs++;
      }
      EXPECT_EQ(pause, epochs);
    }
    EXPECT_EQ(ClientTurn::kMaxPauseEpochs, 480);
  });
}

TEST(ClientTurnTest, APauseEndingAwayFromTheClientsCpuDoesNotWait) {
  OnThread([] {
    ClientTurn turn;
    RunDelay delay;
    turn.Begin(delay.now());
    turn.EndEpoch(kRequests, delay.After(kLimit + 1));
    turn.End();  // no longer on the client's CPU
    for (int epoch = 0; epoch < ClientTurn::kPauseEpochs; epoch++) turn.EndEpoch(kRequests, delay.now());
    EXPECT_FALSE(turn.waiting_turn());
    EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
    turn.Begin(delay.now());  // on it again, the pause over
    EXPECT_TRUE(turn.waiting_turn());
  });
}

TEST(ClientTurnTest, WithoutARunDelayToWatchItNeverWaits) {
  OnThread([] {
    ClientTurn turn;
    turn.Begin(-1);  // /proc/thread-self/schedstat unreadable
    EXPECT_FALSE(turn.waiting_turn());
    EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
    turn.End();
    turn.Begin(0);
    EXPECT_FALSE(turn.waiting_turn());
  });
}

TEST(ClientTurnTest, ItsEndLetsTheThreadPreemptAgain) {
  OnThread([] {
    {
      ClientTurn turn;
      turn.Begin();
      EXPECT_EQ(SCHED_BATCH, sched_getscheduler(0));
    }
    EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));  // the thread serves its next connection as any thread
  });
}

}  // namespace
}  // namespace dynapage
