#include "engine/write/space_reclaim_policy.h"

namespace dynapage {

SpaceReclaimPolicy::Action SpaceReclaimPolicy::OnItemsDeleted(uint32_t keyspace, int64_t deleted_bytes,
                                                              const TableStats& now) {
  int64_t& deleted = deleted_[keyspace];
  deleted += deleted_bytes;
  if (deleted < kMinBytes || (now.item_count > 0 && deleted < now.size_bytes)) return Action::kNone;
  deleted_.erase(keyspace);
  return Action::kKeyspace;
}

SpaceReclaimPolicy::Action SpaceReclaimPolicy::OnKeyspaceDropped(uint32_t keyspace, const TableStats& last) {
  auto it = deleted_.find(keyspace);
  const int64_t garbage = last.size_bytes + (it == deleted_.end() ? 0 : it->second);
  if (it != deleted_.end()) deleted_.erase(it);
  if (garbage >= kMinBytes) return Action::kKeyspace;
  dropped_ += garbage;
  if (dropped_ < kEverythingBytes) return Action::kNone;
  dropped_ = 0;
  return Action::kEverything;
}

}  // namespace dynapage
