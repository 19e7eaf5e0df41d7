// Query through HTTP: the page rules of docs/behaviour.md §2, start keys (§3), key conditions (§5.1), Select (§4) and
// capacity (§7.3), each pinned with DynamoDB's documented scenarios (docs/behaviour.md).

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"
#include "tests/http/pagination_model_util.h"

namespace dynapage {
namespace {

std::string N(long long v) { return R"({"N":")" + std::to_string(v) + R"("})"; }
std::string S(const std::string& v) { return R"({"S":")" + v + R"("})"; }

class QueryTest : public ::testing::Test {
 protected:
  explicit QueryTest(TestServerOptions options = TestServerOptions()) : server_(options) {}

  void SetUp() override {
    ASSERT_EQ(200, server_.CreateTable("qtab", "pk", "S", "sk", "N").status);
    ASSERT_EQ(200, server_.CreateTable("hashonly", "pk", "S").status);
  }

  void Put(const std::string& table, const std::string& item) {
    HttpResult r = server_.Call("PutItem", R"({"TableName":")" + table + R"(","Item":)" + item + "}");
    ASSERT_EQ(200, r.status) << r.Describe();
  }

  // Puts items sk = 0..count-1 into partition pk, with v = sk % 100.
  void Fill(const std::string& pk, int count) {
    for (int start = 0; start < count; start += 25) {
      std::string requests;
      for (int i = start; i < start + 25 && i < count; i++) {
        if (!requests.empty()) requests += ",";
        requests += R"({"PutRequest":{"Item":{"pk":)" + S(pk) + R"(,"sk":)" + N(i) + R"(,"v":)" + N(i % 100) + "}}}";
      }
      HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{"qtab":[)" + requests + "]}}");
      ASSERT_EQ(200, r.status) << r.Describe();
    }
  }

  HttpResult Query(const std::string& members) { return server_.Call("Query", "{" + members + "}"); }

  static std::string PartitionCondition(const std::string& pk) {
    return R"("TableName":"qtab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":)" + S(pk) + "}";
  }

  TestServer server_;
};

TEST_F(QueryTest, LimitPagesTakeExactlyOneMoreRequestThanFullPages) {
  Fill("a", 1000);
  Fill("b", 10);
  std::string start;
  int requests = 0;
  std::vector<long long> seen;
  while (true) {
    HttpResult r = Query(PartitionCondition("a") + R"(,"Limit":25)" + start);
    ASSERT_EQ(200, r.status) << r.Describe();
    requests++;
    ASSERT_LE(r.json["Items"].Size(), 25u);
    EXPECT_EQ(r.json["Count"].GetUint(), r.json["Items"].Size());
    for (const auto& item : r.json["Items"].GetArray()) seen.push_back(std::stoll(item["sk"]["N"].GetString()));
    if (!r.Has("LastEvaluatedKey")) break;
    ASSERT_LT(requests, 100) << "pagination does not terminate";
    start = R"(,"ExclusiveStartKey":)" + JsonText(r.json["LastEvaluatedKey"]);
  }
  // 40 full pages, each stopped by Limit with a LastEvaluatedKey (even the 40th: no look-ahead), then one empty.
  EXPECT_EQ(41, requests);
  ASSERT_EQ(1000u, seen.size());
  for (size_t i = 0; i < seen.size(); i++) EXPECT_EQ(static_cast<long long>(i), seen[i]);
}

TEST_F(QueryTest, LastEvaluatedKeyHoldsTheTableKeyOfTheLastEvaluatedItem) {
  Fill("a", 10);
  HttpResult r = Query(PartitionCondition("a") + R"(,"Limit":3)");
  ASSERT_TRUE(r.Has("LastEvaluatedKey")) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"sk":{"N":"2"}})"), JsonText(r.json["LastEvaluatedKey"]));
}

TEST_F(QueryTest, NoLastEvaluatedKeyWhenTheRangeIsExhausted) {
  Fill("a", 10);
  HttpResult r = Query(PartitionCondition("a") + R"(,"Limit":11)");
  EXPECT_EQ(10u, r.json["Count"].GetUint());
  EXPECT_FALSE(r.Has("LastEvaluatedKey")) << r.Describe();
  r = Query(PartitionCondition("a"));
  EXPECT_FALSE(r.Has("LastEvaluatedKey")) << r.Describe();
}

