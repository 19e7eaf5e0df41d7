// ClientCpuAffinity: runs a connection's thread on the CPU its client's requests come from, while no other busy
// connection's thread is there.
//
// A client that waits for each answer (every SDK's synchronous call) sends a request and sleeps until the answer
// comes. With the connection's thread on another CPU, each request costs two cross-CPU wake-ups: the request
// wakes the server's idle CPU, the answer the client's. On a virtual machine each is an inter-processor
// interrupt and an idle vCPU brought back, and they cost more than the request's own work: a ListTables took 34
// µs of server CPU and 140 µs of wall time on the 2-vCPU VM of the benchmark, against 13 µs and 66 µs with both
// on one CPU. On the client's CPU the wake-ups are plain switches between two threads that take turns anyway.
//
// The kernel's scheduler will not place the threads so by itself (it wakes a thread on an idle CPU rather than on
// the busy one of its waker), so the connection's thread pins itself to the client's CPU: the CPU that processed
// the client's last segment (SO_INCOMING_CPU), which for a client on this machine (loopback, a container's veth)
// is the CPU the client sent from. A CPU is held by one connection at a time, so that the connections of a client
// that keeps several busy from one thread (an asynchronous SDK) do not all crowd onto its CPU: the others run
// wherever the scheduler puts them. A hold lapses once its connection has had no request for kHoldLapse, so that
// an idle keep-alive connection does not keep the CPU from the one now in use.
//
// While it shares its client's CPU, the thread lets the client finish sending before it runs (server/http/
// client_turn.h).
//
// Whether following pays depends on the host (on one VM it took a third off a request's server CPU, on another it
// added a third): each connection measures both ways on itself and keeps the cheaper (server/http/follow_trial.h).
//
// Thread-safe: one ClientCpuAffinity per server, shared by its connection threads; each Connection belongs to
// one thread.

#ifndef DYNAPAGE_SERVER_HTTP_CLIENT_CPU_AFFINITY_H_
#define DYNAPAGE_SERVER_HTTP_CLIENT_CPU_AFFINITY_H_

#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

#include "server/http/client_turn.h"
#include "server/http/follow_trial.h"

namespace dynapage {

class ClientCpuAffinity {
 public:
  static constexpr std::chrono::milliseconds kHoldLapse{10};
  // The client's CPU is looked up every kCheckEvery receives (a system call each time): clients seldom move.
  static constexpr int kCheckEvery = 16;

  // The CPUs that connection threads may be pinned to are those the calling thread may run on now.
  ClientCpuAffinity();
  ClientCpuAffinity(const ClientCpuAffinity&) = delete;
  ClientCpuAffinity& operator=(const ClientCpuAffinity&) = delete;

  // Whether connection threads follow their clients (on by default).
  void set_enabled(bool enabled) { enabled_ = enabled; }

  // The CPU a connection's thread is pinned to, for one connection. Lets it go when destroyed.
  class Connection {
   public:
    // REQUIRES: called on the connection's thread; shared outlives this object.
    Connection(ClientCpuAffinity* shared, int sock);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // After the client's bytes arrive (a request, or part of one): every kCheckEvery calls (the first included),
    // notes the CPU the client's last segment came from, which is the CPU it sent from. Not after a response:
    // the client's acknowledgement of it may have come from this CPU, sent in the kernel's handling of the
    // response on this CPU.
    void AfterReceive();
    // After a response has been sent: counts the request in the trial; then, if the connection follows its
    // client, moves the calling thread to the CPU AfterReceive noted last, if it may, and keeps its hold
    // otherwise; if not, lets the thread go where the scheduler puts it. Moving now, with the client already
    // woken by the response, keeps the two together. (Moving while the client slept, before the response, did
    // not on the benchmark's VM: the scheduler woke the client on the CPU just left idle, and the two swapped
    // CPUs at every look-up.)
    void AfterResponse();
    // AfterResponse() with the client's CPU given (a test's stand-in for SO_INCOMING_CPU); -1 for unknown.
    void Follow(int client_cpu, std::chrono::steady_clock::time_point now);

    // The CPU this thread is pinned to, or -1.
    int pinned_cpu() const { return pinned_; }
    // Whether the thread, pinned, waits for its client to sleep before it runs (ClientTurn).
    bool waiting_turn() const { return turn_.waiting_turn(); }

   private:
    void Follow(int client_cpu, int64_t now);  // now in steady_clock ticks
    // Marks this connection's hold as in use now; false if it holds no CPU (never pinned, or its hold lapsed
    // and another connection took it).
    bool Touch(int64_t now);
    void Pin(int cpu);
    void Unpin();

    ClientCpuAffinity* shared_;
    int sock_;
    uint64_t id_;
    int pinned_ = -1;
    uint32_t receives_ = 0;  // wraps harmlessly
    bool seen_ = false;      // AfterReceive noted seen_cpu_ since the last AfterResponse
    int seen_cpu_ = -1;
    FollowTrial trial_;
    ClientTurn turn_;  // SCHED_BATCH while pinned
  };

 private:
  struct Hold {
    std::atomic<uint64_t> holder{0};       // a Connection's id; 0 when free
    std::atomic<int64_t> last_request{0};  // steady_clock ticks of the holder's last request
  };

  bool enabled_ = true;
  cpu_set_t allowed_;
  int cpu_count_ = 0;  // holds_ covers CPUs 0 .. cpu_count_-1
  std::unique_ptr<Hold[]> holds_;
  std::atomic<uint64_t> next_id_{1};
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_CLIENT_CPU_AFFINITY_H_
