// RequestId: x-amzn-RequestId's 52 characters of [0-9A-Z]; NewRequestId counts up from a random id on each thread,
// and no two requests share one.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

#include "server/http/answer_text.h"

namespace dynapage {
namespace {

std::string Text(const RequestId& id) { return std::string(id.view()); }

// An id of 52 characters ending in tail, the rest '0'.
RequestId EndingIn(const std::string& tail) {
  return RequestId::FromText(std::string(RequestId::kLength - tail.size(), '0') + tail);
}

bool WellFormed(const RequestId& id) {
  for (char c : id.view()) {
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'))) return false;
  }
  return id.view().size() == 52;
}

TEST(RequestIdTest, NextCountsInBaseThirtySixLastCharacterFirst) {
  EXPECT_EQ(Text(EndingIn("1")), Text(EndingIn("0").Next()));
  EXPECT_EQ(Text(EndingIn("A")), Text(EndingIn("9").Next()));
  EXPECT_EQ(Text(EndingIn("10")), Text(EndingIn("Z").Next()));
  EXPECT_EQ(Text(EndingIn("7A00")), Text(EndingIn("79ZZ").Next()));
  EXPECT_EQ(Text(EndingIn("0")), Text(RequestId::FromText(std::string(52, 'Z')).Next()));  // wraps to all '0'
}

TEST(RequestIdTest, NewIdsAreWellFormedAndNeverRepeatOnAThread) {
  std::set<std::string> seen;
  for (int i = 0; i < 2000; i++) {
    RequestId id = NewRequestId();
    ASSERT_TRUE(WellFormed(id)) << Text(id);
    ASSERT_TRUE(seen.insert(Text(id)).second) << Text(id);
  }
}

TEST(RequestIdTest, ThreadsStartFarApart) {
  // Each thread's sequence starts at a random id: two threads' first ids share no long common beginning.
  std::string a, b;
  std::thread([&] { a = Text(NewRequestId()); }).join();
  std::thread([&] { b = Text(NewRequestId()); }).join();
  EXPECT_NE(a.substr(0, 40), b.substr(0, 40));
}

TEST(RequestIdTest, RandomIdsAreWellFormedAndDiffer) {
  RequestId a = RequestId::Random(), b = RequestId::Random();
  EXPECT_TRUE(WellFormed(a)) << Text(a);
  EXPECT_TRUE(WellFormed(b)) << Text(b);
  EXPECT_NE(Text(a), Text(b));
}

}  // namespace
}  // namespace dynapage