TEST_F(QueryTest, LimitCountsEvaluatedItemsBeforeTheFilter) {
  Fill("a", 10);  // v = 0..9
  HttpResult r = Query(PartitionCondition("a").substr(0, PartitionCondition("a").size() - 1) +
                       R"(,":big":{"N":"50"}},"FilterExpression":"v > :big","Limit":3)");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(r.Has("Items"));
  EXPECT_EQ(0u, r.json["Items"].Size());
  EXPECT_EQ(0u, r.json["Count"].GetUint());
  EXPECT_EQ(3u, r.json["ScannedCount"].GetUint());
  ASSERT_TRUE(r.Has("LastEvaluatedKey"));
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"sk":{"N":"2"}})"), JsonText(r.json["LastEvaluatedKey"]));
}

TEST_F(QueryTest, CountAndScannedCountUnderAOnePercentFilter) {
  Fill("a", 1000);
  std::string start;
  unsigned count = 0, scanned = 0, pages = 0;
  while (pages < 100) {
    HttpResult r = Query(R"("TableName":"qtab","KeyConditionExpression":"pk = :p","FilterExpression":"v = :z",)"
                         R"("ExpressionAttributeValues":{":p":{"S":"a"},":z":{"N":"0"}},"Limit":100)" + start);
    ASSERT_EQ(200, r.status) << r.Describe();
    pages++;
    count += r.json["Count"].GetUint();
    scanned += r.json["ScannedCount"].GetUint();
    EXPECT_EQ(r.json["Count"].GetUint(), r.json["Items"].Size());
    if (!r.Has("LastEvaluatedKey")) break;
    start = R"(,"ExclusiveStartKey":)" + JsonText(r.json["LastEvaluatedKey"]);
  }
  EXPECT_EQ(10u, count);
  EXPECT_EQ(1000u, scanned);
  EXPECT_EQ(11u, pages);
}

TEST_F(QueryTest, SelectCountPaginatesWithoutItems) {
  Fill("a", 30);
  std::string start;
  unsigned total = 0;
  int pages = 0;
  while (pages < 10) {
    HttpResult r = Query(PartitionCondition("a") + R"(,"Select":"COUNT","Limit":7)" + start);
    ASSERT_EQ(200, r.status) << r.Describe();
    pages++;
    EXPECT_FALSE(r.Has("Items")) << r.Describe();
    total += r.json["Count"].GetUint();
    if (!r.Has("LastEvaluatedKey")) break;
    start = R"(,"ExclusiveStartKey":)" + JsonText(r.json["LastEvaluatedKey"]);
  }
  EXPECT_EQ(30u, total);
  EXPECT_EQ(5, pages);
}

TEST_F(QueryTest, ReversedQueryResumesStrictlyBeforeTheStartKey) {
  Fill("a", 20);
  HttpResult r = Query(PartitionCondition("a") +
                       R"(,"ScanIndexForward":false,"Limit":5,"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"10"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  std::vector<std::string> sks;
  for (const auto& item : r.json["Items"].GetArray()) sks.push_back(item["sk"]["N"].GetString());
  EXPECT_EQ((std::vector<std::string>{"9", "8", "7", "6", "5"}), sks);
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"sk":{"N":"5"}})"), JsonText(r.json["LastEvaluatedKey"]));
}

