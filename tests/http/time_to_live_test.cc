// DescribeTimeToLive and UpdateTimeToLive through HTTP.

#include <gtest/gtest.h>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

class TimeToLiveTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(200, server_.CreateTable("items", "pk", "S").status); }
  HttpResult Describe(const std::string& table = "items") {
    return server_.Call("DescribeTimeToLive", R"({"TableName":")" + table + R"("})");
  }
  HttpResult Update(bool enabled, const std::string& attribute = "expires", const std::string& table = "items") {
    return server_.Call("UpdateTimeToLive", R"({"TableName":")" + table +
                                                R"(","TimeToLiveSpecification":{"Enabled":)" +
                                                (enabled ? "true" : "false") + R"(,"AttributeName":")" + attribute +
                                                R"("}})");
  }
  TestServer server_;
};

TEST_F(TimeToLiveTest, EnableThenDisable) {
  HttpResult r = Describe();
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}})"), r.body);
  r = Update(true);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expires"}})"), r.body);
  EXPECT_EQ(Canonical(R"({"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"expires"}})"),
            Describe().body);
  r = Update(false);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"TimeToLiveSpecification":{"Enabled":false,"AttributeName":"expires"}})"), r.body);
  EXPECT_EQ(Canonical(R"({"TimeToLiveDescription":{"TimeToLiveStatus":"DISABLED"}})"), Describe().body);
}

// docs/streams-and-ttl.md: the refusals in DynamoDB's order (the attribute is checked before the state).
TEST_F(TimeToLiveTest, RepeatedChangesAreRefused) {
  HttpResult r = Update(false, "anything");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("TimeToLive is already disabled", r.Message());
  ASSERT_EQ(200, Update(true).status);
  r = Update(true);
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("TimeToLive is already enabled", r.Message());
  for (bool enabled : {true, false}) {
    r = Update(enabled, "other");
    EXPECT_EQ("ValidationException", r.ErrorName());
    EXPECT_EQ("TimeToLive is active on a different AttributeName: current AttributeName is expires", r.Message());
  }
  EXPECT_EQ(Canonical(R"({"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"expires"}})"),
            Describe().body);
  ASSERT_EQ(200, Update(false).status);
  r = Update(false);
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("TimeToLive is already disabled", r.Message());
  // The partition key may be the TTL attribute.
  EXPECT_EQ(200, Update(true, "pk").status);
}

TEST_F(TimeToLiveTest, DisablingNamesTheEnabledAttribute) {
  ASSERT_EQ(200, Update(true).status);
  HttpResult r = Update(false, "other");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("TimeToLive is active on a different AttributeName: current AttributeName is expires", r.Message());
  EXPECT_EQ(Canonical(R"({"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"expires"}})"),
            Describe().body);
  EXPECT_EQ(200, Update(false).status);
}

TEST_F(TimeToLiveTest, Refusals) {
  HttpResult r = Describe("missing");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found: Table: missing not found", r.Message());
  r = Update(true, "expires", "missing");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  r = server_.Call("UpdateTimeToLive", R"({"TableName":"items"})");
  EXPECT_EQ("1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy constraint: "
            "Member must not be null",
            r.Message());
  r = server_.Call("UpdateTimeToLive", R"({"TableName":"items","TimeToLiveSpecification":{"AttributeName":""}})");
  EXPECT_EQ("2 validation errors detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1; Value null at "
            "'timeToLiveSpecification.enabled' failed to satisfy constraint: Member must not be null",
            r.Message());
}

TEST(TimeToLivePersistenceTest, SettingSurvivesRestart) {
  char dir[] = "/tmp/dynapage-ttl-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(dir));
  TestServerOptions options;
  options.path = dir;
  {
    TestServer server(options);
    ASSERT_EQ(200, server.CreateTable("items", "pk", "S").status);
    ASSERT_EQ(200, server.Call("UpdateTimeToLive", R"({"TableName":"items","TimeToLiveSpecification":)"
                                                   R"({"Enabled":true,"AttributeName":"ttl"}})")
                       .status);
  }
  TestServer server(options);
  EXPECT_EQ(Canonical(R"({"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"ttl"}})"),
            server.Call("DescribeTimeToLive", R"({"TableName":"items"})").body);
  std::system((std::string("rm -rf ") + dir).c_str());
}

}  // namespace
}  // namespace dynapage
