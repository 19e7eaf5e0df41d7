// Scan through HTTP: DynamoDB's partition-hash order (docs/behaviour.md §6.1), parallel segments (§6.2), the page rules
// (§2), start keys with Scan's wording (§3.2), Select (§4) and filters (§5.2).

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"
#include "tests/http/index_test_util.h"
#include "tests/http/pagination_model_util.h"

namespace dynapage {
namespace {

class ScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(200, server_.CreateTable("strs", "pk", "S").status);
    ASSERT_EQ(200, server_.CreateTable("nums", "pk", "N").status);
    ASSERT_EQ(200, server_.CreateTable("rtab", "pk", "S", "sk", "N").status);
  }

  void Put(const std::string& table, const std::string& item) {
    HttpResult r = server_.Call("PutItem", R"({"TableName":")" + table + R"(","Item":)" + item + "}");
    ASSERT_EQ(200, r.status) << r.Describe();
  }

  void FillRange(int partitions, int per_partition) {
    for (int p = 0; p < partitions; p++) {
      for (int i = 0; i < per_partition; i++) {
        Put("rtab", R"({"pk":{"S":"p)" + std::to_string(p) + R"("},"sk":{"N":")" + std::to_string(i) +
                     R"("},"v":{"N":")" + std::to_string((p * per_partition + i) % 100) + R"("}})");
      }
    }
  }

  // Every page of a Scan, following LastEvaluatedKey; members go into each request.
  std::vector<HttpResult> ScanAll(const std::string& members, int max_pages = 2000) {
    std::vector<HttpResult> pages;
    std::string start;
    while (static_cast<int>(pages.size()) < max_pages) {
      pages.push_back(server_.Call("Scan", "{" + members + start + "}"));
      const HttpResult& r = pages.back();
      if (r.status != 200 || !r.Has("LastEvaluatedKey")) break;
      start = R"(,"ExclusiveStartKey":)" + JsonText(r.json["LastEvaluatedKey"]);
    }
    return pages;
  }

  TestServer server_;
};