// The next page reads the data as it is when that page is asked for (the server may continue from where the
// last page stopped, but only while nothing has been written): puts, updates and deletes made between pages
// show, in either direction, and so does a write to another table's data in the same store.
TEST_F(QueryTest, EachPageSeesTheWritesMadeBeforeIt) {
  Fill("a", 20);
  auto sort_keys = [](const HttpResult& r) {
    std::vector<std::string> sks;
    for (const auto& item : r.json["Items"].GetArray()) {
      sks.push_back(std::string(item["sk"]["N"].GetString()) + ":" + item["v"]["N"].GetString());
    }
    return sks;
  };
  auto next = [](const HttpResult& r) { return R"(,"ExclusiveStartKey":)" + JsonText(r.json["LastEvaluatedKey"]); };
  HttpResult first = Query(PartitionCondition("a") + R"(,"Limit":5)");
  ASSERT_EQ(200, first.status) << first.Describe();
  EXPECT_EQ((std::vector<std::string>{"0:0", "1:1", "2:2", "3:3", "4:4"}), sort_keys(first));
  Put("qtab", R"({"pk":{"S":"a"},"sk":{"N":"4.5"},"v":{"N":"45"}})");
  ASSERT_EQ(200, server_.Call("DeleteItem", R"({"TableName":"qtab","Key":{"pk":{"S":"a"},"sk":{"N":"5"}}})").status);
  Put("qtab", R"({"pk":{"S":"a"},"sk":{"N":"6"},"v":{"N":"60"}})");
  HttpResult second = Query(PartitionCondition("a") + R"(,"Limit":5)" + next(first));
  ASSERT_EQ(200, second.status) << second.Describe();
  EXPECT_EQ((std::vector<std::string>{"4.5:45", "6:60", "7:7", "8:8", "9:9"}), sort_keys(second));
  // Unchanged data: the third page follows on.
  HttpResult third = Query(PartitionCondition("a") + R"(,"Limit":5)" + next(second));
  EXPECT_EQ((std::vector<std::string>{"10:10", "11:11", "12:12", "13:13", "14:14"}), sort_keys(third));
  // A write elsewhere, then a reversed page from the same start key.
  Put("hashonly", R"({"pk":{"S":"elsewhere"}})");
  Put("qtab", R"({"pk":{"S":"a"},"sk":{"N":"13"},"v":{"N":"130"}})");
  HttpResult back = Query(PartitionCondition("a") + R"(,"Limit":3,"ScanIndexForward":false)" + next(third));
  EXPECT_EQ((std::vector<std::string>{"13:130", "12:12", "11:11"}), sort_keys(back));
  // And forward again from the reversed page's stop, with the item it stopped on gone.
  ASSERT_EQ(200, server_.Call("DeleteItem", R"({"TableName":"qtab","Key":{"pk":{"S":"a"},"sk":{"N":"11"}}})").status);
  HttpResult again = Query(PartitionCondition("a") + R"(,"Limit":2)" + next(back));
  EXPECT_EQ((std::vector<std::string>{"12:12", "13:130"}), sort_keys(again));
}

TEST_F(QueryTest, StartKeyNeedNotExist) {
  Fill("a", 20);
  HttpResult r = Query(PartitionCondition("a") + R"(,"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"9.5"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_EQ(10u, r.json["Items"].Size());
  EXPECT_STREQ("10", r.json["Items"][0]["sk"]["N"].GetString());
}

TEST_F(QueryTest, SortKeyOrderIsNumericForNumbersAndBytewiseForStrings) {
  for (const char* v : {"10", "-2.5", "1e3", "0", "9", "-100"})
    Put("qtab", R"({"pk":{"S":"n"},"sk":{"N":")" + std::string(v) + R"("}})");
  HttpResult r = Query(PartitionCondition("n"));
  std::vector<std::string> sks;
  for (const auto& item : r.json["Items"].GetArray()) sks.push_back(item["sk"]["N"].GetString());
  EXPECT_EQ((std::vector<std::string>{"-100", "-2.5", "0", "9", "10", "1000"}), sks);

  ASSERT_EQ(200, server_.CreateTable("strings", "pk", "S", "sk", "S").status);
  for (const char* v : {"b", "aa", "B", "1", "a", "10", "A", "2", "ab"}) {
    Put("strings", R"({"pk":{"S":"s"},"sk":{"S":")" + std::string(v) + R"("}})");
  }
  r = server_.Call(
      "Query",
      R"({"TableName":"strings","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"s"}}})");
  sks.clear();
  for (const auto& item : r.json["Items"].GetArray()) sks.push_back(item["sk"]["S"].GetString());
  EXPECT_EQ((std::vector<std::string>{"1", "10", "2", "A", "B", "a", "aa", "ab", "b"}), sks);
}

