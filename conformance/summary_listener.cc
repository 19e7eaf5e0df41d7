#include "conformance/summary_listener.h"

#include <cstdio>

namespace conformance {

void SummaryListener::OnTestEnd(const ::testing::TestInfo& info) {
  const ::testing::TestResult* result = info.result();
  if (result->Failed()) {
    ++failed_;
  } else if (result->Skipped()) {
    ++skipped_;
  } else {
    ++passed_;
  }
}

void SummaryListener::OnTestProgramEnd(const ::testing::UnitTest& unit) {
  bool outside = unit.ad_hoc_test_result().Failed();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    if (unit.GetTestSuite(i)->ad_hoc_test_result().Failed()) outside = true;
  }
  int failed = failed_ + (outside ? 1 : 0);
  if (skipped_ > 0) {
    std::printf("%d passed, %d failed, %d skipped\n", passed_, failed, skipped_);
  } else {
    std::printf("%d passed, %d failed\n", passed_, failed);
  }
  std::fflush(stdout);
}

}  // namespace conformance