TEST_F(ScanTest, StringPartitionsComeInDynamoDBsHashOrder) {
  // The live order pinned by dynalite's tests against DynamoDB (docs/behaviour.md §6.1).
  const std::vector<std::string> live = {"2", "8", "9",    "1",       "6", "hello", "0",
                                         "5", "4", "äáöü", "aardman", "7", "3",     "zapf"};
  for (auto it = live.rbegin(); it != live.rend(); ++it) Put("strs", R"({"pk":{"S":")" + *it + R"("}})");
  HttpResult r = server_.Call("Scan", R"({"TableName":"strs"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  std::vector<std::string> got;
  for (const auto& item : r.json["Items"].GetArray()) got.push_back(item["pk"]["S"].GetString());
  EXPECT_EQ(live, got);
}

TEST_F(ScanTest, NumberPartitionsComeInDynamoDBsHashOrder) {
  const std::vector<std::string> live = {"7", "999.9", "8", "3", "2", "-999.9",   "9",
                                         "4", "-0.09", "6", "1", "0", "0.012345", "5"};
  for (const auto& v : live) Put("nums", R"({"pk":{"N":")" + v + R"("}})");
  HttpResult r = server_.Call("Scan", R"({"TableName":"nums"})");
  std::vector<std::string> got;
  for (const auto& item : r.json["Items"].GetArray()) got.push_back(item["pk"]["N"].GetString());
  EXPECT_EQ(live, got);
}

TEST_F(ScanTest, WithinAPartitionItemsComeInSortKeyOrder) {
  FillRange(3, 12);
  HttpResult r = server_.Call("Scan", R"({"TableName":"rtab"})");
  std::map<std::string, std::vector<int>> by_partition;
  std::vector<std::string> partition_order;
  for (const auto& item : r.json["Items"].GetArray()) {
    std::string pk = item["pk"]["S"].GetString();
    if (partition_order.empty() || partition_order.back() != pk) partition_order.push_back(pk);
    by_partition[pk].push_back(std::stoi(item["sk"]["N"].GetString()));
  }
  EXPECT_EQ(3u, partition_order.size()) << "a partition's items must be contiguous";
  for (const auto& [pk, sks] : by_partition) {
    std::vector<int> expected(12);
    for (int i = 0; i < 12; i++) expected[i] = i;
    EXPECT_EQ(expected, sks) << pk;
  }
}

// A Scan's next page reads the table as it is then (see QueryTest.EachPageSeesTheWritesMadeBeforeIt).
TEST_F(ScanTest, EachPageSeesTheWritesMadeBeforeIt) {
  FillRange(1, 6);
  auto values = [](const HttpResult& r) {
    std::vector<std::string> v;
    for (const auto& item : r.json["Items"].GetArray()) v.push_back(item["v"]["N"].GetString());
    return v;
  };
  auto next = [this](const HttpResult& r) {
    return server_.Call("Scan", R"({"TableName":"rtab","Limit":2,"ExclusiveStartKey":)" +
                                    JsonText(r.json["LastEvaluatedKey"]) + "}");
  };
  HttpResult r = server_.Call("Scan", R"({"TableName":"rtab","Limit":2})");
  EXPECT_EQ((std::vector<std::string>{"0", "1"}), values(r));
  Put("rtab", R"({"pk":{"S":"p0"},"sk":{"N":"3"},"v":{"N":"33"}})");
  r = next(r);
  EXPECT_EQ((std::vector<std::string>{"2", "33"}), values(r));
  r = next(r);
  EXPECT_EQ((std::vector<std::string>{"4", "5"}), values(r));
}

TEST_F(ScanTest, LimitEqualToTheRemainingItemsStillGivesALastEvaluatedKey) {
  FillRange(1, 5);
  HttpResult r = server_.Call("Scan", R"({"TableName":"rtab","Limit":5})");
  EXPECT_EQ(5u, r.json["Count"].GetUint());
  ASSERT_TRUE(r.Has("LastEvaluatedKey"));
  r = server_.Call(
      "Scan", R"({"TableName":"rtab","Limit":5,"ExclusiveStartKey":)" + JsonText(r.json["LastEvaluatedKey"]) + "}");
  EXPECT_EQ(0u, r.json["Count"].GetUint());
  EXPECT_EQ(0u, r.json["Items"].Size());
  EXPECT_FALSE(r.Has("LastEvaluatedKey"));
  r = server_.Call("Scan", R"({"TableName":"rtab","Limit":6})");
  EXPECT_FALSE(r.Has("LastEvaluatedKey"));
}

TEST_F(ScanTest, ParallelSegmentsTogetherReturnEveryItemExactlyOnce) {
  FillRange(40, 5);
  std::multiset<std::string> seen;
  std::vector<size_t> per_segment;
  for (int segment = 0; segment < 4; segment++) {
    size_t count = 0;
    for (const HttpResult& r :
         ScanAll(R"("TableName":"rtab","Limit":7,"TotalSegments":4,"Segment":)" + std::to_string(segment))) {
      ASSERT_EQ(200, r.status) << r.Describe();
      for (const auto& item : r.json["Items"].GetArray()) {
        seen.insert(std::string(item["pk"]["S"].GetString()) + "/" + item["sk"]["N"].GetString());
        count++;
      }
    }
    per_segment.push_back(count);
  }
  EXPECT_EQ(200u, seen.size());
  EXPECT_EQ(200u, std::set<std::string>(seen.begin(), seen.end()).size()) << "an item came back twice";
  for (size_t count : per_segment) EXPECT_GT(count, 0u) << "segments must really split the table";
}

TEST_F(ScanTest, SegmentsFollowTheLiveHashRanges) {
  // DynamoDB's live segment assignment with TotalSegments=4096 (docs/behaviour.md §6.2).
  struct Case {
    std::string table, item;
    int segment;
  } cases[] = {{"strs", R"({"pk":{"S":"3635"}})", 0},  {"strs", R"({"pk":{"S":"228"}})", 0},
               {"strs", R"({"pk":{"S":"1668"}})", 1},  {"strs", R"({"pk":{"S":"3435"}})", 4},
               {"nums", R"({"pk":{"N":"251"}})", 1},   {"nums", R"({"pk":{"N":"2388"}})", 4095}};
  for (const auto& c : cases) Put(c.table, c.item);
  for (const auto& c : cases) {
    HttpResult r = server_.Call("Scan", R"({"TableName":")" + c.table + R"(","TotalSegments":4096,"Segment":)" +
                                            std::to_string(c.segment) + "}");
    bool found = false;
    for (const auto& item : r.json["Items"].GetArray()) found |= JsonText(item) == Canonical(c.item);
    EXPECT_TRUE(found) << c.item << " not in segment " << c.segment << ": " << r.Describe();
  }
}

TEST_F(ScanTest, SegmentValidation) {
  struct Case {
    std::string members, message;
  } cases[] = {
      {R"("Segment":0)",
       "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"},
      {R"("TotalSegments":2)",
       "The Segment parameter is required but was not present in the request when parameter TotalSegments is present"},
      {R"("Segment":1,"TotalSegments":1)",
       "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 1 is not less than "
       "TotalSegments: 1"},
      {R"("Segment":-1,"TotalSegments":2)",
       "1 validation error detected: Value '-1' at 'segment' failed to satisfy constraint: Member must have value "
       "greater than or equal to 0"},
      {R"("Segment":0,"TotalSegments":1000001)",
       "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member must have "
       "value less than or equal to 1000000"},
  };
  for (const auto& c : cases) {
    HttpResult r = server_.Call("Scan", R"({"TableName":"rtab",)" + c.members + "}");
    EXPECT_EQ("ValidationException", r.ErrorName()) << c.members;
    EXPECT_EQ(c.message, r.Message()) << c.members;
  }
}

TEST_F(ScanTest, StartKeyMustBelongToTheSegment) {
  Put("strs", R"({"pk":{"S":"3435"}})");  // segment 4 of 4096, so segment 0 of 2
  HttpResult r = server_.Call(
      "Scan", R"({"TableName":"strs","TotalSegments":2,"Segment":1,"ExclusiveStartKey":{"pk":{"S":"3435"}}})");
  EXPECT_EQ(
      "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct "
      "Segment. TotalSegments: 2 Segment: 1",
      r.Message())
      << r.Describe();
  r = server_.Call("Scan",
                   R"({"TableName":"strs","TotalSegments":2,"Segment":0,"ExclusiveStartKey":{"pk":{"S":"3435"}}})");
  EXPECT_EQ(200, r.status) << r.Describe();
}

TEST_F(ScanTest, StartKeyErrorsUseScanWording) {
  const std::string no_match =
      "The provided starting key is invalid: The provided key element does not match the schema";
  for (const std::string& key : {std::string(R"({"pk":{"S":"a"}})"), std::string(R"({"pk":{"N":"1"},"sk":{"N":"1"}})"),
                                 std::string(R"({"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"y"}})")}) {
    HttpResult r = server_.Call("Scan", R"({"TableName":"rtab","ExclusiveStartKey":)" + key + "}");
    EXPECT_EQ(no_match, r.Message()) << key;
  }
  HttpResult r = server_.Call("Scan", R"({"TableName":"nope","ExclusiveStartKey":{"pk":{"S":"a"}}})");
  EXPECT_EQ("Requested resource not found", r.Message()) << "the table is checked before the key";
}

