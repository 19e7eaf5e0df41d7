// What Terraform and CDK read and set on every table, through HTTP: DescribeContinuousBackups and
// UpdateContinuousBackups (point-in-time recovery), CreateTable's Tags, and the transient CREATING and DELETING
// statuses.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kTable[] = R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST")";

std::string PitrStatus(const HttpResult& r) {
  if (r.status != 200) return r.ErrorName() + ": " + r.Message();
  const auto& d = r.json["ContinuousBackupsDescription"];
  return std::string(d["ContinuousBackupsStatus"].GetString()) + "/" +
         d["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"].GetString();
}

TEST(ContinuousBackupsTest, PointInTimeRecoveryIsOffUntilEnabledAndShown) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  EXPECT_EQ("ENABLED/DISABLED", PitrStatus(server.Call("DescribeContinuousBackups", R"({"TableName":"tbl"})")));
  HttpResult r = server.Call("UpdateContinuousBackups",
                             R"({"TableName":"tbl","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}})");
  EXPECT_EQ("ENABLED/ENABLED", PitrStatus(r));
  r = server.Call("DescribeContinuousBackups", R"({"TableName":"tbl"})");
  ASSERT_EQ("ENABLED/ENABLED", PitrStatus(r));
  const auto& pitr = r.json["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"];
  EXPECT_EQ(35, pitr["RecoveryPeriodInDays"].GetInt());
  EXPECT_TRUE(pitr["EarliestRestorableDateTime"].IsNumber());
  EXPECT_LE(pitr["EarliestRestorableDateTime"].GetDouble(), pitr["LatestRestorableDateTime"].GetDouble());
  r = server.Call("UpdateContinuousBackups",
                  R"({"TableName":"tbl","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":false}})");
  EXPECT_EQ("ENABLED/DISABLED", PitrStatus(r));
  EXPECT_EQ("ENABLED/DISABLED", PitrStatus(server.Call("DescribeContinuousBackups", R"({"TableName":"tbl"})")));
}

TEST(ContinuousBackupsTest, SettingSurvivesARestart) {
  std::string dir = testing::TempDir() + "/dynapage-pitr-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  TestServerOptions options;
  options.path = dir;
  {
    TestServer server(options);
    ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
    ASSERT_EQ(200, server.Call("UpdateContinuousBackups", R"({"TableName":"tbl","PointInTimeRecoverySpecification":)"
                                                          R"({"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}})")
                       .status);
  }
  {
    TestServer again(options);
    HttpResult r = again.Call("DescribeContinuousBackups", R"({"TableName":"tbl"})");
    EXPECT_EQ("ENABLED/ENABLED", PitrStatus(r));
    EXPECT_EQ(7, r.json["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]["RecoveryPeriodInDays"]
                     .GetInt());
  }
  std::filesystem::remove_all(dir);
}

TEST(ContinuousBackupsTest, Refusals) {
  TestServer server;
  EXPECT_EQ("TableNotFoundException: Table not found: nope",
            PitrStatus(server.Call("DescribeContinuousBackups", R"({"TableName":"nope"})")));
  EXPECT_EQ("TableNotFoundException: Table not found: nope",
            PitrStatus(server.Call("UpdateContinuousBackups", R"({"TableName":"nope","PointInTimeRecoverySpecification":)"
                                                              R"({"PointInTimeRecoveryEnabled":true}})")));
  EXPECT_EQ("ValidationException: 1 validation error detected: Value null at 'pointInTimeRecoverySpecification' "
            "failed to satisfy constraint: Member must not be null",
            PitrStatus(server.Call("UpdateContinuousBackups", R"({"TableName":"nope"})")));
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  HttpResult r = server.Call("UpdateContinuousBackups", R"({"TableName":"tbl","PointInTimeRecoverySpecification":)"
                                                        R"({"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":36}})");
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("recoveryPeriodInDays")) << r.Message();
}

