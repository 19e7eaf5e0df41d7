// What every answer carries on the wire: Date, CORS (as DynamoDB Local's -cors), the health check and
// DescribeEndpoints naming the address the server was reached at, TagResource's empty body, and the unknown
// operation's message.

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "server/http/http_server.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const std::regex kHttpDate(
    "^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$");

class WireHeadersTest : public ::testing::Test {
 protected:
  TestServer server_;
};

TEST_F(WireHeadersTest, EveryAnswerHasADate) {
  HttpResult ok = server_.Call("ListTables", "{}");
  HttpResult error = server_.Call("DescribeTable", R"({"TableName":"missing"})");
  HttpRequest get;
  get.method = "GET";
  HttpResult health = server_.Send(get);
  HttpResult refused = server_.SendRaw("GARBAGE\r\n\r\n");
  for (const HttpResult* r : {&ok, &error, &health, &refused}) {
    EXPECT_TRUE(std::regex_match(r->Header("Date"), kHttpDate))
        << "Date: '" << r->Header("Date") << "' in " << r->Describe();
  }
}

TEST_F(WireHeadersTest, HealthCheckNamesTheHostItWasReachedAt) {
  HttpRequest get;
  get.method = "GET";
  get.headers.emplace("Host", "dynapage.localhost:4567");
  get.headers.emplace("Accept-Encoding", "identity");
  HttpResult r = server_.Send(get);
  EXPECT_EQ(200, r.status);
  EXPECT_EQ("healthy: dynapage.localhost:4567 ", r.body);
}

TEST_F(WireHeadersTest, DescribeEndpointsAnswersThisServer) {
  HttpRequest request;
  request.headers = DynamoHeaders("DescribeEndpoints");
  request.headers.emplace("Host", "localhost:" + std::to_string(server_.port()));
  request.body = "{}";
  HttpResult r = server_.Send(request);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("localhost:" + std::to_string(server_.port()), std::string(r.json["Endpoints"][0]["Address"].GetString()));
  EXPECT_EQ(std::string::npos, r.body.find("amazonaws.com")) << r.body;
}

TEST_F(WireHeadersTest, TagResourceAndUntagResourceAnswerAnEmptyBody) {
  HttpResult created = server_.CreateTable("tbl", "pk", "S");
  ASSERT_EQ(200, created.status);
  std::string arn = created.json["TableDescription"]["TableArn"].GetString();
  HttpResult r = server_.Call("TagResource", R"({"ResourceArn":")" + arn + R"(","Tags":[{"Key":"k","Value":"v"}]})");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("", r.body);
  EXPECT_EQ("0", r.Header("Content-Length"));
  r = server_.Call("UntagResource", R"({"ResourceArn":")" + arn + R"(","TagKeys":["k"]})");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("", r.body);
  EXPECT_EQ("0", r.Header("Content-Length"));
}

TEST_F(WireHeadersTest, UnknownOperationNamesTheOperation) {
  HttpResult r = server_.Call("ListTable", "{}");
  EXPECT_EQ(400, r.status);
  EXPECT_EQ("UnknownOperationException", r.ErrorName());
  EXPECT_EQ("An unknown operation was requested: DynamoDB_20120810.ListTable", r.Message()) << r.Describe();
}

TEST_F(WireHeadersTest, CorsHeadersOnEveryAnswerByDefault) {
  HttpResult r = server_.Call("ListTables", "{}");
  EXPECT_EQ("*", r.Header("Access-Control-Allow-Origin")) << r.Describe();
  std::string exposed = r.Header("Access-Control-Expose-Headers");
  EXPECT_NE(std::string::npos, exposed.find("x-amzn-RequestId")) << exposed;
  EXPECT_NE(std::string::npos, exposed.find("x-amz-crc32")) << exposed;
  r = server_.Call("DescribeTable", R"({"TableName":"missing"})");
  EXPECT_EQ("*", r.Header("Access-Control-Allow-Origin")) << r.Describe();
}

TEST_F(WireHeadersTest, CorsPreflightIsAnswered) {
  HttpRequest preflight;
  preflight.method = "OPTIONS";
  preflight.headers.emplace("Origin", "http://localhost:3000");
  preflight.headers.emplace("Access-Control-Request-Method", "POST");
  preflight.headers.emplace("Access-Control-Request-Headers", "content-type,x-amz-target,authorization,x-amz-date");
  HttpResult r = server_.Send(preflight);
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("*", r.Header("Access-Control-Allow-Origin"));
  EXPECT_NE(std::string::npos, r.Header("Access-Control-Allow-Methods").find("POST"));
  EXPECT_EQ("content-type,x-amz-target,authorization,x-amz-date", r.Header("Access-Control-Allow-Headers"));
}

TEST(WireCorsListTest, OnlyListedOriginsAreAllowed) {
  TestServerOptions options;
  options.http.cors_origins = {"http://app.test"};
  TestServer server(options);
  HttpRequest request;
  request.headers = DynamoHeaders("ListTables");
  request.headers.emplace("Origin", "http://app.test");
  request.body = "{}";
  HttpResult r = server.Send(request);
  EXPECT_EQ("http://app.test", r.Header("Access-Control-Allow-Origin")) << r.Describe();
  EXPECT_NE(std::string::npos, r.Header("Access-Control-Expose-Headers").find("x-amz-crc32"));
  request.headers.erase("Origin");
  request.headers.emplace("Origin", "http://evil.test");
  r = server.Send(request);
  EXPECT_FALSE(r.HasHeader("Access-Control-Allow-Origin")) << r.Describe();
}

}  // namespace
}  // namespace dynapage
