// Global tables over HTTP (docs/global-tables.md): the exact errors of UpdateTable's ReplicaUpdates, of strong
// multi-region consistency, and of the legacy operations; replicas' descriptions. Replication itself is tested
// through boto3 (tests/sdk/python/test_global_tables_boto3.py).

#include <gtest/gtest.h>

#include <string>

#include "tests/http/http_test_util.h"
#include "tests/http/namespaced_server.h"

namespace dynapage {
namespace {

constexpr char kKey[] = "AKIDGLOBAL";

class GlobalTablesTest : public ::testing::Test {
 protected:
  GlobalTablesTest() : server_(NamespaceMode::kAccessKeyRegion) {}

  // Calls operation in region; *type and the message of an error, "" and "" on success.
  std::string Error(const std::string& region, const std::string& operation, const std::string& body,
                    std::string* type = nullptr) {
    rapidjson::Document d = server_.Call(kKey, region, operation, body);
    if (!d.IsObject() || !d.HasMember("__type")) return "";
    std::string t = d["__type"].GetString();
    if (type) *type = t.substr(t.find('#') + 1);
    return d.HasMember("message") ? d["message"].GetString() : d["Message"].GetString();
  }
  std::string Replicas(const std::string& table, const std::string& actions, const std::string& extra = "") {
    return R"({"TableName":")" + table + R"(","ReplicaUpdates":)" + actions + extra + "}";
  }

