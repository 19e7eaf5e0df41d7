#include "engine/base/request_policies.h"

#include <algorithm>
#include <cmath>

namespace dynapage {

std::vector<bool> ChooseUnprocessed(const RequestPolicies& policies, size_t total, uint64_t salt,
                                    std::string* injected) {
  std::vector<bool> left(total, false);
  if (total == 0) return left;
  ChaosDice dice(policies.chaos_seed ^ salt);
  size_t count = 0;
  if (policies.unprocessed > 0) {
    count = std::min(total, static_cast<size_t>(std::ceil(policies.unprocessed * static_cast<double>(total))));
  } else if (policies.page_chaos && dice.Chance(0.5)) {
    count = 1 + dice.Below(total);
  }
  // The first count positions of a random permutation (a partial Fisher-Yates shuffle).
  std::vector<size_t> order(total);
  for (size_t i = 0; i < total; i++) order[i] = i;
  for (size_t i = 0; i < count; i++) {
    std::swap(order[i], order[i + dice.Below(total - i)]);
    left[order[i]] = true;
  }
  if (count) *injected = std::to_string(count) + " of " + std::to_string(total) + " unprocessed";
  return left;
}

}  // namespace dynapage