std::string Tags(TestServer& server, const std::string& table) {
  HttpResult d = server.Call("DescribeTable", R"({"TableName":")" + table + R"("})");
  std::string arn = d.json["Table"]["TableArn"].GetString();
  return server.Call("ListTagsOfResource", R"({"ResourceArn":")" + arn + R"("})").body;
}

TEST(CreateTableTagsTest, TagsAreStored) {
  TestServer server;
  HttpResult r = server.Call("CreateTable", R"({"TableName":"tbl",)" + std::string(kTable) +
                                                R"(,"Tags":[{"Key":"team","Value":"a"},{"Key":"env","Value":""}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"Tags":[{"Key":"env","Value":""},{"Key":"team","Value":"a"}]})", Tags(server, "tbl"));
}

TEST(CreateTableTagsTest, TagsAreValidatedAsTagResourceDoes) {
  TestServer server;
  auto create = [&](const std::string& tags) {
    HttpResult r = server.Call("CreateTable", R"({"TableName":"tbl",)" + std::string(kTable) + R"(,"Tags":)" + tags + "}");
    return r.status == 200 ? std::string("OK") : r.ErrorName() + ": " + r.Message();
  };
  std::string fifty_one = "[";
  for (int i = 0; i < 51; i++) fifty_one += (i ? ",{\"Key\":\"k" : "{\"Key\":\"k") + std::to_string(i) + "\",\"Value\":\"v\"}";
  fifty_one += "]";
  EXPECT_NE(std::string::npos, create(fifty_one).find("ValidationException: Too many tags")) << create(fifty_one);
  EXPECT_NE(std::string::npos, create(R"([{"Key":"aws:x","Value":"v"}])").find("ValidationException"));
  EXPECT_EQ("ValidationException: 1 validation error detected: Value 'a#b' at 'tags.1.member.key' failed to satisfy "
            "constraint: Member must satisfy regular expression pattern: [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*",
            create(R"([{"Key":"a#b","Value":"v"}])"));
  // Lengths are in characters: 128 two-byte characters are a valid key, 129 are not.
  std::string key128, key129;
  for (int i = 0; i < 128; i++) key128 += "\xC3\xA9";
  key129 = key128 + "\xC3\xA9";
  EXPECT_NE(std::string::npos, create(R"([{"Key":")" + key129 + R"(","Value":"v"}])").find("less than or equal to 128"));
  EXPECT_EQ("OK", create(R"([{"Key":")" + key128 + R"(","Value":"ok _.:/=+-@"}])"));
  EXPECT_EQ(0u, Tags(server, "tbl").find(R"({"Tags":[{"Key":")"));
}

TEST(TransientStatusTest, NewTablesAreCreatingForTheDelay) {
  TestServerOptions options;
  options.transient_status_ms = 60000;
  TestServer server(options);
  HttpResult r = server.CreateTable("slow", "pk", "S");
  ASSERT_EQ(200, r.status);
  EXPECT_STREQ("CREATING", r.json["TableDescription"]["TableStatus"].GetString());
  r = server.Call("DescribeTable", R"({"TableName":"slow"})");
  EXPECT_STREQ("CREATING", r.json["Table"]["TableStatus"].GetString());

  TestServer quick;  // no delay: ACTIVE at once
  r = quick.CreateTable("fast", "pk", "S");
  EXPECT_STREQ("ACTIVE", r.json["TableDescription"]["TableStatus"].GetString());
}

// A deleted table stays DELETING for the delay: DescribeTable describes it (what a "table not exists" waiter
// polls), while its items are gone; after the delay it is not found. A new table of the same name ends it.
TEST(TransientStatusTest, DeletedTablesAreDeletingForTheDelay) {
  TestServerOptions options;
  options.transient_status_ms = 5000;
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("old", "pk", "S").status);
  server.clock().Advance(6000);
  ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"old","Item":{"pk":{"S":"a"}}})").status);
  HttpResult r = server.Call("DeleteTable", R"({"TableName":"old"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_STREQ("DELETING", r.json["TableDescription"]["TableStatus"].GetString());
  r = server.Call("DescribeTable", R"({"TableName":"old"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_STREQ("DELETING", r.json["Table"]["TableStatus"].GetString());
  EXPECT_STREQ("old", r.json["Table"]["TableName"].GetString());
  EXPECT_EQ("ResourceNotFoundException",
            server.Call("GetItem", R"({"TableName":"old","Key":{"pk":{"S":"a"}}})").ErrorName());
  server.clock().Advance(4000);
  EXPECT_EQ(200, server.Call("DescribeTable", R"({"TableName":"old"})").status);
  server.clock().Advance(1500);
  r = server.Call("DescribeTable", R"({"TableName":"old"})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName()) << r.Describe();

  // Created again while the old one is DELETING: the new table is described, CREATING then ACTIVE.
  ASSERT_EQ(200, server.CreateTable("again", "pk", "S").status);
  ASSERT_EQ(200, server.Call("DeleteTable", R"({"TableName":"again"})").status);
  ASSERT_EQ(200, server.CreateTable("again", "pk", "S").status);
  server.clock().Advance(6000);
  r = server.Call("DescribeTable", R"({"TableName":"again"})");
  EXPECT_STREQ("ACTIVE", r.json["Table"]["TableStatus"].GetString()) << r.Describe();

  TestServer quick;  // no delay: gone at once
  ASSERT_EQ(200, quick.CreateTable("gone", "pk", "S").status);
  ASSERT_EQ(200, quick.Call("DeleteTable", R"({"TableName":"gone"})").status);
  EXPECT_EQ("ResourceNotFoundException", quick.Call("DescribeTable", R"({"TableName":"gone"})").ErrorName());
}

// A global index shows IndexStatus CREATING for the delay, with a new table or when UpdateTable creates it, then
// ACTIVE; the table stays ACTIVE meanwhile, and so do the indexes it already had.
TEST(TransientStatusTest, NewGlobalIndexesAreCreatingForTheDelay) {
  TestServerOptions options;
  options.transient_status_ms = 5000;
  TestServer server(options);
  HttpResult r = server.Call("CreateTable", std::string("{") + R"("TableName":"tbl",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"a","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST",
      "GlobalSecondaryIndexes":[{"IndexName":"first","KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],
        "Projection":{"ProjectionType":"ALL"}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  auto index_status = [](const rapidjson::Value& table, const std::string& name) -> std::string {
    for (const auto& index : table["GlobalSecondaryIndexes"].GetArray()) {
      if (name == index["IndexName"].GetString()) return index["IndexStatus"].GetString();
    }
    return "absent";
  };
  // A new table's indexes are created with it.
  EXPECT_STREQ("CREATING", r.json["TableDescription"]["TableStatus"].GetString());
  EXPECT_EQ("CREATING", index_status(r.json["TableDescription"], "first"));
  server.clock().Advance(6000);
  r = server.Call("UpdateTable", R"({"TableName":"tbl",
      "AttributeDefinitions":[{"AttributeName":"b","AttributeType":"N"}],
      "GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"second",
        "KeySchema":[{"AttributeName":"b","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("CREATING", index_status(r.json["TableDescription"], "second"));
  EXPECT_EQ("ACTIVE", index_status(r.json["TableDescription"], "first"));
  server.clock().Advance(4000);
  r = server.Call("DescribeTable", R"({"TableName":"tbl"})");
  EXPECT_STREQ("ACTIVE", r.json["Table"]["TableStatus"].GetString());
  EXPECT_EQ("CREATING", index_status(r.json["Table"], "second")) << r.Describe();
  EXPECT_EQ("ACTIVE", index_status(r.json["Table"], "first"));
  server.clock().Advance(1500);
  r = server.Call("DescribeTable", R"({"TableName":"tbl"})");
  EXPECT_EQ("ACTIVE", index_status(r.json["Table"], "second")) << r.Describe();
}

}  // namespace
}  // namespace dynapage