TEST_F(QueryTest, EveryKeyConditionForm) {
  Fill("a", 20);
  struct Case {
    std::string expression, values;
    std::vector<int> expected;
  } cases[] = {
      {"pk = :p AND sk = :x", R"(":x":{"N":"5"})", {5}},
      {"pk = :p AND sk < :x", R"(":x":{"N":"3"})", {0, 1, 2}},
      {"pk = :p AND sk <= :x", R"(":x":{"N":"3"})", {0, 1, 2, 3}},
      {"pk = :p AND sk > :x", R"(":x":{"N":"17"})", {18, 19}},
      {"pk = :p AND sk >= :x", R"(":x":{"N":"17"})", {17, 18, 19}},
      {"pk = :p AND sk BETWEEN :x AND :y", R"(":x":{"N":"4"},":y":{"N":"6"})", {4, 5, 6}},
      {":x > sk AND :p = pk", R"(":x":{"N":"2"})", {0, 1}},
      {"(pk = :p) and (#s between :x and :y)", R"(":x":{"N":"1"},":y":{"N":"2"})", {1, 2}},
  };
  for (const auto& c : cases) {
    std::string names =
        c.expression.find("#s") != std::string::npos ? R"(,"ExpressionAttributeNames":{"#s":"sk"})" : "";
    HttpResult r = Query(R"("TableName":"qtab","KeyConditionExpression":")" + c.expression +
                         R"(","ExpressionAttributeValues":{":p":{"S":"a"},)" + c.values + "}" + names);
    ASSERT_EQ(200, r.status) << c.expression << ": " << r.Describe();
    std::vector<int> got;
    for (const auto& item : r.json["Items"].GetArray()) got.push_back(std::stoi(item["sk"]["N"].GetString()));
    EXPECT_EQ(c.expected, got) << c.expression;
  }
}

TEST_F(QueryTest, BeginsWithOnStringSortKeys) {
  ASSERT_EQ(200, server_.CreateTable("strings", "pk", "S", "sk", "S").status);
  for (const char* v : {"app", "apple", "apricot", "b", "ap"}) {
    Put("strings", R"({"pk":{"S":"s"},"sk":{"S":")" + std::string(v) + R"("}})");
  }
  HttpResult r =
      server_.Call("Query", R"x({"TableName":"strings","KeyConditionExpression":"pk = :p AND begins_with(sk, :b)",)x"
                            R"("ExpressionAttributeValues":{":p":{"S":"s"},":b":{"S":"app"}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  std::vector<std::string> got;
  for (const auto& item : r.json["Items"].GetArray()) got.push_back(item["sk"]["S"].GetString());
  EXPECT_EQ((std::vector<std::string>{"app", "apple"}), got);
}

TEST_F(QueryTest, LegacyKeyConditions) {
  Fill("a", 10);
  HttpResult r =
      Query(R"("TableName":"qtab","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]},)"
            R"("sk":{"ComparisonOperator":"GE","AttributeValueList":[{"N":"8"}]}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(2u, r.json["Count"].GetUint());
}

TEST_F(QueryTest, LegacyKeyConditionsMixWithFilterAndProjectionExpressions) {
  Fill("a", 10);
  const std::string key_conditions =
      R"("TableName":"qtab","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}})";
  HttpResult r = Query(key_conditions + R"(,"FilterExpression":"v > :v","ProjectionExpression":"sk",)"
                                        R"("ExpressionAttributeValues":{":v":{"N":"6"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(3u, r.json["Count"].GetUint());
  EXPECT_EQ(Canonical(R"({"sk":{"N":"7"}})"), JsonText(r.json["Items"][0]));
  // Only the parameters that conflict are named.
  r = Query(key_conditions + R"(,"QueryFilter":{"v":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"6"}]}},)"
                             R"("FilterExpression":"v > :v","ExpressionAttributeValues":{":v":{"N":"6"}})");
  EXPECT_EQ("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
            "{QueryFilter} Expression parameters: {FilterExpression}",
            r.Message());
  r = Query(key_conditions + R"(,"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}})");
  EXPECT_EQ("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
            "{KeyConditions} Expression parameters: {KeyConditionExpression}",
            r.Message());
}

TEST_F(QueryTest, StartKeyErrorsUseQueryWording) {
  Fill("a", 5);
  struct Case {
    std::string members, message;
  } cases[] = {
      {R"("ExclusiveStartKey":{"pk":{"S":"a"}})", "The provided starting key is invalid"},
      {R"("ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"y"}})", "The provided starting key is invalid"},
      {R"("ExclusiveStartKey":{"pk":{"S":"a"},"other":{"N":"1"}})", "The provided starting key is invalid"},
      {R"("ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"S":"1"}})", "The provided key element does not match the schema"},
      {R"("ExclusiveStartKey":{"pk":{"S":"b"},"sk":{"N":"1"}})",
       "The provided starting key is outside query boundaries based on provided conditions"},
      {R"("ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":""}})", "The parameter cannot be converted to a numeric value"},
      {R"("ExclusiveStartKey":{"pk":{},"sk":{"N":"1"}})",
       "The provided starting key is invalid: Supplied AttributeValue is empty, must contain exactly one of the "
       "supported datatypes"},
      {R"("ExclusiveStartKey":{"pk":{"S":"a","N":"1"},"sk":{"N":"1"}})",
       "The provided starting key is invalid: Supplied AttributeValue has more than one datatypes set, must contain "
       "exactly one of the supported datatypes"},
  };
  for (const auto& c : cases) {
    HttpResult r = Query(PartitionCondition("a") + "," + c.members);
    EXPECT_EQ(400, r.status) << c.members;
    EXPECT_EQ("ValidationException", r.ErrorName()) << c.members;
    EXPECT_EQ(c.message, r.Message()) << c.members;
  }
}

