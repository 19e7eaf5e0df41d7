// CreateTable, DescribeTable, ListTables, DeleteTable through HTTP (docs/behaviour.md §9).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

std::vector<std::string> Names(const HttpResult& r) {
  std::vector<std::string> names;
  if (!r.Has("TableNames")) return names;
  for (const auto& v : r.json["TableNames"].GetArray()) names.push_back(v.GetString());
  return names;
}

std::string LastEvaluated(const HttpResult& r) {
  return r.Has("LastEvaluatedTableName") ? r.json["LastEvaluatedTableName"].GetString() : "<none>";
}

class TableOperationsTest : public ::testing::Test {
 protected:
  TestServer server_;
};

TEST_F(TableOperationsTest, CreateHashTable) {
  HttpResult r = server_.CreateTable("users", "id", "S");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(r.Has("TableDescription")) << r.body;
  const auto& d = r.json["TableDescription"];
  EXPECT_STREQ("users", d["TableName"].GetString());
  EXPECT_STREQ("ACTIVE", d["TableStatus"].GetString());
  EXPECT_EQ(Canonical(R"([{"AttributeName":"id","KeyType":"HASH"}])"), JsonText(d["KeySchema"]));
  EXPECT_EQ(Canonical(R"([{"AttributeName":"id","AttributeType":"S"}])"), JsonText(d["AttributeDefinitions"]));
  EXPECT_EQ(0, d["ItemCount"].GetInt64());
  EXPECT_EQ(0, d["TableSizeBytes"].GetInt64());
  EXPECT_STREQ("arn:aws:dynamodb:us-east-1:000000000000:table/users", d["TableArn"].GetString());
  EXPECT_TRUE(d["CreationDateTime"].IsNumber());
  EXPECT_STREQ("PAY_PER_REQUEST", d["BillingModeSummary"]["BillingMode"].GetString());
}

