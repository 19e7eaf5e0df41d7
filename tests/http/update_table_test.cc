// UpdateTable through HTTP: billing mode and provisioned throughput (issue 4, item 5), and GSI Create (with a
// backfill of the existing items), Update and Delete (issue 5, item 1).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/storage/key_codec.h"
#include "tests/http/index_test_util.h"

namespace dynapage {
namespace {

using Strings = std::vector<std::string>;
const char kInvalid[] = "One or more parameter values were invalid: ";

class UpdateTableTest : public ::testing::Test {
 protected:
  HttpResult Update(const std::string& members) {
    return server_.Call("UpdateTable", R"({"TableName":"tab")" + (members.empty() ? "" : "," + members) + "}");
  }
  HttpResult Describe() { return server_.Call("DescribeTable", R"({"TableName":"tab"})"); }
  std::string DescribeText() { return Describe().body; }
  // A PROVISIONED hash+range table (pk S, sk N) with 5/5 units.
  void CreateProvisioned(const std::string& indexes = "", const std::string& defs = "") {
    HttpResult r = server_.Call("CreateTable", R"({"TableName":"tab","AttributeDefinitions":[
        {"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"})" + defs + R"(],
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
        "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5})" + indexes + "}");
    ASSERT_EQ(200, r.status) << r.Describe();
  }
  void ExpectRefused(const std::string& members, const std::string& error, const std::string& message) {
    const std::string before = DescribeText();
    HttpResult r = Update(members);
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ(error, r.ErrorName()) << members;
    EXPECT_EQ(message, r.Message()) << members;
    EXPECT_EQ(before, DescribeText()) << "a refused UpdateTable changed the table: " << members;
  }
  // Puts count items through BatchWriteItem; item(i) gives each one's JSON.
  template <typename F>
  void PutMany(int count, F item) {
    for (int start = 0; start < count; start += 25) {
      std::string requests;
      for (int i = start; i < std::min(count, start + 25); i++) {
        requests += (i > start ? "," : "") + std::string(R"({"PutRequest":{"Item":)") + item(i) + "}}";
      }
      HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{"tab":[)" + requests + "]}}");
      ASSERT_EQ(200, r.status) << r.Describe();
    }
  }

  TestServer server_;
};

std::string CreateAction(const std::string& name, const std::string& key, const std::string& extra = "") {
  return R"("GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":")" + name + R"(","KeySchema":)" + key +
         R"(,"Projection":{"ProjectionType":"ALL"})" + extra + "}}]";
}

TEST_F(UpdateTableTest, BillingModeSwitches) {
  ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S", "sk", "N").status);
  ExpectRefused(R"("BillingMode":"PROVISIONED")", "ValidationException",
                std::string(kInvalid) + "ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
  ExpectRefused(R"("ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6})", "ValidationException",
                std::string(kInvalid) + "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
                                        "BillingMode is PAY_PER_REQUEST");
  HttpResult r =
      Update(R"("BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6})");
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& d = r.json["TableDescription"];
  EXPECT_STREQ("ACTIVE", d["TableStatus"].GetString());
  EXPECT_EQ(5, d["ProvisionedThroughput"]["ReadCapacityUnits"].GetInt64());
  EXPECT_EQ(6, d["ProvisionedThroughput"]["WriteCapacityUnits"].GetInt64());
  EXPECT_TRUE(d["ProvisionedThroughput"].HasMember("LastIncreaseDateTime"));
  EXPECT_STREQ("PROVISIONED", d["BillingModeSummary"]["BillingMode"].GetString());
  EXPECT_EQ(JsonText(d["ProvisionedThroughput"]), JsonText(Describe().json["Table"]["ProvisionedThroughput"]));
  ExpectRefused(
      R"("BillingMode":"PAY_PER_REQUEST","ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7})",
      "ValidationException",
      std::string(kInvalid) +
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when "
          "BillingMode is PAY_PER_REQUEST");

  r = Update(R"("BillingMode":"PAY_PER_REQUEST")");
  ASSERT_EQ(200, r.status) << r.Describe();
  r = Describe();
  const auto& t = r.json["Table"];
  EXPECT_STREQ("PAY_PER_REQUEST", t["BillingModeSummary"]["BillingMode"].GetString());
  EXPECT_GE(t["BillingModeSummary"]["LastUpdateToPayPerRequestDateTime"].GetDouble(),
            t["CreationDateTime"].GetDouble());
  EXPECT_EQ(0, t["ProvisionedThroughput"]["ReadCapacityUnits"].GetInt64());
  EXPECT_EQ(0, t["ProvisionedThroughput"]["WriteCapacityUnits"].GetInt64());
}

