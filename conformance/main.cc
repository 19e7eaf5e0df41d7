// dynapage_conformance: the endpoint-agnostic conformance suite. See README.md.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "conformance/environment.h"
#include "conformance/summary_listener.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::string error;
  if (!conformance::InitConformance(&error)) {
    std::fprintf(stderr, "dynapage_conformance: %s\n", error.c_str());
    std::printf("0 passed, 1 failed\n");
    return 2;
  }
  ::testing::AddGlobalTestEnvironment(new conformance::ConformanceEnvironment);
  ::testing::UnitTest::GetInstance()->listeners().Append(new conformance::SummaryListener);
  return RUN_ALL_TESTS();
}