TEST_F(QueryTest, StartKeyAgainstTheSortKeyCondition) {
  Fill("a", 10);
  std::string base = R"("TableName":"qtab","KeyConditionExpression":"pk = :p AND sk > :x",)"
                     R"("ExpressionAttributeValues":{":p":{"S":"a"},":x":{"N":"5"}},)";
  HttpResult r = Query(base + R"("ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"2"}})");
  EXPECT_EQ("The provided starting key does not match the range key predicate", r.Message()) << r.Describe();
  r = Query(base + R"("ExclusiveStartKey":{"pk":{"S":"b"},"sk":{"N":"7"}})");
  EXPECT_EQ("The query can return at most one row and cannot be restarted", r.Message()) << r.Describe();
  r = Query(base + R"("ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"7"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(2u, r.json["Count"].GetUint());
}

TEST_F(QueryTest, HashOnlyTable) {
  Put("hashonly", R"({"pk":{"S":"a"},"v":{"N":"1"}})");
  HttpResult r = server_.Call("Query", R"({"TableName":"hashonly","KeyConditionExpression":"pk = :p",)"
                                       R"("ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":1})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(1u, r.json["Count"].GetUint());
  // The range holds one item at most: reading it exhausts the range.
  EXPECT_FALSE(r.Has("LastEvaluatedKey")) << r.Describe();
  r = server_.Call("Query", R"({"TableName":"hashonly","KeyConditionExpression":"pk = :p",)"
                            R"("ExpressionAttributeValues":{":p":{"S":"a"}},"ExclusiveStartKey":{"pk":{"S":"a"}}})");
  EXPECT_EQ("The provided exclusive start key is invalid: ExclusiveStartKey: {pk=AttributeValue: {S:a}}", r.Message())
      << r.Describe();
}

TEST_F(QueryTest, KeyConditionErrors) {
  struct Case {
    std::string expression, values, message;
  } cases[] = {
      {"sk = :x", R"(":x":{"N":"1"})", "Query condition missed key schema element: pk"},
      {"pk > :p", R"(":p":{"S":"a"})", "Query key condition not supported"},
      {"pk = :p OR sk = :x", R"(":p":{"S":"a"},":x":{"N":"1"})", "Invalid operator used in KeyConditionExpression: OR"},
      {"", R"(":p":{"S":"a"})", "Invalid KeyConditionExpression: The expression can not be empty;"},
  };
  for (const auto& c : cases) {
    HttpResult r = Query(R"("TableName":"qtab","KeyConditionExpression":")" + c.expression +
                         R"(","ExpressionAttributeValues":{)" + c.values + "}");
    EXPECT_EQ("ValidationException", r.ErrorName()) << c.expression;
    EXPECT_EQ(c.message, r.Message()) << c.expression;
  }
  HttpResult r = Query(R"("TableName":"qtab")");
  EXPECT_EQ("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.",
            r.Message());
}

TEST_F(QueryTest, FilterMayNotUseKeyAttributes) {
  HttpResult r = Query(R"("TableName":"qtab","KeyConditionExpression":"pk = :p","FilterExpression":"sk > :x",)"
                       R"("ExpressionAttributeValues":{":p":{"S":"a"},":x":{"N":"1"}})");
  EXPECT_EQ("Filter Expression can only contain non-primary key attributes: Primary key attribute: sk", r.Message());
}