TEST_F(UpdateTableTest, ProvisionedThroughputIncreasesAndDecreases) {
  CreateProvisioned();
  EXPECT_FALSE(Describe().json["Table"].HasMember("BillingModeSummary"));
  HttpResult r = Update(R"("ProvisionedThroughput":{"ReadCapacityUnits":10,"WriteCapacityUnits":5})");
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& up = r.json["TableDescription"]["ProvisionedThroughput"];
  EXPECT_TRUE(up.HasMember("LastIncreaseDateTime")) << r.body;
  EXPECT_FALSE(up.HasMember("LastDecreaseDateTime"));
  EXPECT_EQ(10, up["ReadCapacityUnits"].GetInt64());
  ExpectRefused(R"("ProvisionedThroughput":{"ReadCapacityUnits":10,"WriteCapacityUnits":5})", "ValidationException",
                "The provisioned throughput for the table will not change. The requested value equals the current "
                "value. Current ReadCapacityUnits provisioned for the table: 10. Requested ReadCapacityUnits: 10. "
                "Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. Refer to "
                "the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
  r = Update(R"("ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":5})");
  ASSERT_EQ(200, r.status) << r.Describe();
  HttpResult described = Describe();  // the reference below views it: it must outlive the checks
  const auto& down = described.json["Table"]["ProvisionedThroughput"];
  EXPECT_TRUE(down.HasMember("LastDecreaseDateTime"));
  EXPECT_EQ(1, down["NumberOfDecreasesToday"].GetInt64());
  EXPECT_EQ(3, down["ReadCapacityUnits"].GetInt64());
  ExpectRefused(R"("ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":5})", "ValidationException",
                "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed to "
                "satisfy constraint: Member must have value greater than or equal to 1");
  ExpectRefused(R"("ProvisionedThroughput":{"ReadCapacityUnits":1000000000001,"WriteCapacityUnits":5})",
                "ValidationException", "Given value 1000000000001 for ReadCapacityUnits is out of bounds");
}

TEST_F(UpdateTableTest, RequestLevelChecks) {
  CreateIndexedTable(server_, "tab");
  ExpectRefused("", "ValidationException",
                "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates "
                "or SSESpecification or ReplicaUpdates is required");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[])", "ValidationException",
                "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates "
                "or SSESpecification or ReplicaUpdates is required");
  ExpectRefused(R"("BillingMode":"FREE")", "ValidationException",
                "1 validation error detected: Value 'FREE' at 'billingMode' failed to satisfy constraint: Member must "
                "satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{}])", "ValidationException",
                std::string(kInvalid) + "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                                        "GlobalSecondaryIndexUpdate.Delete must not be null");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by_gpk"}},{"Update":{"IndexName":"by_gpk",
                   "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}])",
                "ValidationException",
                std::string(kInvalid) + "Only one global secondary index update per index is allowed "
                                        "simultaneously. Index: by_gpk");
  ExpectRefused(
      R"("GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by_gpk"}},{"Delete":{"IndexName":"gpk_keys"}}])",
      "LimitExceededException",
      "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"ab"}}])", "ValidationException",
                "1 validation error detected: Value 'ab' at 'globalSecondaryIndexUpdates.1.member.delete.indexName' "
                "failed to satisfy constraint: Member must have length greater than or equal to 3");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"by_gpk"}}])", "ValidationException",
                "1 validation error detected: Value null at 'globalSecondaryIndexUpdates.1.member.update."
                "provisionedThroughput' failed to satisfy constraint: Member must not be null");
  ExpectRefused(
      R"("GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"new_index","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}]}}])",
      "ValidationException",
      "1 validation error detected: Value null at 'globalSecondaryIndexUpdates.1.member.create.projection' "
      "failed to satisfy constraint: Member must not be null");
  HttpResult r = server_.Call("UpdateTable", R"({"TableName":"nope","BillingMode":"PAY_PER_REQUEST"})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found: Table: nope not found", r.Message());
}

