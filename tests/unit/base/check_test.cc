// DP_DCHECK: on in Debug builds (the checked build of scripts/test.sh), compiled out in release builds.

#include "engine/base/check.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

TEST(CheckTest, AFailedCheckAbortsNamingTheCondition) {
  if (!DP_DCHECK_IS_ON()) GTEST_SKIP() << "release build: checks are compiled out";
  EXPECT_DEATH(DP_DCHECK(1 + 1 == 3), "check failed: 1 \\+ 1 == 3");
}

TEST(CheckTest, AnOffCheckDoesNotEvaluateItsArgument) {
  int evaluated = 0;
  DP_DCHECK(++evaluated > 0);
  EXPECT_EQ(DP_DCHECK_IS_ON() ? 1 : 0, evaluated);
}

TEST(CheckTest, TheCheckedBuildHasChecksOn) {
#ifdef NDEBUG
  EXPECT_FALSE(DP_DCHECK_IS_ON());
#else
  EXPECT_TRUE(DP_DCHECK_IS_ON());
#endif
}

}  // namespace
}  // namespace dynapage
