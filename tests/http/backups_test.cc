// Backups, restores and point-in-time recovery through HTTP: each error of the shared spec api-2026.md §1 and §2 with
// its exact __type, message and status, in DynamoDB's order of checks (docs/backups.md).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

// "<status> <__type> <message>" of an answer that is an error, else "200".
std::string Outcome(const HttpResult& r) {
  if (r.status == 200) return "200";
  return std::to_string(r.status) + " " + r.ErrorType() + " " + r.Message();
}

const std::string kDdb = "com.amazonaws.dynamodb.v20120810#";

class BackupsTest : public testing::Test {
 protected:
  BackupsTest() : server_(Options()) {}
  static TestServerOptions Options() {
    TestServerOptions options;
    options.pitr_latest_lag_seconds = 0;
    return options;
  }
  std::string Backup(const std::string& table) {
    HttpResult r = server_.Call("CreateBackup", R"({"TableName":")" + table + R"(","BackupName":"bkp"})");
    EXPECT_EQ(200, r.status) << r.Describe();
    return r.json["BackupDetails"]["BackupArn"].GetString();
  }
  TestServer server_;
};

// Backups made faster than one a millisecond are listed in the order they were made, page after page.
TEST_F(BackupsTest, ListedInCreationOrderWithinOneMillisecond) {
  ASSERT_EQ(200, server_.CreateTable("tbl", "pk", "S").status);
  std::vector<std::string> made;
  for (int i = 0; i < 40; i++) made.push_back(Backup("tbl"));
  std::vector<std::string> listed;
  std::string after;
  for (int page = 0; page < 10; page++) {
    std::string body = R"({"Limit":7)" + (after.empty() ? "" : R"(,"ExclusiveStartBackupArn":")" + after + "\"") + "}";
    HttpResult r = server_.Call("ListBackups", body);
    ASSERT_EQ(200, r.status) << r.Describe();
    for (const auto& summary : r.json["BackupSummaries"].GetArray()) listed.push_back(summary["BackupArn"].GetString());
    if (!r.json.HasMember("LastEvaluatedBackupArn")) break;
    after = r.json["LastEvaluatedBackupArn"].GetString();
  }
  EXPECT_EQ(made, listed);
}