TEST_F(UpdateTableTest, DeletionProtection) {
  ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S").status);
  HttpResult r = Update(R"("DeletionProtectionEnabled":true)");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_TRUE(Describe().json["Table"]["DeletionProtectionEnabled"].GetBool());
  EXPECT_EQ(400, server_.Call("DeleteTable", R"({"TableName":"tab"})").status);
  ASSERT_EQ(200, Update(R"("DeletionProtectionEnabled":false)").status);
  EXPECT_EQ(200, server_.Call("DeleteTable", R"({"TableName":"tab"})").status);
}

// The heart of it: a GSI created on a table that holds items contains every item that has its keys (of the
// declared types), in index order, and is maintained by later writes.
TEST_F(UpdateTableTest, CreateGlobalIndexBackfillsExistingItems) {
  ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S", "sk", "N").status);
  using Entry = std::tuple<int, std::string, int>;  // score, pk, sk
  std::vector<Entry> expected_c1;
  int indexed = 0;
  PutMany(600, [&](int i) {
    std::string pk = "p" + std::to_string(i % 11);
    std::string item = R"({"pk":{"S":")" + pk + R"("},"sk":{"N":")" + std::to_string(i) + R"("},"score":{"N":")" +
                       std::to_string(i % 7) + R"("})";
    if (i % 5 == 0) return item + "}";                                // no cat: not indexed
    if (i % 50 == 1) return item + R"(,"cat":{"N":"1"}})";            // cat of another type: not indexed
    if (i % 3 == 1) expected_c1.emplace_back(i % 7, pk, i);
    indexed++;
    return item + R"(,"cat":{"S":"c)" + std::to_string(i % 3) + R"("}})";
  });
  std::sort(expected_c1.begin(), expected_c1.end());
  Strings expected;
  for (const auto& [score, pk, sk] : expected_c1) expected.push_back(pk + "/" + std::to_string(sk));

  HttpResult r =
      Update(R"("AttributeDefinitions":[{"AttributeName":"cat","AttributeType":"S"},
      {"AttributeName":"score","AttributeType":"N"}],)" +
             CreateAction("by_cat",
                          R"([{"AttributeName":"cat","KeyType":"HASH"},{"AttributeName":"score","KeyType":"RANGE"}])"));
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& index = r.json["TableDescription"]["GlobalSecondaryIndexes"][0];
  EXPECT_STREQ("by_cat", index["IndexName"].GetString());
  EXPECT_STREQ("ACTIVE", index["IndexStatus"].GetString());
  EXPECT_EQ(indexed, index["ItemCount"].GetInt64());
  EXPECT_GT(index["IndexSizeBytes"].GetInt64(), 0);
  EXPECT_EQ(Canonical(R"([{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
      {"AttributeName":"cat","AttributeType":"S"},{"AttributeName":"score","AttributeType":"N"}])"),
            JsonText(Describe().json["Table"]["AttributeDefinitions"]));

  const std::string query = R"({"TableName":"tab","IndexName":"by_cat","Limit":13,"KeyConditionExpression":"cat = :c",
      "ExpressionAttributeValues":{":c":{"S":"c1"}}})";
  std::vector<HttpResult> pages = ReadAllPages(server_, "Query", query);
  Strings pks = Values(pages, "pk"), sks = Values(pages, "sk"), got;
  for (size_t i = 0; i < pks.size(); i++) got.push_back(pks[i] + "/" + sks[i]);
  EXPECT_EQ(expected, got);
  EXPECT_EQ(
      static_cast<size_t>(indexed),
      Values(ReadAllPages(server_, "Scan", R"({"TableName":"tab","IndexName":"by_cat","Limit":100})"), "pk").size());

  // Later writes maintain it.
  ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"new"},"sk":{"N":"1"},
      "cat":{"S":"c1"},"score":{"N":"-1"}}})").status);
  ASSERT_EQ(200, server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"p4"},"sk":{"N":"4"}}})").status);
  HttpResult first = server_.Call("Query", query);
  EXPECT_EQ("new", Values(first, "pk")[0]) << first.body;
  pages = ReadAllPages(server_, "Query", query);
  EXPECT_EQ(expected.size(), Values(pages, "pk").size());  // one added, p4/4 removed
  EXPECT_EQ("The table does not have the specified index: nope",
            server_.Call("Scan", R"({"TableName":"tab","IndexName":"nope"})").Message());
}