TEST_F(QueryTest, SelectRulesCarryTheValidationPrefix) {
  HttpResult r = Query(PartitionCondition("a") + R"(,"Select":"ALL_PROJECTED_ATTRIBUTES")");
  EXPECT_EQ("1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
            r.Message());
  r = Query(PartitionCondition("a") + R"(,"Select":"SPECIFIC_ATTRIBUTES")");
  EXPECT_EQ("1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to "
            "get SPECIFIC_ATTRIBUTES",
            r.Message());
  r = Query(PartitionCondition("a") + R"(,"Select":"COUNT","ProjectionExpression":"v")");
  EXPECT_EQ("1 validation error detected: Cannot specify the ProjectionExpression when choosing to get only the Count",
            r.Message());
  r = Query(PartitionCondition("a") + R"(,"Select":"count")");
  EXPECT_EQ("1 validation error detected: Value 'count' at 'select' failed to satisfy constraint: Member must satisfy "
            "enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]",
            r.Message());
  r = Query(PartitionCondition("a") + R"(,"Limit":0)");
  // DynamoDB's current wording: the value not echoed, the member capitalised.
  EXPECT_EQ("1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1",
            r.Message());
  // Scan words its parameters in the request's Scan cohort: us-east-1's echoes the value (dialects.md §1.3).
  r = server_.Call("Scan", R"({"TableName":"qtab","Limit":-3})");
  EXPECT_EQ(
      "1 validation error detected: Value '-3' at 'limit' failed to satisfy constraint: Member must have value "
      "greater than or equal to 1",
      r.Message());
}

