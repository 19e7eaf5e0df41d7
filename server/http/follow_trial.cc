#include "server/http/follow_trial.h"

#include <algorithm>

#include "engine/base/check.h"

namespace dynapage {

void FollowTrial::EndEpoch(int64_t thread_cpu_ns) {
  DP_DCHECK(requests_ >= kEpochRequests);
  DP_DCHECK(thread_cpu_ns >= epoch_start_ns_);
  requests_ = 0;
  const bool warm_up = epoch_start_ns_ < 0;
  const int64_t spent = thread_cpu_ns - epoch_start_ns_;
  epoch_start_ns_ = thread_cpu_ns;
  if (warm_up) return;  // following_ is still true: the first probe follows
  constexpr int kProbes = 2 * kProbeEpochs;
  // The cheaper epoch of each way: the machine's noise only ever adds CPU (another process, a huge page cleared),
  // so one noisy epoch does not decide.
  int64_t& cheapest = cost_ns_[following_ ? 1 : 0];
  if (epoch_ < kProbes && (cheapest < 0 || spent < cheapest)) cheapest = spent;
  epoch_++;
  if (epoch_ < kProbes) {
    following_ = !following_;  // the probes alternate
  } else if (epoch_ == kProbes) {
    following_ = cost_ns_[1] < cost_ns_[0];  // even: the scheduler's own placement
    const bool same_again = kept_epochs_ > 0 && following_ == kept_following_;
    kept_epochs_ = same_again ? std::min(2 * kept_epochs_, kMaxKeptEpochs) : kKeptEpochs;
    kept_following_ = following_;
  } else if (epoch_ == kProbes + kept_epochs_) {
    epoch_ = 0;
    cost_ns_[0] = cost_ns_[1] = -1;
    following_ = true;
  }
}

}  // namespace dynapage