// The backfill leaves out the items a write could not index: empty or oversized key values.
TEST_F(UpdateTableTest, BackfillSkipsItemsWhoseIndexKeysWouldBeInvalid) {
  ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S", "sk", "N").status);
  PutMany(5, [&](int i) {
    std::string cat = i == 0 ? "" : i == 1 ? std::string(2049, 'c') : "c";
    std::string score = i == 2 ? R"({"B":""})" : R"({"B":"AA=="})";
    if (i == 3) score = R"({"B":")" + std::string(1368, 'A') + R"("})";  // 1,026 bytes: over a sort key's 1,024
    return R"({"pk":{"S":"p"},"sk":{"N":")" + std::to_string(i) + R"("},"cat":{"S":")" + cat + R"("},"score":)" +
           score + "}";
  });
  HttpResult r =
      Update(R"("AttributeDefinitions":[{"AttributeName":"cat","AttributeType":"S"},
      {"AttributeName":"score","AttributeType":"B"}],)" +
             CreateAction("by_cat",
                          R"([{"AttributeName":"cat","KeyType":"HASH"},{"AttributeName":"score","KeyType":"RANGE"}])"));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(1, r.json["TableDescription"]["GlobalSecondaryIndexes"][0]["ItemCount"].GetInt64()) << r.body;
  EXPECT_EQ(Strings{"4"},
            Values(ReadAllPages(server_, "Scan", R"({"TableName":"tab","IndexName":"by_cat"})"), "sk"));
}

TEST_F(UpdateTableTest, OneIndexUpdateHoldsOneAction) {
  CreateIndexedTable(server_, "tab");
  ExpectRefused(R"("AttributeDefinitions":[{"AttributeName":"gpk","AttributeType":"S"}],)"
                R"("GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"by_new","KeySchema":)"
                R"([{"AttributeName":"gpk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}},)"
                R"("Delete":{"IndexName":"by_gpk"}}])",
                "ValidationException",
                std::string(kInvalid) + "Only one of GlobalSecondaryIndexUpdate.Update, "
                                        "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete can be "
                                        "specified");
}

