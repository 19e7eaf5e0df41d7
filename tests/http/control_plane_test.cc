// The control plane's exact wire answers (docs/control-plane.md): the error types and messages of the table
// settings, resource policies, Contributor Insights and Kinesis destinations, and the constraint messages of their
// members. tests/sdk/python/test_control_plane_boto3.py walks the same operations through boto3.

#include <gtest/gtest.h>

#include <string>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kKeys[] = R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                     R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST")";
const char kStream[] = "arn:aws:kinesis:us-east-1:000000000000:stream/changes";

std::string Outcome(const HttpResult& r) { return r.status == 200 ? "200" : r.ErrorType() + ": " + r.Message(); }

class ControlPlaneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(200, server_.Call("CreateTable", std::string(R"({"TableName":"tab",)") + kKeys + "}").status);
  }
  HttpResult Call(const char* operation, const std::string& body) { return server_.Call(operation, body); }
  TestServer server_;
};

TEST_F(ControlPlaneTest, UpdateTableSettingsMustBeAlone) {
  const std::string v = "com.amazon.coral.validate#ValidationException: ";
  EXPECT_EQ(v + "One or more parameter values were invalid: Server-Side Encryption modification must be the only "
                "operation in the request",
            Outcome(Call("UpdateTable", R"({"TableName":"tab","SSESpecification":{"Enabled":true},)"
                                        R"("TableClass":"STANDARD","DeletionProtectionEnabled":true})")));
  EXPECT_EQ(v + "Create global secondary index cannot be specified when updating WarmThroughput",
            Outcome(Call("UpdateTable",
                         R"({"TableName":"tab","WarmThroughput":{"ReadUnitsPerSecond":20000},)"
                         R"("AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],)"
                         R"("GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"by_g","KeySchema":[)"
                         R"({"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]})")));
  EXPECT_EQ("200", Outcome(Call("UpdateTable", R"({"TableName":"tab","BillingMode":"PAY_PER_REQUEST",)"
                                               R"("OnDemandThroughput":{"MaxReadRequestUnits":9}})")));
  EXPECT_EQ(v + "1 validation error detected: Value '0' at 'warmThroughput.readUnitsPerSecond' failed to satisfy "
                "constraint: Member must have value greater than or equal to 1",
            Outcome(Call("UpdateTable", R"({"TableName":"tab","WarmThroughput":{"ReadUnitsPerSecond":0}})")));
  EXPECT_EQ(v + "1 validation error detected: Value 'COLD' at 'tableClass' failed to satisfy constraint: Member "
                "must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]",
            Outcome(Call("UpdateTable", R"({"TableName":"tab","TableClass":"COLD"})")));
}

TEST_F(ControlPlaneTest, DescribeTableShowsWarmThroughputAndHidesTheOwnedKey) {
  HttpResult r = Call("DescribeTable", R"({"TableName":"tab"})");
  ASSERT_EQ(200, r.status);
  const auto& table = r.json["Table"];
  EXPECT_EQ(12000, table["WarmThroughput"]["ReadUnitsPerSecond"].GetInt());
  EXPECT_EQ(4000, table["WarmThroughput"]["WriteUnitsPerSecond"].GetInt());
  EXPECT_STREQ("ACTIVE", table["WarmThroughput"]["Status"].GetString());
  EXPECT_FALSE(table.HasMember("SSEDescription"));
  EXPECT_FALSE(table.HasMember("TableClassSummary"));
  EXPECT_FALSE(table.HasMember("OnDemandThroughput"));
}

TEST_F(ControlPlaneTest, ResourcePolicyErrors) {
  const std::string arn = "arn:aws:dynamodb:us-east-1:000000000000:table/tab";
  EXPECT_EQ(
      "com.amazonaws.dynamodb.v20120810#PolicyNotFoundException: Resource-based policy not found for the "
      "provided ResourceArn: " +
          arn,
      Outcome(Call("GetResourcePolicy", R"({"ResourceArn":")" + arn + R"("})")));
  EXPECT_EQ(
      "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException: Requested resource not found: Table: "
      "nope not found",
      Outcome(Call("GetResourcePolicy", R"({"ResourceArn":")" + arn.substr(0, arn.size() - 3) + R"(nope"})")));
  EXPECT_EQ(
      "com.amazon.coral.validate#ValidationException: 1 validation error detected: Value null at 'policy' "
      "failed to satisfy constraint: Member must not be null",
      Outcome(Call("PutResourcePolicy", R"({"ResourceArn":")" + arn + R"("})")));
  HttpResult deleted = Call("DeleteResourcePolicy", R"({"ResourceArn":")" + arn + R"("})");
  EXPECT_EQ("{}", deleted.body);
}

TEST_F(ControlPlaneTest, ContributorInsightsAndKinesisConstraints) {
  EXPECT_EQ(R"({"TableName":"tab","ContributorInsightsStatus":"DISABLED"})",
            Call("DescribeContributorInsights", R"({"TableName":"tab"})").body);
  EXPECT_EQ(
      "com.amazon.coral.validate#ValidationException: 1 validation error detected: Value 'SECOND' at "
      "'updateKinesisStreamingConfiguration.approximateCreationDateTimePrecision' failed to satisfy constraint: "
      "Member must satisfy enum value set: [MILLISECOND, MICROSECOND]",
      Outcome(
          Call("UpdateKinesisStreamingDestination",
               std::string(R"({"TableName":"tab","StreamArn":")") + kStream +
                   R"(","UpdateKinesisStreamingConfiguration":{"ApproximateCreationDateTimePrecision":"SECOND"}})")));
  EXPECT_EQ("200", Outcome(Call("EnableKinesisStreamingDestination",
                                std::string(R"({"TableName":"tab","StreamArn":")") + kStream + R"("})")));
  EXPECT_EQ(std::string(R"({"TableName":"tab","KinesisDataStreamDestinations":[{"StreamArn":")") + kStream +
                R"(","DestinationStatus":"ACTIVE"}]})",
            Call("DescribeKinesisStreamingDestination", R"({"TableName":"tab"})").body);
}

}  // namespace
}  // namespace dynapage
