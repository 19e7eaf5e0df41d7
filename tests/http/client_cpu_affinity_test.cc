// ClientCpuAffinity: a connection's thread runs on its client's CPU, one busy connection a CPU, a hold lapses
// when its connection is idle, and a thread it cannot place is left to the scheduler.
//
// Each Connection lives on a thread of its own, as in the server, because pinning applies to the calling thread.

#include "server/http/client_cpu_affinity.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/http/loopback_util.h"

namespace dynapage {
namespace {

using Clock = std::chrono::steady_clock;

// The CPUs the calling thread may run on now.
std::vector<int> ThreadCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

// Runs fn on a new thread and waits for it: a Connection's pinning then never touches the test's own thread.
void OnThread(const std::function<void()>& fn) { std::thread(fn).join(); }

// A thread that keeps one Connection and runs steps on it, one at a time, until it is destroyed.
class ConnectionThread {
 public:
  explicit ConnectionThread(ClientCpuAffinity* shared) : thread_([this, shared] { Loop(shared); }) {}
  ~ConnectionThread() {
    Run(nullptr);
    thread_.join();
  }

  // Runs step(connection) on the connection's thread and returns once it has run; nullptr ends the thread.
  void Run(std::function<void(ClientCpuAffinity::Connection&)> step) {
    std::unique_lock<std::mutex> lock(mu_);
    step_ = std::move(step);
    has_step_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return !has_step_; });
  }

  // Follow(cpu, now) on the thread; returns the CPU it is then pinned to and the CPUs it may run on.
  int Follow(int cpu, Clock::time_point now, std::vector<int>* cpus = nullptr) {
    int pinned = -2;
    Run([&](ClientCpuAffinity::Connection& c) {
      c.Follow(cpu, now);
      pinned = c.pinned_cpu();
      if (cpus) *cpus = ThreadCpus();
    });
    return pinned;
  }

 private:
  void Loop(ClientCpuAffinity* shared) {
    ClientCpuAffinity::Connection connection(shared, -1);
    while (true) {
      std::unique_lock<std::mutex> lock(mu_);
      changed_.wait(lock, [this] { return has_step_; });
      if (!step_) {
        has_step_ = false;
        changed_.notify_all();
        return;
      }
      step_(connection);
      has_step_ = false;
      changed_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable changed_;
  std::function<void(ClientCpuAffinity::Connection&)> step_;
  bool has_step_ = false;
  std::thread thread_;
};

class ClientCpuAffinityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cpus_ = ThreadCpus();
    if (cpus_.size() < 2) GTEST_SKIP() << "needs two CPUs to tell a pinned thread from a free one";
  }

  std::vector<int> cpus_;
  ClientCpuAffinity shared_;
  Clock::time_point t0_ = Clock::now();
};

TEST_F(ClientCpuAffinityTest, PinsTheThreadToTheClientsCpu) {
  for (int cpu : {cpus_[1], cpus_[0]}) {
    OnThread([&] {
      ClientCpuAffinity::Connection c(&shared_, -1);
      c.Follow(cpu, t0_);
      EXPECT_EQ(cpu, c.pinned_cpu());
      EXPECT_EQ(std::vector<int>{cpu}, ThreadCpus());
      EXPECT_EQ(cpu, sched_getcpu());
    });
  }
}

// On its client's CPU the thread waits its turn (ClientTurn); left to the scheduler again, it preempts again.
TEST_F(ClientCpuAffinityTest, APinnedThreadWaitsForItsClientToSleep) {
  OnThread([&] {
    ClientCpuAffinity::Connection c(&shared_, -1);
    c.Follow(cpus_[1], t0_);
    EXPECT_TRUE(c.waiting_turn());
    EXPECT_EQ(SCHED_BATCH, sched_getscheduler(0));
    c.Follow(-1, t0_);  // a client CPU the kernel cannot name
    EXPECT_EQ(-1, c.pinned_cpu());
    EXPECT_FALSE(c.waiting_turn());
    EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
  });
}

TEST_F(ClientCpuAffinityTest, FollowsAClientThatMoves) {
  ConnectionThread a(&shared_), b(&shared_);
  std::vector<int> cpus;
  EXPECT_EQ(cpus_[0], a.Follow(cpus_[0], t0_));
  EXPECT_EQ(cpus_[1], a.Follow(cpus_[1], t0_ + std::chrono::milliseconds(1), &cpus));
  EXPECT_EQ(std::vector<int>{cpus_[1]}, cpus);
  // The CPU it left is free at once for another connection.
  EXPECT_EQ(cpus_[0], b.Follow(cpus_[0], t0_ + std::chrono::milliseconds(1)));
}

TEST_F(ClientCpuAffinityTest, OneBusyConnectionACpu) {
  ConnectionThread a(&shared_), b(&shared_);
  std::vector<int> cpus;
  EXPECT_EQ(cpus_[0], a.Follow(cpus_[0], t0_));
  // b's client is on the same CPU while a is busy: b is left to the scheduler.
  EXPECT_EQ(-1, b.Follow(cpus_[0], t0_ + std::chrono::milliseconds(1), &cpus));
  EXPECT_EQ(cpus_, cpus);
  EXPECT_EQ(cpus_[0], a.Follow(cpus_[0], t0_ + std::chrono::milliseconds(2), &cpus));
  EXPECT_EQ(std::vector<int>{cpus_[0]}, cpus);
}