TEST_F(UpdateTableTest, CreateGlobalIndexValidation) {
  CreateIndexedTable(server_, "tab");
  const std::string gpk_key = R"([{"AttributeName":"gpk","KeyType":"HASH"}])";
  ExpectRefused(CreateAction("by_gpk", gpk_key), "ValidationException",
                "Attempting to create an index which already exists");
  ExpectRefused(CreateAction("by_lsk", gpk_key), "ValidationException",
                "Attempting to create an index which already exists");
  ExpectRefused(CreateAction("by_new", R"([{"AttributeName":"newattr","KeyType":"HASH"}])"), "ValidationException",
                std::string(kInvalid) + "Some index key attributes are not defined in AttributeDefinitions. Keys: "
                                        "[newattr], AttributeDefinitions: []");
  ExpectRefused(R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"N"}],)" +
                    CreateAction("by_new", R"([{"AttributeName":"pk","KeyType":"HASH"}])"),
                "ValidationException", std::string(kInvalid) + "Cannot change the type of attribute pk from S to N");
  ExpectRefused(
      CreateAction("by_new", gpk_key, R"(,"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1})"),
      "ValidationException",
      std::string(kInvalid) +
          "ProvisionedThroughput should not be specified for index: by_new when "
          "BillingMode is PAY_PER_REQUEST");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"by_new","KeySchema":)" + gpk_key +
                    R"(,"Projection":{"ProjectionType":"KEYS_ONLY","NonKeyAttributes":["x"]}}}])",
                "ValidationException",
                std::string(kInvalid) + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified");
  ExpectRefused(CreateAction("by_new", R"([{"AttributeName":"gpk","KeyType":"RANGE"}])"), "ValidationException",
                "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  // The table's own key attributes need no new definition.
  HttpResult r = Update(
      CreateAction("by_sk", R"([{"AttributeName":"sk","KeyType":"HASH"},{"AttributeName":"pk","KeyType":"RANGE"}])"));
  EXPECT_EQ(200, r.status) << r.Describe();
}

TEST_F(UpdateTableTest, CreateGlobalIndexOnProvisionedTableNeedsThroughput) {
  CreateProvisioned();
  const std::string defs = R"("AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],)";
  const std::string key = R"([{"AttributeName":"g","KeyType":"HASH"}])";
  ExpectRefused(defs + CreateAction("by_g", key), "ValidationException",
                std::string(kInvalid) + "ProvisionedThroughput must be specified for index: by_g");
  HttpResult r = Update(
      defs + CreateAction("by_g", key, R"(,"ProvisionedThroughput":{"ReadCapacityUnits":2,"WriteCapacityUnits":3})"));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"NumberOfDecreasesToday":0,"ReadCapacityUnits":2,"WriteCapacityUnits":3})",
            JsonText(r.json["TableDescription"]["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]));
}

TEST_F(UpdateTableTest, TwentyGlobalIndexesAtMost) {
  ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S").status);
  const std::string key = R"([{"AttributeName":"pk","KeyType":"HASH"}])";
  for (int i = 0; i < 20; i++) ASSERT_EQ(200, Update(CreateAction("gsi" + std::to_string(i), key)).status) << i;
  ExpectRefused(CreateAction("gsi20", key), "ValidationException",
                std::string(kInvalid) + "GlobalSecondaryIndex count exceeds the per-table limit of 20");
}

TEST_F(UpdateTableTest, DeleteGlobalIndexDropsItsEntries) {
  CreateIndexedTable(server_, "tab");
  PutMany(30, [](int i) {
    return R"({"pk":{"S":"a"},"sk":{"N":")" + std::to_string(i) + R"("},"gpk":{"S":"g"},"gsk":{"N":"1"}})";
  });
  uint32_t keyspace = server_.db().catalog().FindTable("tab")->FindIndex("by_gpk")->keyspace;
  auto entries = [&]() {
    std::string prefix = KeyspacePrefix(keyspace);
    auto it = server_.db().storage().NewIterator(prefix, PrefixSuccessor(prefix));
    int n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
    return n;
  };
  ASSERT_EQ(30, entries());

  HttpResult r = Update(R"("GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by_gpk"}}])");
  ASSERT_EQ(200, r.status) << r.Describe();
  // The answer still shows it, being deleted; afterwards it is gone, with its entries and its sort key's definition.
  std::string statuses;
  for (const auto& index : r.json["TableDescription"]["GlobalSecondaryIndexes"].GetArray()) {
    statuses += std::string(index["IndexName"].GetString()) + "=" + index["IndexStatus"].GetString() + " ";
  }
  EXPECT_EQ("gpk_keys=ACTIVE by_gpk=DELETING ", statuses);
  EXPECT_EQ("", DescribedIndex(server_, "tab", "by_gpk"));
  EXPECT_NE("", DescribedIndex(server_, "tab", "gpk_keys"));
  EXPECT_EQ(Canonical(R"([{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
      {"AttributeName":"lsk","AttributeType":"S"},{"AttributeName":"gpk","AttributeType":"S"}])"),
            JsonText(Describe().json["Table"]["AttributeDefinitions"]));
  EXPECT_EQ(0, entries());
  EXPECT_EQ("The table does not have the specified index: by_gpk",
            server_.Call("Query", R"({"TableName":"tab","IndexName":"by_gpk","KeyConditionExpression":"gpk = :g",
                "ExpressionAttributeValues":{":g":{"S":"g"}}})").Message());
  // Writes go on without it.
  ASSERT_EQ(200,
            server_
                .Call("PutItem",
                      R"({"TableName":"tab","Item":{"pk":{"S":"b"},"sk":{"N":"1"},"gpk":{"S":"g"},"gsk":{"N":"1"}}})")
                .status);
  EXPECT_EQ(0, entries());

  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by_gpk"}}])", "ResourceNotFoundException",
                "Requested resource not found: Index: by_gpk not found");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by_lsk"}}])", "ResourceNotFoundException",
                "Requested resource not found: Index: by_lsk not found");
  // The name can be used again, and the new index holds every item.
  r = Update(R"("AttributeDefinitions":[{"AttributeName":"gsk","AttributeType":"N"}],)" +
             CreateAction("by_gpk",
                          R"([{"AttributeName":"gpk","KeyType":"HASH"},{"AttributeName":"gsk","KeyType":"RANGE"}])"));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(
      31u, Values(ReadAllPages(server_, "Scan", R"({"TableName":"tab","IndexName":"by_gpk","Limit":8})"), "pk").size());
}

