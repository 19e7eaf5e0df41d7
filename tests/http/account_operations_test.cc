// DescribeEndpoints and DescribeLimits through HTTP: the calls SDKs and infrastructure tools make at start-up.

#include <gtest/gtest.h>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

TEST(AccountOperationsTest, DescribeEndpointsNamesTheRequestsRegion) {
  TestServer server;
  HttpRequest request;
  request.headers = DynamoHeaders("DescribeEndpoints");
  request.headers.erase("Authorization");
  request.headers.emplace("Authorization",
                          "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/dynamodb/aws4_request, "
                          "SignedHeaders=host;x-amz-date, Signature=0123");
  request.body = "{}";
  HttpResult r = server.Send(request);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"Endpoints":[{"Address":"dynamodb.eu-west-1.amazonaws.com","CachePeriodInMinutes":1440}]})",
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