TEST_F(ClientCpuAffinityTest, AnIdleConnectionsHoldLapses) {
  ConnectionThread a(&shared_), b(&shared_);
  std::vector<int> cpus;
  EXPECT_EQ(cpus_[0], a.Follow(cpus_[0], t0_));
  auto just_before = t0_ + ClientCpuAffinity::kHoldLapse - std::chrono::microseconds(1);
  EXPECT_EQ(-1, b.Follow(cpus_[0], just_before));
  auto lapsed = t0_ + ClientCpuAffinity::kHoldLapse;
  EXPECT_EQ(cpus_[0], b.Follow(cpus_[0], lapsed, &cpus));
  EXPECT_EQ(std::vector<int>{cpus_[0]}, cpus);
  // a comes back: b is busy there now, so a lets its thread go.
  EXPECT_EQ(-1, a.Follow(cpus_[0], lapsed + std::chrono::milliseconds(1), &cpus));
  EXPECT_EQ(cpus_, cpus);
}

TEST_F(ClientCpuAffinityTest, AClosedConnectionLetsItsCpuGo) {
  {
    ConnectionThread a(&shared_);
    EXPECT_EQ(cpus_[0], a.Follow(cpus_[0], t0_));
  }
  ConnectionThread b(&shared_);
  EXPECT_EQ(cpus_[0], b.Follow(cpus_[0], t0_ + std::chrono::milliseconds(1)));
}

TEST_F(ClientCpuAffinityTest, AnUnknownOrForeignCpuLeavesTheThreadToTheScheduler) {
  ConnectionThread a(&shared_);
  std::vector<int> cpus;
  for (int cpu : {-1, CPU_SETSIZE, 100000}) {
    EXPECT_EQ(cpus_[0], a.Follow(cpus_[0], t0_));
    EXPECT_EQ(-1, a.Follow(cpu, t0_, &cpus)) << cpu;
    EXPECT_EQ(cpus_, cpus) << cpu;
  }
}

TEST_F(ClientCpuAffinityTest, OnlyTheCpusTheProcessStartedWithAreUsed) {
  // A server started on the first CPU only never pins a thread elsewhere.
  OnThread([&] {
    cpu_set_t first;
    CPU_ZERO(&first);
    CPU_SET(cpus_[0], &first);
    ASSERT_EQ(0, sched_setaffinity(0, sizeof(first), &first));
    ClientCpuAffinity restricted;
    ClientCpuAffinity::Connection c(&restricted, -1);
    c.Follow(cpus_[1], t0_);
    EXPECT_EQ(-1, c.pinned_cpu());
    EXPECT_EQ(std::vector<int>{cpus_[0]}, ThreadCpus());
  });
}

// Through a real loopback connection: the CPU comes from the kernel (SO_INCOMING_CPU), as the client sent from.
TEST_F(ClientCpuAffinityTest, FollowsTheCpuTheClientSentFrom) {
  LoopbackConnection connection;
  ASSERT_TRUE(connection.ok());
  int client = connection.client, server = connection.server;

  // The client sends from a thread pinned to the last CPU; the server reads, then follows it.
  for (int client_cpu : {cpus_.back(), cpus_.front()}) {
    std::thread([&] {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(client_cpu, &one);
      ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
      ASSERT_EQ(1, send(client, "x", 1, 0));
    }).join();
    OnThread([&] {
      char byte;
      ASSERT_EQ(1, recv(server, &byte, 1, 0));
      ClientCpuAffinity::Connection c(&shared_, server);
      c.AfterReceive();
      EXPECT_EQ(-1, c.pinned_cpu());  // not before the response
      c.AfterResponse();
      EXPECT_EQ(client_cpu, c.pinned_cpu());
      EXPECT_EQ(std::vector<int>{client_cpu}, ThreadCpus());
    });
  }

  // Switched off, nothing moves.
  shared_.set_enabled(false);
  OnThread([&] {
    ClientCpuAffinity::Connection c(&shared_, server);
    c.AfterReceive();
    c.AfterResponse();
    EXPECT_EQ(-1, c.pinned_cpu());
    EXPECT_EQ(cpus_, ThreadCpus());
  });
}

TEST_F(ClientCpuAffinityTest, LooksTheClientUpEveryFewReceives) {
  // A connection keeps its CPU between look-ups: receives 2..kCheckEvery do not move it, receive kCheckEvery+1
  // does.
  int fds[2];
  ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, fds));  // SO_INCOMING_CPU fails on it: "unknown"
  OnThread([&] {
    ClientCpuAffinity::Connection c(&shared_, fds[0]);
    c.Follow(cpus_[0], Clock::now());  // as if the first look-up had found cpus_[0]
    ASSERT_EQ(cpus_[0], c.pinned_cpu());
    c.AfterReceive();  // receive 1: a look-up, the CPU is unknown: let go
    c.AfterResponse();
    EXPECT_EQ(-1, c.pinned_cpu());
    c.Follow(cpus_[0], Clock::now());
    for (int i = 1; i < ClientCpuAffinity::kCheckEvery; i++) {
      c.AfterReceive();
      c.AfterResponse();
      EXPECT_EQ(cpus_[0], c.pinned_cpu()) << i;
    }
    c.AfterReceive();
    c.AfterResponse();
    EXPECT_EQ(-1, c.pinned_cpu());
  });
  close(fds[0]);
  close(fds[1]);
}

}  // namespace
}  // namespace dynapage