TEST_F(UpdateTableTest, UpdateGlobalIndexThroughput) {
  CreateProvisioned(
      R"(,"GlobalSecondaryIndexes":[{"IndexName":"by_g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}])",
      R"(,{"AttributeName":"g","AttributeType":"S"})");
  auto update = [](const std::string& name, int read, int write) {
    return R"("GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":")" + name +
           R"(","ProvisionedThroughput":{"ReadCapacityUnits":)" + std::to_string(read) +
           R"(,"WriteCapacityUnits":)" + std::to_string(write) + "}}}]";
  };
  HttpResult r = Update(update("by_g", 7, 4));
  ASSERT_EQ(200, r.status) << r.Describe();
  rapidjson::Document index;
  index.Parse(DescribedIndex(server_, "tab", "by_g").c_str());
  EXPECT_EQ(7, index["ProvisionedThroughput"]["ReadCapacityUnits"].GetInt64());
  EXPECT_EQ(4, index["ProvisionedThroughput"]["WriteCapacityUnits"].GetInt64());
  EXPECT_TRUE(index["ProvisionedThroughput"].HasMember("LastIncreaseDateTime"));
  EXPECT_TRUE(index["ProvisionedThroughput"].HasMember("LastDecreaseDateTime"));
  EXPECT_EQ(1, index["ProvisionedThroughput"]["NumberOfDecreasesToday"].GetInt64());
  EXPECT_EQ(5, Describe().json["Table"]["ProvisionedThroughput"]["ReadCapacityUnits"].GetInt64());
  ExpectRefused(update("by_g", 7, 4), "ValidationException",
                "The provisioned throughput for the table will not change. The requested value equals the current "
                "value. Current ReadCapacityUnits provisioned for the table: 7. Requested ReadCapacityUnits: 7. "
                "Current WriteCapacityUnits provisioned for the table: 4. Requested WriteCapacityUnits: 4. Refer to "
                "the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
  ExpectRefused(update("nope", 1, 1), "ResourceNotFoundException",
                "Requested resource not found: Index: nope not found");
  ExpectRefused(R"("GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"by_g",
                   "ProvisionedThroughput":{"ReadCapacityUnits":1000000000001,"WriteCapacityUnits":1}}}])",
                "ValidationException",
                "This operation cannot be performed with given input values. Please contact DynamoDB service team "
                "for more info: Action Blocked: IndexUpdate");
}