TEST_F(TableOperationsTest, CreateHashRangeTableProvisioned) {
  HttpResult r = server_.Call("CreateTable", R"({"TableName":"events","AttributeDefinitions":[
      {"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"ts","AttributeType":"N"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"ts","KeyType":"RANGE"}],
      "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& d = r.json["TableDescription"];
  EXPECT_EQ(Canonical(R"([{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"ts","KeyType":"RANGE"}])"),
            JsonText(d["KeySchema"]));
  EXPECT_EQ(5, d["ProvisionedThroughput"]["ReadCapacityUnits"].GetInt64());
  EXPECT_EQ(7, d["ProvisionedThroughput"]["WriteCapacityUnits"].GetInt64());
  // ACTIVE at once, so SDK waiters (table_exists) return immediately.
  r = server_.Call("DescribeTable", R"({"TableName":"events"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_STREQ("ACTIVE", r.json["Table"]["TableStatus"].GetString());
  EXPECT_STREQ("events", r.json["Table"]["TableName"].GetString());
}

TEST_F(TableOperationsTest, CreateExistingTable) {
  ASSERT_EQ(200, server_.CreateTable("dup", "id", "S").status);
  HttpResult r = server_.CreateTable("dup", "other", "N");
  EXPECT_EQ(400, r.status);
  EXPECT_EQ("com.amazonaws.dynamodb.v20120810#ResourceInUseException", r.ErrorType());
  EXPECT_EQ("Table already exists: dup", r.Message());
  // The first definition is untouched.
  r = server_.Call("DescribeTable", R"({"TableName":"dup"})");
  EXPECT_EQ(Canonical(R"([{"AttributeName":"id","KeyType":"HASH"}])"), JsonText(r.json["Table"]["KeySchema"]));
}

TEST_F(TableOperationsTest, CreateTableNameConstraints) {
  HttpResult r = server_.CreateTable("ab", "id", "S");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have "
            "length greater than or equal to 3",
            r.Message());
  r = server_.CreateTable("bad name!", "id", "S");
  EXPECT_EQ("1 validation error detected: Value 'bad name!' at 'tableName' failed to satisfy constraint: Member "
            "must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
            r.Message());
  r = server_.CreateTable(std::string(256, 'a'), "id", "S");
  EXPECT_EQ("1 validation error detected: Value '" + std::string(256, 'a') +
                "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255",
            r.Message());
  EXPECT_EQ(200, server_.CreateTable(std::string(255, 'a'), "id", "S").status);
  EXPECT_EQ(200, server_.CreateTable("a-b_c.D9", "id", "S").status);
  EXPECT_EQ(200, server_.CreateTable("abc", "id", "S").status);
}

TEST_F(TableOperationsTest, CreateTableAttributeDefinitionMismatch) {
  HttpResult r = server_.Call("CreateTable", R"({"TableName":"tab1","AttributeDefinitions":[
      {"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"user","KeyType":"HASH"}],
      "BillingMode":"PAY_PER_REQUEST"})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("One or more parameter values were invalid: Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [user], AttributeDefinitions: [id]",
            r.Message());
  r = server_.Call("CreateTable", R"({"TableName":"tab2","AttributeDefinitions":[
      {"AttributeName":"id","AttributeType":"S"},{"AttributeName":"extra","AttributeType":"N"}],
      "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match "
            "number of attributes defined in AttributeDefinitions",
            r.Message());
  EXPECT_EQ(R"({"TableNames":[]})", server_.Call("ListTables", "{}").body);
}

TEST_F(TableOperationsTest, DescribeMissingTable) {
  HttpResult r = server_.Call("DescribeTable", R"({"TableName":"nope"})");
  EXPECT_EQ(400, r.status);
  EXPECT_EQ("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", r.ErrorType());
  EXPECT_EQ("Requested resource not found: Table: nope not found", r.Message());
}

TEST_F(TableOperationsTest, DeleteTable) {
  ASSERT_EQ(200, server_.CreateTable("gone", "id", "S").status);
  ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"gone","Item":{"id":{"S":"a"},"v":{"N":"1"}}})").status);
  HttpResult r = server_.Call("DeleteTable", R"({"TableName":"gone"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_STREQ("DELETING", r.json["TableDescription"]["TableStatus"].GetString());
  EXPECT_STREQ("gone", r.json["TableDescription"]["TableName"].GetString());

  r = server_.Call("DescribeTable", R"({"TableName":"gone"})");
  EXPECT_EQ("Requested resource not found: Table: gone not found", r.Message());
  r = server_.Call("GetItem", R"({"TableName":"gone","Key":{"id":{"S":"a"}}})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found", r.Message());
  EXPECT_EQ(R"({"TableNames":[]})", server_.Call("ListTables", "{}").body);

  // A new table of the same name starts empty.
  ASSERT_EQ(200, server_.CreateTable("gone", "id", "S").status);
  r = server_.Call("GetItem", R"({"TableName":"gone","Key":{"id":{"S":"a"}}})");
  EXPECT_EQ("{}", r.body);
  r = server_.Call("DescribeTable", R"({"TableName":"gone"})");
  EXPECT_EQ(0, r.json["Table"]["ItemCount"].GetInt64());
}

