#include "server/http/client_turn.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "engine/base/check.h"

namespace dynapage {

ClientTurn::~ClientTurn() {
  End();  // a thread serves its next connection as any thread
  if (schedstat_fd_ >= 0) ::close(schedstat_fd_);
}

void ClientTurn::Begin() {
  if (sharing_) return;
  sharing_ = true;
  if (MayWait()) Resume(RunDelayNanos());  // the file is read only when the run delay is used
}

void ClientTurn::Begin(int64_t run_delay_ns) {
  sharing_ = true;
  Resume(run_delay_ns);
}

bool ClientTurn::MayWait() const { return sharing_ && !batch_ && pause_left_ == 0 && readable_; }

void ClientTurn::Resume(int64_t run_delay_ns) {
  if (!MayWait()) return;
  if (run_delay_ns < 0) {
    readable_ = false;  // no watch over a busy client: never wait
    return;
  }
  epoch_start_ns_ = run_delay_ns;
  SetBatch(true);
}

void ClientTurn::End() {
  sharing_ = false;
  if (batch_) SetBatch(false);
}

void ClientTurn::EndEpoch(int requests) {
  // The run delay is read only where it is used: under way, or to start again after the pause's last epoch.
  const bool resumes = pause_left_ == 1 && sharing_ && readable_;
  EndEpoch(requests, batch_ || resumes ? RunDelayNanos() : 0);
}

void ClientTurn::EndEpoch(int requests, int64_t run_delay_ns) {
  DP_DCHECK(requests > 0);
  if (!batch_) {
    if (pause_left_ > 0 && --pause_left_ == 0) Resume(run_delay_ns);
    return;
  }
  if (run_delay_ns < 0) {  // the file went away: no more watch
    readable_ = false;
    SetBatch(false);
    return;
  }
  DP_DCHECK(run_delay_ns >= epoch_start_ns_);
  const int64_t waited = run_delay_ns - epoch_start_ns_;
  epoch_start_ns_ = run_delay_ns;
  if (waited > kMaxRunDelayNs * requests) {
    SetBatch(false);
    pause_left_ = next_pause_;
    next_pause_ = std::min(2 * next_pause_, kMaxPauseEpochs);
  }
}

int64_t ClientTurn::RunDelayNanos() {
  if (schedstat_fd_ == -2) schedstat_fd_ = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (schedstat_fd_ < 0) return -1;
  // "<ns on the CPU> <ns waiting for it> <time slices>\n"
  char text[96];
  ssize_t n = ::pread(schedstat_fd_, text, sizeof(text) - 1, 0);
  if (n <= 0) return -1;
  text[n] = '\0';
  char* end = nullptr;
  std::strtoll(text, &end, 10);
  if (end == text) return -1;
  const char* delay = end;
  long long ns = std::strtoll(delay, &end, 10);
  if (end == delay || ns < 0) return -1;
  return ns;
}

void ClientTurn::SetBatch(bool batch) {
  sched_param none{};
  // Refused only where a sandbox forbids it; the thread then simply keeps preempting.
  if (::sched_setscheduler(0, batch ? SCHED_BATCH : SCHED_OTHER, &none) == 0 || !batch) batch_ = batch;
}

}  // namespace dynapage