TEST_F(ScanTest, FilterCountsAndScannedCountsUnderAOnePercentFilter) {
  FillRange(10, 100);  // v = 0..99 once per partition
  unsigned count = 0, scanned = 0;
  for (
      const HttpResult& r : ScanAll(
          R"("TableName":"rtab","FilterExpression":"v = :z","ExpressionAttributeValues":{":z":{"N":"0"}},"Limit":50)")) {
    ASSERT_EQ(200, r.status) << r.Describe();
    EXPECT_LE(r.json["ScannedCount"].GetUint(), 50u);
    count += r.json["Count"].GetUint();
    scanned += r.json["ScannedCount"].GetUint();
  }
  EXPECT_EQ(10u, count);
  EXPECT_EQ(1000u, scanned);
}

// Items are decoded from their stored form for filters, projections and GetItem; escaped characters (a NUL, a
// quote, a backslash, control characters, non-ASCII) must come back exactly as they were written.
TEST_F(ScanTest, EscapedStringsSurviveFiltersProjectionsAndReads) {
  const std::string s = R"({"S":"a\u0000b\"c\\d\u001f\té€😀"})";
  const std::string ss = R"({"SS":["x\u0000y","\n","\\"]})";
  const std::string sorted_ss = R"({"SS":["\n","\\","x\u0000y"]})";  // sets come back sorted by UTF-8 bytes
  Put("strs", R"({"pk":{"S":"esc\u0000ape"},"s":)" + s + R"(,"ss":)" + ss + R"(,"m":{"M":{"k\"":)" + s +
                  R"(,"n\u0000ul":{"N":"1"}}}})");
  Put("strs", R"({"pk":{"S":"other"},"s":{"S":"a"}})");

  HttpResult filtered = server_.Call(
      "Scan", R"({"TableName":"strs","FilterExpression":"s = :v","ExpressionAttributeValues":{":v":)" + s + "}}");
  ASSERT_EQ(200, filtered.status) << filtered.Describe();
  ASSERT_EQ(1u, filtered.json["Count"].GetUint()) << filtered.Describe();
  const rapidjson::Value& item = filtered.json["Items"][0];
  EXPECT_EQ(Canonical(s), JsonText(item["s"]));
  EXPECT_EQ(Canonical(sorted_ss), JsonText(item["ss"]));
  EXPECT_EQ(Canonical(R"({"S":"esc\u0000ape"})"), JsonText(item["pk"]));

  HttpResult projected = server_.Call(
      "Scan", R"j({"TableName":"strs","ProjectionExpression":"m, ss","FilterExpression":"attribute_exists(ss)"})j");
  ASSERT_EQ(200, projected.status) << projected.Describe();
  ASSERT_EQ(1u, projected.json["Count"].GetUint()) << projected.Describe();
  EXPECT_EQ(Canonical(R"({"M":{"k\"":)" + s + R"(,"n\u0000ul":{"N":"1"}}})"),
            JsonText(projected.json["Items"][0]["m"]));
  EXPECT_EQ(Canonical(sorted_ss), JsonText(projected.json["Items"][0]["ss"]));

  HttpResult read = server_.Call("GetItem", R"({"TableName":"strs","Key":{"pk":{"S":"esc\u0000ape"}}})");
  ASSERT_EQ(200, read.status) << read.Describe();
  ASSERT_TRUE(read.Has("Item")) << read.Describe();
  EXPECT_EQ(Canonical(s), JsonText(read.json["Item"]["s"]));
}

