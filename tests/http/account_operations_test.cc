// DescribeEndpoints and DescribeLimits through HTTP: the calls SDKs and infrastructure tools make at start-up.

#include <gtest/gtest.h>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

// The address this server was reached at (the Host header), never AWS's: an SDK with endpoint discovery on must
// not be sent to AWS.
TEST(AccountOperationsTest, DescribeEndpointsNamesThisServer) {
  TestServerOptions options;
  options.region = "eu-west-1";
  TestServer server(options);
  HttpResult r = server.Call("DescribeEndpoints", "{}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"Endpoints":[{"Address":"127.0.0.1:)" + std::to_string(server.port()) +
                R"(","CachePeriodInMinutes":1440}]})",
            r.body);
}

TEST(AccountOperationsTest, DescribeLimitsGivesTheAccountDefaults) {
  TestServer server;
  HttpResult r = server.Call("DescribeLimits", "{}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,)"
            R"("TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000})",
            r.body);
}

}  // namespace
}  // namespace dynapage
