// ClientTurn: while a connection's thread shares its client's CPU (ClientCpuAffinity), the client's request does
// not preempt the client; the thread runs when the client waits for the answer.
//
// A client that waits for each answer sends its request and then sleeps until the answer comes. With the two on
// one CPU, each segment of the request woke the connection's thread and switched to it at once: the request line
// and headers first (Python's http.client, so boto3, sends the body in a second write), where the thread found
// half a request, polled and switched back; then the body. Four switches and two wake-ups a request, where two
// switches do: the thread as SCHED_BATCH is still woken by the request, but waits until the client sleeps (the
// scheduler does not preempt on a batch thread's wake-up), and then finds the whole request. On the 2-core Intel
// VM of the benchmark (2026-11-29) that took the thread's context switches from 1.85 to 1.0 a request, ~10% off a
// Query page and ~20% off a no-op request (medians; bench/README.md).
//
// A client whose CPU stays busy after it sent (a thread of its own computing, another process on that CPU) would
// make the thread wait for the end of a time slice, milliseconds a request. So at the end of each epoch of
// FollowTrial::kEpochRequests requests the thread's run delay is read (the time it waited, runnable, for the CPU:
// /proc/thread-self/schedstat); if it waited more than kMaxRunDelayNs a request on average, the thread preempts
// again (SCHED_OTHER) for kPauseEpochs epochs, then waits its turn again; each pause is twice as long as the one
// before, up to kMaxPauseEpochs. A synchronous client keeps it waiting only for what it does between its first
// write and its read of the answer: ~30 µs a no-op request, 70-130 µs a 25-item BatchWriteItem, a few hundred µs
// in an epoch with a garbage collection, from Python on the benchmark's VM; and that wait is no loss, since the
// client reads the answer only after that work anyway. Where the run delay cannot be read, the thread never waits
// its turn.
//
// Not thread-safe: one ClientTurn per connection, used on its thread (the policy is the calling thread's).

#ifndef DYNAPAGE_SERVER_HTTP_CLIENT_TURN_H_
#define DYNAPAGE_SERVER_HTTP_CLIENT_TURN_H_

#include <cstdint>

namespace dynapage {

class ClientTurn {
 public:
  static constexpr int64_t kMaxRunDelayNs = 1000000;  // a request, on average over an epoch
  static constexpr int kPauseEpochs = 30;
  static constexpr int kMaxPauseEpochs = 480;

  ClientTurn() = default;
  ~ClientTurn();
  ClientTurn(const ClientTurn&) = delete;
  ClientTurn& operator=(const ClientTurn&) = delete;

  // The thread now shares its client's CPU: it waits its turn (SCHED_BATCH), unless paused or the run delay
  // cannot be read.
  void Begin();
  // Begin() with the thread's run delay given (tests; -1: it cannot be read).
  void Begin(int64_t run_delay_ns);
  // The thread runs where the scheduler puts it again: it preempts as any thread (SCHED_OTHER).
  void End();
  // At the end of an epoch of requests requests: reads the thread's run delay if it waits its turn, and pauses
  // waiting if the client kept it waiting more than kMaxRunDelayNs a request; counts a pause down otherwise.
  void EndEpoch(int requests);
  // EndEpoch() with the thread's run delay given (tests); it never decreases from call to call.
  void EndEpoch(int requests, int64_t run_delay_ns);

  // Whether the thread waits its turn now.
  bool waiting_turn() const { return batch_; }

 private:
  // The calling thread's run delay in ns so far, or -1 if it cannot be read.
  int64_t RunDelayNanos();
  // Whether it would wait its turn now: sharing the client's CPU, not already waiting, not paused, watched.
  bool MayWait() const;
  // Waits its turn if MayWait().
  void Resume(int64_t run_delay_ns);
  void SetBatch(bool batch);

  bool sharing_ = false;  // between Begin() and End()
  bool batch_ = false;
  bool readable_ = true;               // false once the run delay could not be read
  int pause_left_ = 0;                 // epochs until it waits its turn again
  int next_pause_ = kPauseEpochs;      // the length of the next pause
  int schedstat_fd_ = -2;              // /proc/thread-self/schedstat, opened when first read; -1 if it cannot be
  int64_t epoch_start_ns_ = -1;        // the run delay when the current epoch began, while batch_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_CLIENT_TURN_H_