TEST_F(ScanTest, SelectRulesHaveNoValidationPrefix) {
  HttpResult r = server_.Call("Scan", R"({"TableName":"rtab","Select":"ALL_PROJECTED_ATTRIBUTES"})");
  EXPECT_EQ("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName", r.Message());
  r = server_.Call("Scan", R"({"TableName":"rtab","Select":"ALL_ATTRIBUTES","AttributesToGet":["v"]})");
  EXPECT_EQ("Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES", r.Message());
  r = server_.Call("Scan", R"({"TableName":"rtab","ExpressionAttributeValues":{":z":{"N":"0"}}})");
  EXPECT_EQ("ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null",
            r.Message());
  r = server_.Call("Scan", R"({"TableName":"rtab","ProjectionExpression":"v","AttributesToGet":["v"]})");
  EXPECT_EQ("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
            "{AttributesToGet} Expression parameters: {ProjectionExpression}",
            r.Message());
}

TEST_F(ScanTest, LegacyScanFilterInAndBetweenNeedOneType) {
  const std::string same_type = "One or more parameter values were invalid: AttributeValues inside "
                                "AttributeValueList must be of same type";
  HttpResult r = server_.Call(
      "Scan", R"({"TableName":"rtab","ScanFilter":{"v":{"ComparisonOperator":"IN",)"
              R"("AttributeValueList":[{"N":"1"},{"N":"2"},{"S":"2"}]}}})");
  EXPECT_EQ(400, r.status) << r.Describe();
  EXPECT_EQ(same_type, r.Message());
  r = server_.Call("Scan", R"({"TableName":"rtab","ScanFilter":{"v":{"ComparisonOperator":"BETWEEN",)"
                           R"("AttributeValueList":[{"N":"1"},{"S":"2"}]}}})");
  EXPECT_EQ(same_type, r.Message());
  r = server_.Call("Query", R"({"TableName":"rtab","KeyConditionExpression":"pk = :p",)"
                            R"("ExpressionAttributeValues":{":p":{"S":"p0"}},)"
                            R"("QueryFilter":{"v":{"ComparisonOperator":"IN",)"
                            R"("AttributeValueList":[{"S":"1"},{"B":"AA=="}]}}})");
  EXPECT_EQ(400, r.status) << r.Describe();
}

