// FollowTrial: whether a connection's thread following its client's CPU (ClientCpuAffinity) pays on this host, is
// measured on the connection itself rather than assumed.
//
// Sharing the client's CPU saves two cross-CPU wake-ups a request, and on one VM that took a third off every
// request's server CPU; on another (2-core AMD, PVM, 2026-11-28) the same pinning cost 25-35% more server CPU on
// every figure of the benchmark, the client's work evicting the server's caches and the wake-ups there being
// cheap. The sign is the host's, so each connection tries both ways and keeps the cheaper: requests are counted
// in epochs of kEpochRequests, the connection thread's CPU time is read at the end of each (one system call per
// epoch), and
//   - the first epoch is warm-up, not counted (the connection's buffers and stack are touched for the first time);
//   - then kProbeEpochs epochs each way, alternating, following first;
//   - then the way whose cheapest probe epoch cost less CPU is kept (the cheapest, because a machine's noise only
//     adds: one noisy epoch does not decide), and the trial starts again (a host, or a client's work, may change);
//   - the first decision is kept for kKeptEpochs epochs; each trial that picks the same way again keeps it twice as
//     long as the last, up to kMaxKeptEpochs, and a trial that picks the other way starts again from kKeptEpochs.
//     Half of each trial's probes take the dearer way (on an Intel VM, 2026-11-28, not following cost twice the
//     CPU, so a trial every 30 epochs added ~6% to a long connection); where one way keeps winning, trials
//     become rare.
// A connection's CPU time includes all the server pays for a request: its own work, the wake-up of the client
// inside sendmsg, and being switched back in after recv.
//
// Not thread-safe: one FollowTrial per connection, used on its thread.

#ifndef DYNAPAGE_SERVER_HTTP_FOLLOW_TRIAL_H_
#define DYNAPAGE_SERVER_HTTP_FOLLOW_TRIAL_H_

#include <cstdint>

namespace dynapage {

class FollowTrial {
 public:
  static constexpr int kEpochRequests = 64;
  static constexpr int kProbeEpochs = 2;  // each way
  static constexpr int kKeptEpochs = 30;
  static constexpr int kMaxKeptEpochs = 480;  // ~30,000 requests

  // Whether the connection's requests follow their client now.
  bool following() const { return following_; }

  // After each response: true if this request ends an epoch, and EndEpoch() is to be called with the thread's CPU
  // time.
  bool CountRequest() { return ++requests_ >= kEpochRequests; }

  // Ends an epoch at the thread's CPU time thread_cpu_ns, and decides the way of the next.
  // REQUIRES: CountRequest() returned true; thread_cpu_ns never decreases from call to call.
  void EndEpoch(int64_t thread_cpu_ns);

 private:
  bool following_ = true;
  int requests_ = 0;
  int64_t epoch_start_ns_ = -1;  // -1: the warm-up epoch is under way
  int epoch_ = 0;                // epochs since the trial (re)started, counted from the first probe
  int64_t cost_ns_[2] = {-1, -1};  // the cheapest probe epoch's CPU, -1 before one: [0] not following, [1] following
  int kept_epochs_ = 0;            // how long the last decision is kept; 0 before the first
  bool kept_following_ = false;    // the last decision
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_FOLLOW_TRIAL_H_