TEST_F(BackupsTest, BackupErrors) {
  EXPECT_EQ("400 " + kDdb + "TableNotFoundException Table not found: nope",
            Outcome(server_.Call("CreateBackup", R"({"TableName":"nope","BackupName":"bkp"})")));
  ASSERT_EQ(200, server_.CreateTable("tbl", "pk", "S").status);
  EXPECT_EQ(400, server_.Call("CreateBackup", R"({"TableName":"tbl","BackupName":"a#"})").status);
  const std::string missing = "arn:aws:dynamodb:us-east-1:000000000000:table/tbl/backup/01489602797149-73d8d5bc";
  EXPECT_EQ("400 " + kDdb + "BackupNotFoundException Backup not found: " + missing,
            Outcome(server_.Call("DescribeBackup", R"({"BackupArn":")" + missing + R"("})")));
  EXPECT_EQ("400 " + kDdb + "BackupNotFoundException Backup not found: " + missing,
            Outcome(server_.Call("DeleteBackup", R"({"BackupArn":")" + missing + R"("})")));
  EXPECT_EQ("400 com.amazon.coral.validate#ValidationException Invalid Backup ARN",
            Outcome(server_.Call("DescribeBackup",
                                 R"({"BackupArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tbl/index/abcdef"})")));
  EXPECT_EQ("400 com.amazon.coral.service#AccessDeniedException Access is denied",
            Outcome(server_.Call(
                "DescribeBackup",
                R"({"BackupArn":"arn:aws:dynamodb:us-east-1:123456789012:table/tbl/backup/01489602797149-73d8d5bc"})")));
  EXPECT_EQ("400 com.amazon.coral.validate#ValidationException Time range lower bound must be less than or equal to "
            "upper bound",
            Outcome(server_.Call("ListBackups", R"({"TimeRangeLowerBound":20,"TimeRangeUpperBound":10})")));
  EXPECT_EQ("400 " + kDdb + "BackupNotFoundException Backup not found: " + missing,
            Outcome(server_.Call("RestoreTableFromBackup",
                                 R"({"TargetTableName":"res","BackupArn":")" + missing + R"("})")));
}

TEST_F(BackupsTest, RestoreFromBackupErrors) {
  ASSERT_EQ(200, server_.CreateTable("tbl", "pk", "S").status);
  const std::string arn = Backup("tbl");
  auto restore = [&](const std::string& target, const std::string& extra = "") {
    return Outcome(server_.Call("RestoreTableFromBackup",
                                R"({"TargetTableName":")" + target + R"(","BackupArn":")" + arn + "\"" + extra + "}"));
  };
  EXPECT_EQ("400 " + kDdb + "TableAlreadyExistsException Table already exists: tbl", restore("tbl"));
  EXPECT_EQ("400 com.amazon.coral.validate#ValidationException Must override ProvisionedThroughput if BillingMode is "
            "overridden to PROVISIONED",
            restore("res", R"(,"BillingModeOverride":"PROVISIONED")"));
  EXPECT_EQ("400 com.amazon.coral.validate#ValidationException Requested MaxReadRequestUnits for OnDemandThroughput "
            "is outside of valid range",
            restore("res", R"(,"OnDemandThroughputOverride":{"MaxReadRequestUnits":0,"MaxWriteRequestUnits":0})"));
  const std::string other_region = "arn:aws:dynamodb:eu-west-1:" + arn.substr(arn.find(":000000000000:") + 1);
  EXPECT_EQ("400 com.amazon.coral.validate#ValidationException Invalid Request: sseSpecificationOverride must be "
            "provided for cross-region restores",
            Outcome(server_.Call("RestoreTableFromBackup",
                                 R"({"TargetTableName":"res","BackupArn":")" + other_region + R"("})")));
  EXPECT_EQ("200", restore("res"));
  // Nothing was made by the refused restores.
  EXPECT_EQ(R"({"TableNames":["res","tbl"]})", server_.Call("ListTables", "{}").body);
}

TEST_F(BackupsTest, PointInTimeErrorsInOrder) {
  ASSERT_EQ(200, server_.CreateTable("tbl", "pk", "S").status);
  auto restore = [&](const std::string& body) {
    return Outcome(server_.Call("RestoreTableToPointInTime", body));
  };
  const std::string invalid = "400 com.amazon.coral.validate#ValidationException ";
  EXPECT_EQ(invalid + "Must provide exactly one of: sourceTableArn, sourceTableName",
            restore(R"({"SourceTableName":"tbl","SourceTableArn":"arn:aws:dynamodb:us-east-1:0:table/tbl",)"
                    R"("TargetTableName":"res","UseLatestRestorableTime":true})"));
  EXPECT_EQ(invalid + "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, "
                      "but not both",
            restore(R"({"SourceTableName":"tbl","TargetTableName":"res"})"));
  EXPECT_EQ(invalid + "sourceTableArn is not a valid ARN",
            restore(R"({"SourceTableArn":"tbl","TargetTableName":"res","UseLatestRestorableTime":true})"));
  EXPECT_EQ("400 " + kDdb + "TableNotFoundException Table not found: nope",
            restore(R"({"SourceTableName":"nope","TargetTableName":"res","UseLatestRestorableTime":true})"));
  EXPECT_EQ("400 " + kDdb + "PointInTimeRecoveryUnavailableException Point in time recovery is not enabled for "
                            "table 'tbl'",
            restore(R"({"SourceTableName":"tbl","TargetTableName":"res","UseLatestRestorableTime":true})"));
  ASSERT_EQ(200, server_.Call("UpdateContinuousBackups", R"({"TableName":"tbl","PointInTimeRecoverySpecification":)"
                                                         R"({"PointInTimeRecoveryEnabled":true}})")
                     .status);
  const std::string outcome = restore(R"({"SourceTableName":"tbl","TargetTableName":"res","RestoreDateTime":1000})");
  EXPECT_EQ(0u, outcome.find("400 " + kDdb + "InvalidRestoreTimeException RestoreDateTime '1970-01-01T00:16:40.000Z' "
                             "must be within EarliestRestorableDateTime '"))
      << outcome;
  EXPECT_EQ("400 " + kDdb + "TableAlreadyExistsException Table already exists: tbl",
            restore(R"({"SourceTableName":"tbl","TargetTableName":"tbl","UseLatestRestorableTime":true})"));
  EXPECT_EQ("200", restore(R"({"SourceTableName":"tbl","TargetTableName":"res","UseLatestRestorableTime":true})"));
}

TEST_F(BackupsTest, SystemBackupCannotBeDeleted) {
  ASSERT_EQ(200, server_.CreateTable("tbl", "pk", "S").status);
  ASSERT_EQ(200, server_.Call("UpdateContinuousBackups", R"({"TableName":"tbl","PointInTimeRecoverySpecification":)"
                                                         R"({"PointInTimeRecoveryEnabled":true}})")
                     .status);
  ASSERT_EQ(200, server_.Call("DeleteTable", R"({"TableName":"tbl"})").status);
  HttpResult list = server_.Call("ListBackups", R"({"BackupType":"SYSTEM"})");
  ASSERT_EQ(1u, list.json["BackupSummaries"].Size()) << list.Describe();
  const std::string arn = list.json["BackupSummaries"][0]["BackupArn"].GetString();
  const std::string outcome = Outcome(server_.Call("DeleteBackup", R"({"BackupArn":")" + arn + R"("})"));
  EXPECT_EQ(0u, outcome.find("400 com.amazon.coral.validate#ValidationException User is not allowed to delete the "
                             "system backup with arn " + arn + ". It will automatically expire on "))
      << outcome;
}

}  // namespace
}  // namespace dynapage
