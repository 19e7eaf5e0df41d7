// SpaceReclaimPolicy: a keyspace is reclaimed once it is empty or has lost at least what it holds, never for
// less than kMinBytes; small tables dropped add up to a reclaim of everything.

#include "engine/write/space_reclaim_policy.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

using Action = SpaceReclaimPolicy::Action;
constexpr int64_t kMin = SpaceReclaimPolicy::kMinBytes;

TableStats Holding(int64_t items, int64_t bytes) {
  TableStats stats;
  stats.item_count = items;
  stats.size_bytes = bytes;
  return stats;
}

TEST(SpaceReclaimPolicyTest, AKeyspaceEmptiedIsReclaimed) {
  SpaceReclaimPolicy policy;
  EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(1, kMin / 2, Holding(10, 3 * kMin)));
  EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(1, kMin, Holding(5, 2 * kMin)));
  EXPECT_EQ(Action::kKeyspace, policy.OnItemsDeleted(1, 2 * kMin, Holding(0, 0)));
  // Counted afresh after a reclaim.
  EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(1, kMin / 2, Holding(0, 0)));
}

TEST(SpaceReclaimPolicyTest, AKeyspaceThatLostWhatItHoldsIsReclaimed) {
  SpaceReclaimPolicy policy;
  EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(1, 4 * kMin, Holding(100, 10 * kMin)));
  EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(1, 4 * kMin, Holding(90, 9 * kMin)));
  EXPECT_EQ(Action::kKeyspace, policy.OnItemsDeleted(1, 2 * kMin, Holding(80, 8 * kMin)));
  // Each keyspace counts on its own.
  EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(2, kMin / 2, Holding(0, 0)));
  EXPECT_EQ(Action::kKeyspace, policy.OnItemsDeleted(2, kMin / 2, Holding(0, 0)));
}

TEST(SpaceReclaimPolicyTest, SmallDeletesAreNotWorthAReclaim) {
  SpaceReclaimPolicy policy;
  for (int i = 0; i < 1000; i++) EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(1, 1000, Holding(0, 0)));
}

TEST(SpaceReclaimPolicyTest, ALargeTableDroppedIsReclaimedAtOnce) {
  SpaceReclaimPolicy policy;
  EXPECT_EQ(Action::kKeyspace, policy.OnKeyspaceDropped(1, Holding(1000, kMin)));
  // What was deleted from it before counts too.
  EXPECT_EQ(Action::kNone, policy.OnItemsDeleted(2, kMin / 2, Holding(10, kMin)));
  EXPECT_EQ(Action::kKeyspace, policy.OnKeyspaceDropped(2, Holding(10, kMin / 2)));
}

TEST(SpaceReclaimPolicyTest, SmallTablesDroppedAddUpToEverything) {
  SpaceReclaimPolicy policy;
  const int64_t each = kMin / 4;
  int drops = 0;
  while (policy.OnKeyspaceDropped(drops + 1, Holding(1, each)) == Action::kNone) drops++;
  EXPECT_EQ(SpaceReclaimPolicy::kEverythingBytes / each - 1, drops);
  EXPECT_EQ(Action::kNone, policy.OnKeyspaceDropped(1000, Holding(1, each)));
  // Empty tables add nothing.
  for (int i = 0; i < 1000; i++) EXPECT_EQ(Action::kNone, policy.OnKeyspaceDropped(2000 + i, Holding(0, 0)));
}

}  // namespace
}  // namespace dynapage