TEST_F(ScanTest, LegacyScanFilterWithConditionalOperator) {
  FillRange(2, 10);
  HttpResult r = server_.Call(
      "Scan", R"({"TableName":"rtab","ScanFilter":{"v":{"ComparisonOperator":"LT","AttributeValueList":[{"N":"2"}]},)"
              R"("sk":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"9"}]}},"ConditionalOperator":"OR"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(4u, r.json["Count"].GetUint());  // v 0 and 1 (partition 0), sk 9 in each partition
  EXPECT_EQ(20u, r.json["ScannedCount"].GetUint());
}

TEST_F(ScanTest, ABadRequestLeavesTheServerServing) {
  FillRange(1, 3);
  HttpResult r = server_.Call("Scan", R"({"TableName":"rtab","FilterExpression":"v = = 1"})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  r = server_.Call("Scan", R"({"TableName":"rtab"})");
  EXPECT_EQ(3u, r.json["Count"].GetUint());
}

// Model-based: random tables and Scans, each page checked against the brute-force model of
// tests/http/pagination_model_util.h over the order of a full Scan (the hash order is not modelled). Fixed seeds, so
// that a failure (which names its seed) reproduces.

class ScanModelTest : public ::testing::Test {
 protected:
  // The seed's server (max_page_bytes lowered for odd seeds: pages are then cut by size) and random table, and
  // the order of its full Scan, checked to hold every item exactly once.
  void Load(uint32_t seed) {
    rng_.seed(seed);
    TestServerOptions options;
    if (seed % 2) options.max_page_bytes = SmallPageBytes(seed);
    server_ = std::make_unique<TestServer>(options);
    table_ = RandomTable(rng_, "model", ShapeOfSeed(seed));
    ASSERT_TRUE(LoadTable(*server_, table_));
    whole_ = ReadWhole(ModelRead::FullScan());
    ASSERT_EQ("", CheckScanOrder(table_, whole_));
  }

  // Every item of the read's pages, in order; the read's pages are checked against the model of that order.
  std::vector<const ModelItem*> ReadWhole(const ModelRead& read) {
    std::string error;
    std::vector<const ModelItem*> order =
        ItemsOfPages(table_, ReadAllPages(*server_, "Scan", read.Json(table_)), &error);
    EXPECT_EQ("", error) << read.Json(table_);
    EXPECT_EQ("", CheckRead(*server_, table_, read, order, &coverage_));
    return order;
  }

  std::mt19937 rng_;
  std::unique_ptr<TestServer> server_;
  ModelTable table_;
  std::vector<const ModelItem*> whole_;
  ModelCoverage coverage_;
};

TEST_F(ScanModelTest, LimitedPagesConcatenateToTheUnlimitedScan) {
  for (uint32_t seed = 301; seed <= 312; seed++) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_NO_FATAL_FAILURE(Load(seed));
    for (int i = 0; i < 15; i++) {
      ModelRead read = RandomScan(rng_);
      EXPECT_EQ("", CheckRead(*server_, table_, read, whole_, &coverage_)) << "scan " << i + 1;
    }
  }
  EXPECT_GT(coverage_.exhausted_by_limit, 0);
  EXPECT_GT(coverage_.filtered_empty, 0);
  EXPECT_GT(coverage_.size_stops, 20);
}

// Segments are consecutive ranges of the partition hash (docs/behaviour.md §6.2), so in segment order they make exactly
// the full Scan's order.
TEST_F(ScanModelTest, ParallelSegmentsCoverEveryItemExactlyOnce) {
  for (uint32_t seed = 401; seed <= 416; seed++) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_NO_FATAL_FAILURE(Load(seed));
    int total = std::uniform_int_distribution<int>(1, 8)(rng_);
    std::vector<const ModelItem*> segments;
    for (int segment = 0; segment < total; segment++) {
      SCOPED_TRACE("Segment " + std::to_string(segment) + " of " + std::to_string(total));
      ModelRead whole = ModelRead::FullScan();
      whole.segment = segment;
      whole.total_segments = total;
      std::vector<const ModelItem*> order = ReadWhole(whole);
      ModelRead read = RandomScan(rng_);
      read.segment = segment;
      read.total_segments = total;
      EXPECT_EQ("", CheckRead(*server_, table_, read, order, &coverage_));
      segments.insert(segments.end(), order.begin(), order.end());
    }
    EXPECT_EQ("", CheckScanOrder(table_, segments));
    EXPECT_EQ("", CompareOrders(table_, whole_, segments));
  }
}

}  // namespace
}  // namespace dynapage