TEST_F(UpdateTableTest, BillingSwitchesCarryGlobalIndexes) {
  CreateIndexedTable(server_, "tab");
  const std::string provisioned =
      R"("BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":4,"WriteCapacityUnits":4})";
  ExpectRefused(provisioned, "ValidationException",
                std::string(kInvalid) + "ProvisionedThroughput must be specified for index: by_gpk,gpk_keys");
  ExpectRefused(
      R"("GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"by_gpk","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}])",
      "ValidationException",
      std::string(kInvalid) +
          "ProvisionedThroughput should not be specified for index: by_gpk when "
          "BillingMode is PAY_PER_REQUEST");
  HttpResult r = Update(provisioned + R"(,"GlobalSecondaryIndexUpdates":[
      {"Update":{"IndexName":"by_gpk","ProvisionedThroughput":{"ReadCapacityUnits":2,"WriteCapacityUnits":3}}},
      {"Update":{"IndexName":"gpk_keys","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}])");
  ASSERT_EQ(200, r.status) << r.Describe();
  rapidjson::Document index;
  index.Parse(DescribedIndex(server_, "tab", "by_gpk").c_str());
  EXPECT_EQ(2, index["ProvisionedThroughput"]["ReadCapacityUnits"].GetInt64());
  EXPECT_EQ(3, index["ProvisionedThroughput"]["WriteCapacityUnits"].GetInt64());
  ASSERT_EQ(200, Update(R"("BillingMode":"PAY_PER_REQUEST")").status);
  index.Parse(DescribedIndex(server_, "tab", "by_gpk").c_str());
  EXPECT_EQ(0, index["ProvisionedThroughput"]["ReadCapacityUnits"].GetInt64());
  EXPECT_EQ(0, index["ProvisionedThroughput"]["WriteCapacityUnits"].GetInt64());
}

// Writes that race with a backfill are indexed all the same: each write applies the definition current when it
// commits, and the new definition is published with the last backfilled entry.
TEST_F(UpdateTableTest, WritesDuringBackfillAreIndexed) {
  ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S").status);
  const int kExisting = 3000, kConcurrent = 150;
  PutMany(kExisting, [](int i) { return R"({"pk":{"S":"old)" + std::to_string(i) + R"("},"cat":{"S":"c"}})"; });
  std::thread writer([&] {
    TestClient client(server_.port());
    for (int i = 0; i < kConcurrent; i++) {
      HttpResult res = client.Call(
          "PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"new)" + std::to_string(i) + R"("},"cat":{"S":"c"}}})");
      ASSERT_EQ(200, res.status);
    }
  });
  HttpResult r = Update(R"("AttributeDefinitions":[{"AttributeName":"cat","AttributeType":"S"}],)" +
                        CreateAction("by_cat", R"([{"AttributeName":"cat","KeyType":"HASH"}])"));
  writer.join();
  ASSERT_EQ(200, r.status) << r.Describe();
  std::vector<HttpResult> pages = ReadAllPages(server_, "Query", R"({"TableName":"tab","IndexName":"by_cat",
      "KeyConditionExpression":"cat = :c","ExpressionAttributeValues":{":c":{"S":"c"}}})");
  EXPECT_EQ(static_cast<size_t>(kExisting + kConcurrent), Values(pages, "pk").size());
  rapidjson::Document index;
  index.Parse(DescribedIndex(server_, "tab", "by_cat").c_str());
  EXPECT_EQ(kExisting + kConcurrent, index["ItemCount"].GetInt64());
}

}  // namespace
}  // namespace dynapage