  NamespacedServer server_;
};

TEST_F(GlobalTablesTest, ReplicaUpdatesErrors) {
  server_.CreateTable(kKey, "us-east-1", "orders");
  std::string type;
  EXPECT_EQ("One or more parameter values were invalid: Replica modification must be the only operation in the request",
            Error("us-east-1", "UpdateTable",
                  Replicas("orders", R"([{"Create":{"RegionName":"eu-west-1"}}])", R"(,"BillingMode":"PROVISIONED")")));
  EXPECT_EQ(
      "Update table operation with more than one type of replica actions not allowed",
      Error("us-east-1", "UpdateTable",
            Replicas("orders", R"([{"Create":{"RegionName":"eu-west-1"},"Delete":{"RegionName":"eu-west-2"}}])")));
  EXPECT_EQ(
      "Update table operation with more than one create or delete replica actions not allowed",
      Error("us-east-1", "UpdateTable",
            Replicas("orders", R"([{"Create":{"RegionName":"eu-west-1"}},{"Create":{"RegionName":"eu-west-2"}}])")));
  EXPECT_EQ(
      "1 validation error detected: Value null at 'replicaUpdates.1.member.create.regionName' failed to satisfy "
      "constraint: Member must not be null",
      Error("us-east-1", "UpdateTable", Replicas("orders", R"([{"Create":{}}])")));
  EXPECT_EQ("Cannot add or delete the local region through ReplicaUpdates",
            Error("us-east-1", "UpdateTable", Replicas("orders", R"([{"Delete":{"RegionName":"us-east-1"}}])")));
  EXPECT_EQ("Update global table operation failed because one or more replicas were not part of the global table.",
            Error("us-east-1", "UpdateTable", Replicas("orders", R"([{"Delete":{"RegionName":"eu-west-1"}}])")));
  EXPECT_EQ("Requested resource not found: Table: nope not found",
            Error("us-east-1", "UpdateTable", Replicas("nope", R"([{"Create":{"RegionName":"eu-west-1"}}])"), &type));
  EXPECT_EQ("ResourceNotFoundException", type);
  // Two Creates of one region are one.
  EXPECT_EQ("", Error("us-east-1", "UpdateTable",
                      Replicas("orders",
                               R"([{"Create":{"RegionName":"eu-west-1"}},{"Create":{"RegionName":"eu-west-1"}}])")));
  EXPECT_EQ(
      "Failed to create a the new replica of table with name: 'orders' because one or more replicas already "
      "existed as tables.",
      Error("us-east-1", "UpdateTable", Replicas("orders", R"([{"Create":{"RegionName":"eu-west-1"}}])")));
  EXPECT_EQ("MultiRegionConsistency parameter is unsupported on existing global table",
            Error("us-east-1", "UpdateTable",
                  Replicas("orders", R"([{"Create":{"RegionName":"eu-west-2"}}])",
                           R"(,"MultiRegionConsistency":"EVENTUAL")")));
  EXPECT_EQ(
      "Disabling Stream is not allowed for a Global Table replica",
      Error("eu-west-1", "UpdateTable", R"({"TableName":"orders","StreamSpecification":{"StreamEnabled":false}})"));
}

TEST_F(GlobalTablesTest, StrongConsistencyNeedsThreeRegionsBornTogether) {
  server_.CreateTable(kKey, "us-east-1", "ledger");
  const std::string one_create = R"([{"Create":{"RegionName":"us-east-2"}}])";
  EXPECT_EQ("Unsupported replica count for global tables with MultiRegionConsistency set to STRONG.",
            Error("us-east-1", "UpdateTable", Replicas("ledger", one_create, R"(,"MultiRegionConsistency":"STRONG")")));
  EXPECT_EQ(
      "MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates parameter is present.",
      Error("us-east-1", "UpdateTable",
            Replicas("ledger", one_create, R"(,"GlobalTableWitnessUpdates":[{"Create":{"RegionName":"us-west-2"}}])")));
  EXPECT_EQ(
      "Cannot add a witness in the same region as an existing replica when creating a global table with "
      "MultiRegionConsistency set to STRONG.",
      Error(
          "us-east-1", "UpdateTable",
          Replicas(
              "ledger", one_create,
              R"(,"MultiRegionConsistency":"STRONG","GlobalTableWitnessUpdates":[{"Create":{"RegionName":"us-east-2"}}])")));
  EXPECT_EQ(
      "",
      Error(
          "us-east-1", "UpdateTable",
          Replicas(
              "ledger", one_create,
              R"(,"MultiRegionConsistency":"STRONG","GlobalTableWitnessUpdates":[{"Create":{"RegionName":"us-west-2"}}])")));
  rapidjson::Document d = server_.Call(kKey, "us-east-2", "DescribeTable", R"({"TableName":"ledger"})");
  const rapidjson::Value& table = d["Table"];
  EXPECT_EQ(R"("STRONG")", JsonText(table["MultiRegionConsistency"]));
  EXPECT_EQ(R"([{"RegionName":"us-west-2","WitnessStatus":"ACTIVE"}])", JsonText(table["GlobalTableWitnesses"]));
  EXPECT_EQ(R"([{"RegionName":"us-east-1","ReplicaStatus":"ACTIVE"}])", JsonText(table["Replicas"]));
  EXPECT_EQ(R"("2019.11.21")", JsonText(table["GlobalTableVersion"]));

  EXPECT_EQ("Cannot add replicas to a global table with strong MultiRegionConsistency",
            Error("us-east-1", "UpdateTable", Replicas("ledger", R"([{"Create":{"RegionName":"eu-west-1"}}])")));
  EXPECT_EQ("Update table delete operation does not include all witnesses.",
            Error("us-east-1", "UpdateTable", Replicas("ledger", R"([{"Delete":{"RegionName":"us-east-2"}}])")));
  EXPECT_EQ(
      "Deletion of only one table replica is not supported for global tables with MultiRegionConsistency set "
      "to STRONG.",
      Error("us-east-2", "DeleteTable", R"({"TableName":"ledger"})"));
  // Teardown: one call deleting the other replica and the witness.
  EXPECT_EQ("", Error("us-east-1", "UpdateTable",
                      Replicas("ledger", R"([{"Delete":{"RegionName":"us-east-2"}}])",
                               R"(,"GlobalTableWitnessUpdates":[{"Delete":{"RegionName":"us-west-2"}}])")));
  d = server_.Call(kKey, "us-east-1", "DescribeTable", R"({"TableName":"ledger"})");
  EXPECT_FALSE(d["Table"].HasMember("MultiRegionConsistency"));
  EXPECT_FALSE(d["Table"].HasMember("GlobalTableVersion"));
}

TEST_F(GlobalTablesTest, LegacyOperationErrors) {
  std::string type;
  EXPECT_EQ("Global table not found: Global table with name: 'gone' does not exist.",
            Error("us-east-1", "DescribeGlobalTable", R"({"GlobalTableName":"gone"})", &type));
  EXPECT_EQ("GlobalTableNotFoundException", type);
  EXPECT_EQ("One or more parameter values were invalid",
            Error("us-east-1", "UpdateGlobalTable", R"({"GlobalTableName":"gone","ReplicaUpdates":[]})", &type));
  EXPECT_EQ("ValidationException", type);
  EXPECT_EQ("Table: gone not found in region us-east-1",
            Error("us-east-1", "CreateGlobalTable",
                  R"({"GlobalTableName":"gone","ReplicationGroup":[{"RegionName":"us-east-1"}]})", &type));
  EXPECT_EQ("TableNotFoundException", type);
  server_.CreateTable(kKey, "us-east-1", "nostream");
  EXPECT_EQ(
      "One or more parameter values were invalid: Table: nostream in region us-east-1 must have DynamoDB "
      "Streams enabled with StreamViewType NEW_AND_OLD_IMAGES",
      Error("us-east-1", "CreateGlobalTable",
            R"({"GlobalTableName":"nostream","ReplicationGroup":[{"RegionName":"us-east-1"}]})"));
  // A 2019.11.21 group is not one of the legacy operations'.
  EXPECT_EQ("", Error("us-east-1", "UpdateTable", Replicas("nostream", R"([{"Create":{"RegionName":"eu-west-1"}}])")));
  EXPECT_EQ("Global table not found: Global table with name: 'nostream' does not exist.",
            Error("us-east-1", "DescribeGlobalTable", R"({"GlobalTableName":"nostream"})"));
  EXPECT_EQ(R"({"GlobalTables":[]})", JsonText(server_.Call(kKey, "us-east-1", "ListGlobalTables", "{}")));
  EXPECT_EQ(
      "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value "
      "greater than or equal to 1",
      Error("us-east-1", "ListGlobalTables", R"({"Limit":0})"));
}

TEST_F(GlobalTablesTest, ListGlobalTablesPages) {
  for (const char* name : {"aaa", "bbb", "ccc"}) {
    for (const char* region : {"us-east-1", "eu-west-1"}) {
      server_.Call(kKey, region, "CreateTable",
                   std::string(R"({"TableName":")") + name +
                       R"(","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                       R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST",)"
                       R"("StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}})");
    }
    EXPECT_EQ("", Error("us-east-1", "CreateGlobalTable",
                        std::string(R"({"GlobalTableName":")") + name +
                            R"(","ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"eu-west-1"}]})"));
  }
  rapidjson::Document d = server_.Call(kKey, "eu-west-1", "ListGlobalTables", R"({"Limit":2})");
  EXPECT_EQ(R"("bbb")", JsonText(d["LastEvaluatedGlobalTableName"]));
  EXPECT_EQ(2u, d["GlobalTables"].Size());
  d = server_.Call(kKey, "eu-west-1", "ListGlobalTables", R"({"Limit":2,"ExclusiveStartGlobalTableName":"bbb"})");
  EXPECT_EQ(R"({"GlobalTables":[{"GlobalTableName":"ccc","ReplicationGroup":[{"RegionName":"us-east-1"},)"
            R"({"RegionName":"eu-west-1"}]}]})",
            JsonText(d));
  d = server_.Call(kKey, "us-east-1", "ListGlobalTables", R"({"RegionName":"ap-south-1"})");
  EXPECT_EQ(R"({"GlobalTables":[]})", JsonText(d));
}

TEST(GlobalTablesSharedTest, SharedNamespaceHasNoReplicas) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("orders", "pk", "S").status);
  HttpResult r =
      server.Call("UpdateTable", R"({"TableName":"orders","ReplicaUpdates":[{"Create":{"RegionName":"eu-west-1"}}]})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(
      "One or more parameter values were invalid: Global tables need a namespace per region; this server shares "
      "one among all regions (--namespace shared)",
      r.Message());
}

}  // namespace
}  // namespace dynapage