TEST_F(QueryTest, ProjectionAndUnusedPlaceholders) {
  Put("qtab", R"({"pk":{"S":"a"},"sk":{"N":"1"},"v":{"N":"7"},"w":{"S":"x"}})");
  HttpResult r =
      Query(PartitionCondition("a") + R"(,"ProjectionExpression":"#v","ExpressionAttributeNames":{"#v":"v"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"v":{"N":"7"}}])"), JsonText(r.json["Items"]));
  r = Query(PartitionCondition("a") + R"(,"ExpressionAttributeNames":{"#v":"v"})");
  EXPECT_EQ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#v}", r.Message());
}

TEST_F(QueryTest, ConsumedCapacityHasAMinimumEvenForAnEmptyPage) {
  HttpResult r = Query(PartitionCondition("nothing") + R"(,"ReturnConsumedCapacity":"TOTAL")");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(0.5, r.json["ConsumedCapacity"]["CapacityUnits"].GetDouble());
  EXPECT_STREQ("qtab", r.json["ConsumedCapacity"]["TableName"].GetString());
  r = Query(PartitionCondition("nothing") + R"(,"ReturnConsumedCapacity":"TOTAL","ConsistentRead":true)");
  EXPECT_EQ(1.0, r.json["ConsumedCapacity"]["CapacityUnits"].GetDouble());
  // 10 items of ~1 KB: 10.x KB read rounds up to 12 KB, 3 units, halved.
  for (int i = 0; i < 10; i++) {
    Put("qtab", R"({"pk":{"S":"k"},"sk":)" + N(i) + R"(,"d":{"S":")" + std::string(1000, 'x') + R"("}})");
  }
  r = Query(PartitionCondition("k") + R"(,"ReturnConsumedCapacity":"TOTAL")");
  EXPECT_EQ(1.5, r.json["ConsumedCapacity"]["CapacityUnits"].GetDouble()) << r.Describe();
}

TEST_F(QueryTest, ThePageStopsAfterTheItemThatCrossesOneMegabyte) {
  // Each item: "pk"+"a" (3) + "sk"+N (2+2) + "d"+100000 = 100008 bytes. Ten make 1,000,080 (< 1 MiB); the
  // eleventh crosses 1,048,576 and is still part of the page.
  const std::string payload(100000, 'x');
  for (int i = 0; i < 15; i++) {
    Put("qtab", R"({"pk":{"S":"a"},"sk":)" + N(i + 10) + R"(,"d":{"S":")" + payload + R"("}})");
  }
  HttpResult r = Query(PartitionCondition("a") + R"(,"ProjectionExpression":"sk")");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(11u, r.json["ScannedCount"].GetUint());
  EXPECT_EQ(11u, r.json["Count"].GetUint());
  ASSERT_TRUE(r.Has("LastEvaluatedKey"));
  EXPECT_STREQ("20", r.json["LastEvaluatedKey"]["sk"]["N"].GetString());
  r = Query(PartitionCondition("a") + R"(,"ProjectionExpression":"sk","ExclusiveStartKey":)" +
            JsonText(r.json["LastEvaluatedKey"]));
  EXPECT_EQ(4u, r.json["Count"].GetUint());
  EXPECT_FALSE(r.Has("LastEvaluatedKey"));
}

class SmallPageQueryTest : public QueryTest {
 protected:
  static TestServerOptions Options() {
    TestServerOptions o;
    o.max_page_bytes = 100;
    return o;
  }
  SmallPageQueryTest() : QueryTest(Options()) {}
};

TEST_F(SmallPageQueryTest, MaxPageBytesCutsPagesEarly) {
  Fill("a", 50);  // items of 2+1 + 2+1..2 + 1+1..2 ≈ 10 bytes: a 100-byte page holds 10 or 11
  std::set<std::string> seen;
  std::string start;
  int pages = 0;
  while (pages < 50) {
    HttpResult r = Query(PartitionCondition("a") + start);
    ASSERT_EQ(200, r.status) << r.Describe();
    pages++;
    EXPECT_LE(r.json["ScannedCount"].GetUint(), 12u);
    for (const auto& item : r.json["Items"].GetArray()) EXPECT_TRUE(seen.insert(item["sk"]["N"].GetString()).second);
    if (!r.Has("LastEvaluatedKey")) break;
    start = R"(,"ExclusiveStartKey":)" + JsonText(r.json["LastEvaluatedKey"]);
  }
  EXPECT_EQ(50u, seen.size());
  EXPECT_GE(pages, 5);
}

// Model-based: random tables and Queries, each page checked against the brute-force model of
// tests/http/pagination_model_util.h. Fixed seeds, so that a failure (which names its seed) reproduces.

// One server per seed, with max_page_bytes lowered when not 0, holding the seed's random table.
std::string CheckQueriesOfSeed(uint32_t seed, uint64_t max_page_bytes, bool range_only, double start_key_chance,
                               ModelCoverage* coverage) {
  std::mt19937 rng(seed);
  TestServerOptions options;
  if (max_page_bytes) options.max_page_bytes = max_page_bytes;
  TestServer server(options);
  TableShape shape = ShapeOfSeed(seed);
  shape.range |= range_only;
  ModelTable table = RandomTable(rng, "model", shape);
  ::testing::AssertionResult loaded = LoadTable(server, table);
  if (!loaded) return loaded.message();
  return CheckRandomQueries(rng, server, table, nullptr, 25, start_key_chance, coverage);
}

TEST(QueryModelTest, RandomQueriesMatchTheModelPageByPage) {
  ModelCoverage coverage;
  for (uint32_t seed = 1; seed <= 20; seed++) {
    EXPECT_EQ("", CheckQueriesOfSeed(seed, 0, false, 0.0, &coverage)) << "seed " << seed;
  }
  // Random reads prove little unless they hit the rules: Limit exactly at the end of a range (no look-ahead),
  // pages whose items the filter all drops, Select=COUNT.
  EXPECT_GT(coverage.exhausted_by_limit, 0);
  EXPECT_GT(coverage.filtered_empty, 0);
  EXPECT_GT(coverage.count_only, 0);
}

TEST(QueryModelTest, SmallPagesIncludeTheItemThatCrossesTheLimit) {
  ModelCoverage coverage;
  for (uint32_t seed = 101; seed <= 116; seed++) {
    uint64_t max_page_bytes = SmallPageBytes(seed);
    EXPECT_EQ("", CheckQueriesOfSeed(seed, max_page_bytes, false, 0.2, &coverage))
        << "seed " << seed << ", max_page_bytes " << max_page_bytes;
  }
  // Pages whose sizes reach max_page_bytes exactly must stop there too: the limit is reached, not crossed.
  EXPECT_GT(coverage.size_stops, 20);
  EXPECT_GT(coverage.exact_size_stops, 0);
}

// A start key need not be an item: a position between items resumes strictly after it (before it backward).
TEST(QueryModelTest, StartKeysBetweenItemsResumeStrictlyAfterThem) {
  ModelCoverage coverage;
  for (uint32_t seed = 201; seed <= 212; seed++) {
    EXPECT_EQ("", CheckQueriesOfSeed(seed, 0, true, 1.0, &coverage)) << "seed " << seed;
  }
  EXPECT_GT(coverage.start_keys, 150);
}

}  // namespace
}  // namespace dynapage
