// A GoogleTest listener that ends the run with one line "N passed, N failed" (", N skipped" is added only
// when some case was skipped), the closing line CI reads. It counts test cases, not assertions.

#ifndef DYNAPAGE_CONFORMANCE_SUMMARY_LISTENER_H_
#define DYNAPAGE_CONFORMANCE_SUMMARY_LISTENER_H_

#include <gtest/gtest.h>

namespace conformance {

class SummaryListener : public ::testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const ::testing::TestInfo& info) override;
  // A failure outside any case (global environment, or a suite's SetUpTestSuite/TearDownTestSuite) counts
  // as one more failed case, so that a run whose fixtures broke never reads as green.
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

 private:
  int passed_ = 0;
  int failed_ = 0;
  int skipped_ = 0;
};

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_SUMMARY_LISTENER_H_