// DeleteTable answers the short description DynamoDB returns for a table being deleted.
TEST_F(TableOperationsTest, DeleteTableAnswersTheShortDescription) {
  HttpResult r = server_.Call("CreateTable", R"({"TableName":"gone","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
      "GlobalSecondaryIndexes":[{"IndexName":"by_g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
                                 "Projection":{"ProjectionType":"ALL"}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"gone","Item":{"id":{"S":"a"},"v":{"N":"1"}}})").status);
  r = server_.Call("DeleteTable", R"({"TableName":"gone"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  const rapidjson::Value& d = r.json["TableDescription"];
  std::vector<std::string> members;
  for (auto m = d.MemberBegin(); m != d.MemberEnd(); ++m) members.push_back(m->name.GetString());
  std::sort(members.begin(), members.end());
  EXPECT_EQ((std::vector<std::string>{"BillingModeSummary", "ItemCount", "ProvisionedThroughput", "TableArn",
                                      "TableId", "TableName", "TableSizeBytes", "TableStatus"}),
            members)
      << r.body;
  EXPECT_STREQ("DELETING", d["TableStatus"].GetString());
  EXPECT_STREQ("PAY_PER_REQUEST", d["BillingModeSummary"]["BillingMode"].GetString());
  EXPECT_EQ(1, d["ItemCount"].GetInt64());
}

// Data-plane operations check a table name that is not an ARN as DynamoDB does: 3 to 255 characters of
// [a-zA-Z0-9_.-] (dialects.md §2.1; issue #29); a table ARN names the table.
TEST_F(TableOperationsTest, DataPlaneTableNamesAndRequiredMembers) {
  const std::string constraint = "1 validation error detected: Value '";
  HttpResult r = server_.Call("GetItem", R"({"TableName":"ab","Key":{"id":{"S":"a"}}})");
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
  EXPECT_EQ(constraint +
                "ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or "
                "equal to 3",
            r.Message());
  r = server_.Call("DescribeTable", R"({"TableName":"a b!"})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName()) << r.Describe();
  const std::string long_name(300, 'q');
  r = server_.Call("Query", R"({"TableName":")" + long_name +
                                R"(","KeyConditionExpression":"id = :v",)"
                                R"("ExpressionAttributeValues":{":v":{"S":"a"}}})");
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
  EXPECT_EQ(constraint + long_name +
                "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255",
            r.Message());
  r = server_.Call("PutItem", R"({"TableName":"bad table!@#","Item":{"id":{"S":"a"}}})");
  EXPECT_EQ(constraint +
                "bad table!@#' at 'tableName' failed to satisfy constraint: Member must satisfy regular "
                "expression pattern: [a-zA-Z0-9_.-]+",
            r.Message());
  r = server_.Call("PutItem", R"({"TableName":"","Item":{"id":{"S":"a"}}})");
  EXPECT_EQ(
      "1 validation error detected: Value at 'TableName' failed to satisfy constraint: Member must have length "
      "greater than or equal to 1",
      r.Message());
  // A table's ARN names it.
  ASSERT_EQ(200, server_.CreateTable("arned", "id", "S").status);
  const std::string arn = "arn:aws:dynamodb:us-east-1:000000000000:table/arned";
  r = server_.Call("PutItem", R"({"TableName":")" + arn + R"(","Item":{"id":{"S":"a"}}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  r = server_.Call("GetItem", R"({"TableName":")" + arn + R"(","Key":{"id":{"S":"a"}},"ConsistentRead":true})");
  EXPECT_EQ(Canonical(R"({"Item":{"id":{"S":"a"}}})"), r.body);
  // Missing members: the item operations report every missing member as constraint errors; the table operations
  // keep their own message.
  const std::string null_name = "Value null at 'tableName' failed to satisfy constraint: Member must not be null";
  const std::vector<std::pair<std::string, std::string>> missing = {
      {"GetItem", "2 validation errors detected: " + null_name +
                      "; Value null at 'key' failed to satisfy constraint: Member must not be null"},
      {"PutItem", "2 validation errors detected: " + null_name +
                      "; Value null at 'item' failed to satisfy constraint: Member must not be null"},
      {"Query", "1 validation error detected: " + null_name},
      {"Scan", "1 validation error detected: " + null_name},
      {"DescribeTable", "The parameter 'TableName' is required but was not present in the request"},
      {"DeleteTable", "The parameter 'TableName' is required but was not present in the request"}};
  for (const auto& [op, message] : missing) {
    r = server_.Call(op, "{}");
    EXPECT_EQ("ValidationException", r.ErrorName()) << op;
    EXPECT_EQ(message, r.Message()) << op;
  }
  // Empty RequestItems: us-east-1's cohort (dialects.md §1.4).
  r = server_.Call("BatchGetItem", R"({"RequestItems":{}})");
  EXPECT_EQ(
      "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have "
      "length greater than or equal to 1",
      r.Message());
  r = server_.Call("BatchWriteItem", R"({"RequestItems":{}})");
  EXPECT_EQ("The requestItems parameter is required for BatchWriteItem", r.Message());
}

TEST_F(TableOperationsTest, DeleteMissingTable) {
  HttpResult r = server_.Call("DeleteTable", R"({"TableName":"nope"})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found: Table: nope not found", r.Message());
}

class ListTablesTest : public TableOperationsTest {
 protected:
  void SetUp() override {
    // Created out of order: the listing is sorted.
    for (const char* name : {"t05", "t01", "t07", "t03", "t02", "t06", "t04"}) {
      ASSERT_EQ(200, server_.CreateTable(name, "id", "S").status) << name;
    }
  }
};

TEST_F(ListTablesTest, AllAscendingWithoutLastEvaluated) {
  HttpResult r = server_.Call("ListTables", "{}");
  ASSERT_EQ(200, r.status);
  EXPECT_EQ((std::vector<std::string>{"t01", "t02", "t03", "t04", "t05", "t06", "t07"}), Names(r));
  EXPECT_FALSE(r.Has("LastEvaluatedTableName")) << r.body;
}

TEST_F(ListTablesTest, PagesWithLimit) {
  HttpResult r = server_.Call("ListTables", R"({"Limit":3})");
  EXPECT_EQ((std::vector<std::string>{"t01", "t02", "t03"}), Names(r));
  EXPECT_EQ("t03", LastEvaluated(r));
  r = server_.Call("ListTables", R"({"Limit":3,"ExclusiveStartTableName":"t03"})");
  EXPECT_EQ((std::vector<std::string>{"t04", "t05", "t06"}), Names(r));
  EXPECT_EQ("t06", LastEvaluated(r));
  r = server_.Call("ListTables", R"({"Limit":3,"ExclusiveStartTableName":"t06"})");
  EXPECT_EQ((std::vector<std::string>{"t07"}), Names(r));
  EXPECT_EQ("<none>", LastEvaluated(r));
}

// §9: LastEvaluatedTableName only when more tables remain (look-ahead): Limit == remaining gives none.
TEST_F(ListTablesTest, NoLastEvaluatedWhenLimitIsExactlyEnough) {
  HttpResult r = server_.Call("ListTables", R"({"Limit":3,"ExclusiveStartTableName":"t04"})");
  EXPECT_EQ((std::vector<std::string>{"t05", "t06", "t07"}), Names(r));
  EXPECT_EQ("<none>", LastEvaluated(r));
  r = server_.Call("ListTables", R"({"Limit":7})");
  EXPECT_EQ(7u, Names(r).size());
  EXPECT_EQ("<none>", LastEvaluated(r));
  r = server_.Call("ListTables", R"({"Limit":6})");
  EXPECT_EQ("t06", LastEvaluated(r));
}

TEST_F(ListTablesTest, ExclusiveStartNeedNotExist) {
  HttpResult r = server_.Call("ListTables", R"({"ExclusiveStartTableName":"t035"})");
  EXPECT_EQ((std::vector<std::string>{"t04", "t05", "t06", "t07"}), Names(r));
  r = server_.Call("ListTables", R"({"ExclusiveStartTableName":"zzz"})");
  EXPECT_EQ(200, r.status);
  EXPECT_TRUE(Names(r).empty());
  EXPECT_EQ("<none>", LastEvaluated(r));
  r = server_.Call("ListTables", R"({"ExclusiveStartTableName":"aaa","Limit":1})");
  EXPECT_EQ((std::vector<std::string>{"t01"}), Names(r));
  EXPECT_EQ("t01", LastEvaluated(r));
}

TEST_F(ListTablesTest, FollowingLastEvaluatedVisitsEveryTableOnce) {
  for (int limit = 1; limit <= 8; limit++) {
    std::vector<std::string> all;
    std::string start;
    for (int page = 0; page < 20; page++) {
      std::string body = R"({"Limit":)" + std::to_string(limit);
      if (!start.empty()) body += R"(,"ExclusiveStartTableName":")" + start + "\"";
      HttpResult r = server_.Call("ListTables", body + "}");
      ASSERT_EQ(200, r.status) << r.Describe();
      for (const auto& n : Names(r)) all.push_back(n);
      if (!r.Has("LastEvaluatedTableName")) break;
      start = r.json["LastEvaluatedTableName"].GetString();
    }
    EXPECT_EQ((std::vector<std::string>{"t01", "t02", "t03", "t04", "t05", "t06", "t07"}), all) << "Limit " << limit;
  }
}

TEST_F(ListTablesTest, LimitConstraints) {
  HttpResult r = server_.Call("ListTables", R"({"Limit":101})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have "
            "value less than or equal to 100",
            r.Message());
  r = server_.Call("ListTables", R"({"Limit":0})");
  EXPECT_EQ("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have "
            "value greater than or equal to 1",
            r.Message());
  r = server_.Call("ListTables", R"({"Limit":100})");
  EXPECT_EQ(200, r.status);
  r = server_.Call("ListTables", R"({"ExclusiveStartTableName":"ab"})");
  EXPECT_EQ("1 validation error detected: Value 'ab' at 'exclusiveStartTableName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 3",
            r.Message());
}

TEST_F(ListTablesTest, DeletedTablesDisappear) {
  ASSERT_EQ(200, server_.Call("DeleteTable", R"({"TableName":"t02"})").status);
  HttpResult r = server_.Call("ListTables", R"({"Limit":2})");
  EXPECT_EQ((std::vector<std::string>{"t01", "t03"}), Names(r));
  EXPECT_EQ("t03", LastEvaluated(r));
}

// Counters are kept in the store only when it is on disk; they must come back after a restart as they were.
TEST(TableCountersPersistenceTest, ItemCountAndSizeSurviveRestart) {
  char dir[] = "/tmp/dynapage-counters-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(dir));
  TestServerOptions options;
  options.path = dir;
  auto describe = [](TestServer& server) {
    HttpResult r = server.Call("DescribeTable", R"({"TableName":"items"})");
    return std::to_string(r.json["Table"]["ItemCount"].GetInt64()) + " items, " +
           std::to_string(r.json["Table"]["TableSizeBytes"].GetInt64()) + " bytes";
  };
  {
    TestServer server(options);
    ASSERT_EQ(200, server.CreateTable("items", "pk", "S").status);
    ASSERT_EQ(200, server.Call("BatchWriteItem", R"({"RequestItems":{"items":[)"
                                                 R"({"PutRequest":{"Item":{"pk":{"S":"a"},"v":{"S":"xyz"}}}},)"
                                                 R"({"PutRequest":{"Item":{"pk":{"S":"b"}}}}]}})")
                       .status);
    ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"items","Item":{"pk":{"S":"c"},"n":{"N":"1"}}})").status);
    ASSERT_EQ(200, server.Call("DeleteItem", R"({"TableName":"items","Key":{"pk":{"S":"b"}}})").status);
    // a: pk a, v xyz = 3 + 4; c: pk c, n 1 = 3 + 1 + 2 (a number of one digit counts 2 bytes)
    ASSERT_EQ("2 items, 13 bytes", describe(server));
  }
  TestServer server(options);
  EXPECT_EQ("2 items, 13 bytes", describe(server));
  std::system((std::string("rm -rf ") + dir).c_str());
}

}  // namespace
}  // namespace dynapage
