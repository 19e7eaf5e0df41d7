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

// --ttl-update-cooldown (docs/streams-and-ttl.md): AWS refuses a change within about an hour of the last one, after
// the content checks; a refused change does not extend the cooldown. Off by default (RepeatedChangesAreRefused).
TEST(TimeToLiveCooldownTest, ChangesWithinTheCooldownAreRefusedAfterTheContentChecks) {
  TestServerOptions options;
  options.ttl_update_cooldown_ms = 3600 * 1000;
  TestServer server(options);
  server.clock().Set(1800000000000);
  ASSERT_EQ(200, server.CreateTable("items", "pk", "S").status);
  auto update = [&](bool enabled, const std::string& attribute) {
    return server.Call("UpdateTimeToLive", R"({"TableName":"items","TimeToLiveSpecification":{"Enabled":)" +
                                               std::string(enabled ? "true" : "false") + R"(,"AttributeName":")" +
                                               attribute + R"("}})");
  };
  const char kCooldown[] = "Time to live has been modified multiple times within a fixed interval";
  ASSERT_EQ(200, update(true, "expires").status);  // the first change has no cooldown before it
  server.clock().Advance(3590 * 1000);             // the clock runs on: leave it some seconds
  HttpResult r = update(false, "expires");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(kCooldown, r.Message());
  // The content checks come first.
  EXPECT_EQ("TimeToLive is already enabled", update(true, "expires").Message());
  EXPECT_EQ("TimeToLive is active on a different AttributeName: current AttributeName is expires",
            update(false, "other").Message());
  EXPECT_EQ(Canonical(R"({"TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"expires"}})"),
            server.Call("DescribeTimeToLive", R"({"TableName":"items"})").body);
  // An hour after the change (the refusals did not extend it), the disable goes through and starts a new one.
  server.clock().Advance(10 * 1000);
  ASSERT_EQ(200, update(false, "expires").status);
  EXPECT_EQ(kCooldown, update(true, "other").Message());
  server.clock().Advance(3600 * 1000);
  EXPECT_EQ(200, update(true, "other").status);
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
