// Reading secondary indexes through HTTP: Query and Scan with IndexName (issue 5, items 3 and 4). Order and
// ties, LastEvaluatedKey shapes (§3.1), ExclusiveStartKey checks (§3.2), ConsistentRead (§7.2), Select (§4),
// LSI fetches of the base item and their capacity (§7.3), parallel Scan of an index (§6.2), and the page size
// limit counting the projected entry (§1.4).

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tests/http/index_test_util.h"
#include "tests/http/pagination_model_util.h"

namespace dynapage {
namespace {

using Strings = std::vector<std::string>;

const char kStartInvalid[] = "The provided starting key is invalid";
const char kNoMatch[] = "The provided key element does not match the schema";
const char kStartNoMatch[] = "The provided starting key is invalid: The provided key element does not match the schema";

class IndexReadTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(200, CreateIndexedTable(server_, "tab").status); }
  void Put(const std::string& item) {
    HttpResult r = server_.Call("PutItem", R"({"TableName":"tab","Item":)" + item + "}");
    ASSERT_EQ(200, r.status) << r.Describe();
  }
  // An item with the given keys (gpk, gsk, lsk omitted when empty) and extra attributes (JSON members).
  void PutItem(const std::string& pk, int sk, const std::string& gpk, const std::string& gsk,
               const std::string& lsk = "", const std::string& extra = "") {
    std::string item = R"({"pk":{"S":")" + pk + R"("},"sk":{"N":")" + std::to_string(sk) + R"("})";
    if (!gpk.empty()) item += R"(,"gpk":{"S":")" + gpk + R"("})";
    if (!gsk.empty()) item += R"(,"gsk":{"N":")" + gsk + R"("})";
    if (!lsk.empty()) item += R"(,"lsk":{"S":")" + lsk + R"("})";
    Put(item + extra + "}");
  }
  HttpResult Call(const std::string& op, const std::string& body) { return server_.Call(op, body); }
  // "pk/sk" of every item of the pages.
  static Strings ItemKeys(const std::vector<HttpResult>& pages) {
    Strings pks = Values(pages, "pk"), sks = Values(pages, "sk"), out;
    for (size_t i = 0; i < pks.size(); i++) out.push_back(pks[i] + "/" + sks[i]);
    return out;
  }

  TestServer server_;
};

const char kQueryG[] =
    R"({"TableName":"tab","IndexName":"by_gpk","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}})";

// Entries with equal index keys come in table-key order (pk bytes, then sk numerically), forward and backward,
// and a Limit that cuts through the ties resumes exactly where it stopped.
TEST_F(IndexReadTest, GlobalIndexTiesInTableKeyOrderAcrossPages) {
  using Entry = std::tuple<int, std::string, int>;  // gsk, pk, sk
  std::vector<Entry> expected;
  for (int i = 0; i < 45; i++) {
    int gsk = i % 9 == 0 ? 0 : i % 9 == 1 ? 2 : 1;
    std::string pk = "p" + std::to_string(i % 4);
    PutItem(pk, i, "g", std::to_string(gsk));
    expected.emplace_back(gsk, pk, i);
  }
  PutItem("other", 1, "h", "1");
  std::sort(expected.begin(), expected.end());
  Strings forward;
  for (const auto& [gsk, pk, sk] : expected) forward.push_back(pk + "/" + std::to_string(sk));
  Strings backward(forward.rbegin(), forward.rend());

  std::string body = std::string(kQueryG, sizeof(kQueryG) - 2) + R"(,"Limit":7})";
  std::vector<HttpResult> pages = ReadAllPages(server_, "Query", body);
  EXPECT_EQ(forward, ItemKeys(pages)) << pages.back().Describe();
  ASSERT_EQ(7u, pages.size());  // 45 = 6 × 7 + 3
  const auto& lek = pages[0].json["LastEvaluatedKey"];
  EXPECT_EQ(4u, lek.MemberCount()) << LastKey(pages[0]);
  const auto& seventh = pages[0].json["Items"][6];
  for (const char* name : {"gpk", "gsk", "pk", "sk"}) EXPECT_EQ(JsonText(seventh[name]), JsonText(lek[name])) << name;

  body = std::string(kQueryG, sizeof(kQueryG) - 2) + R"(,"Limit":7,"ScanIndexForward":false})";
  EXPECT_EQ(backward, ItemKeys(ReadAllPages(server_, "Query", body)));
  // A hash-only GSI: one partition of 46 items, ordered by the table key.
  pages = ReadAllPages(server_, "Query", R"({"TableName":"tab","IndexName":"gpk_keys","Limit":5,
      "KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}})");
  Strings by_table_key = forward;
  std::sort(by_table_key.begin(), by_table_key.end(), [](const std::string& a, const std::string& b) {
    auto split = [](const std::string& s) { return std::make_pair(s.substr(0, 2), std::stoi(s.substr(3))); };
    return split(a) < split(b);
  });
  EXPECT_EQ(by_table_key, ItemKeys(pages));
  EXPECT_EQ(3u, pages[0].json["LastEvaluatedKey"].MemberCount()) << LastKey(pages[0]);  // gpk, pk, sk
}

// §3.1: an LSI's LastEvaluatedKey is the table key plus the index sort key; a GSI Scan's has all four.
TEST_F(IndexReadTest, LastEvaluatedKeyShapes) {
  for (int i = 0; i < 5; i++) PutItem("a", i, "g", std::to_string(10 - i), "x" + std::to_string(9 - i));
  HttpResult r = Call("Query", R"({"TableName":"tab","IndexName":"by_lsk","Limit":2,
      "KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})");
  EXPECT_EQ((Strings{"x5", "x6"}), Values(r, "lsk"));
  EXPECT_EQ(Canonical(R"({"lsk":{"S":"x6"},"pk":{"S":"a"},"sk":{"N":"3"}})"), LastKey(r));
  r = Call("Scan", R"({"TableName":"tab","IndexName":"by_gpk","Limit":1})");
  EXPECT_EQ(Canonical(R"({"gpk":{"S":"g"},"gsk":{"N":"6"},"pk":{"S":"a"},"sk":{"N":"4"}})"), LastKey(r));
  r = Call("Scan", R"({"TableName":"tab","IndexName":"gpk_keys","Limit":1})");
  EXPECT_EQ(Canonical(R"({"gpk":{"S":"g"},"pk":{"S":"a"},"sk":{"N":"0"}})"), LastKey(r));
  // A KEYS_ONLY entry holds the index and table keys only.
  EXPECT_EQ(Canonical(R"([{"gpk":{"S":"g"},"pk":{"S":"a"},"sk":{"N":"0"}}])"), JsonText(r.json["Items"]));
  // The LSI orders by its sort key within the partition; the whole LSI can be scanned page by page.
  EXPECT_EQ((Strings{"x5", "x6", "x7", "x8", "x9"}),
            Values(ReadAllPages(server_, "Scan", R"({"TableName":"tab","IndexName":"by_lsk","Limit":2})"), "lsk"));
}

// §6.2: the segments of an index split its entries by the hash of the index partition key.
TEST_F(IndexReadTest, ParallelScanOfAnIndex) {
  std::set<std::string> all;
  for (int i = 0; i < 120; i++) {
    PutItem("p" + std::to_string(i % 7), i, "g" + std::to_string(i % 23), std::to_string(i % 3));
    all.insert("p" + std::to_string(i % 7) + "/" + std::to_string(i));
  }
  PutItem("sparse", 1, "", "");  // in no GSI
  std::multiset<std::string> seen;
  std::string first_segment_key;
  for (int segment = 0; segment < 4; segment++) {
    std::vector<HttpResult> pages = ReadAllPages(
        server_, "Scan", R"({"TableName":"tab","IndexName":"by_gpk","Limit":9,"TotalSegments":4,"Segment":)" +
                             std::to_string(segment) + "}");
    ASSERT_EQ(200, pages.back().status) << pages.back().Describe();
    for (const auto& key : ItemKeys(pages)) seen.insert(key);
    if (segment == 0 && pages.size() > 1) first_segment_key = LastKey(pages[0]);
  }
  EXPECT_EQ(std::multiset<std::string>(all.begin(), all.end()), seen);
  ASSERT_FALSE(first_segment_key.empty());
  HttpResult r = CallFrom(server_, "Scan", R"({"TableName":"tab","IndexName":"by_gpk","TotalSegments":4,"Segment":1})",
                          first_segment_key);
  EXPECT_EQ("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with "
            "correct Segment. TotalSegments: 4 Segment: 1",
            r.Message());
}

// §3.2: ExclusiveStartKey checks on index reads, Query and Scan wordings.
TEST_F(IndexReadTest, StartKeyValidationOnIndexes) {
  PutItem("a", 1, "g", "5", "x");
  struct Case {
    std::string op, body, start_key, message;
  };
  const std::string query = kQueryG;
  const std::string scan = R"({"TableName":"tab","IndexName":"by_gpk"})";
  const std::string ok_keys = R"("gpk":{"S":"g"},"gsk":{"N":"5"},"pk":{"S":"a"})";
  const std::vector<Case> cases = {
      // Wrong set of attributes.
      {"Query", query, R"({"pk":{"S":"a"},"sk":{"N":"1"}})", kStartInvalid},
      {"Scan", scan, R"({"pk":{"S":"a"},"sk":{"N":"1"}})", kStartInvalid},
      {"Query", query, "{" + ok_keys + "}", kStartInvalid},
      {"Query", query, "{" + ok_keys + R"(,"sk":{"N":"1"},"x":{"S":"y"}})", kStartInvalid},
      {"Query", query, R"({"gpk":{"S":"g"},"other":{"N":"5"},"pk":{"S":"a"},"sk":{"N":"1"}})", kStartInvalid},
      {"Scan", scan, R"({"gpk":{"S":"g"},"other":{"N":"5"},"pk":{"S":"a"},"sk":{"N":"1"}})", kStartInvalid},
      // An index key of the wrong type.
      {"Query", query, R"({"gpk":{"N":"1"},"gsk":{"N":"5"},"pk":{"S":"a"},"sk":{"N":"1"}})", kNoMatch},
      {"Scan", scan, R"({"gpk":{"S":"g"},"gsk":{"S":"5"},"pk":{"S":"a"},"sk":{"N":"1"}})", kNoMatch},
      // The table key part missing or of the wrong type.
      {"Query", query, R"({"gpk":{"S":"g"},"gsk":{"N":"5"},"pk":{"N":"1"},"sk":{"N":"1"}})", kStartNoMatch},
      {"Scan", scan, R"({"gpk":{"S":"g"},"gsk":{"N":"5"},"pk":{"S":"a"},"sk":{"S":"1"}})", kStartNoMatch},
      {"Query", query, "{" + ok_keys + R"(,"other":{"N":"1"}})", kStartNoMatch},
      // Empty key values: the table key's error carries the prefix on an index read.
      {"Query", query, R"({"gpk":{"S":"g"},"gsk":{"N":"5"},"pk":{"S":""},"sk":{"N":"1"}})",
       "The provided starting key is invalid: One or more parameter values are not valid. The AttributeValue for a "
       "key attribute cannot contain an empty string value. Key: pk"},
      {"Scan", scan, R"({"gpk":{"S":""},"gsk":{"N":"5"},"pk":{"S":"a"},"sk":{"N":"1"}})",
       "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty "
       "string value. Key: gpk"},
      // Against the key condition.
      {"Query", query, R"({"gpk":{"S":"h"},"gsk":{"N":"5"},"pk":{"S":"a"},"sk":{"N":"1"}})",
       "The provided starting key is outside query boundaries based on provided conditions"},
      {"Query",
       R"({"TableName":"tab","IndexName":"by_gpk","KeyConditionExpression":"gpk = :g AND gsk > :n","ExpressionAttributeValues":{":g":{"S":"g"},":n":{"N":"5"}}})",
       R"({"gpk":{"S":"g"},"gsk":{"N":"4"},"pk":{"S":"a"},"sk":{"N":"1"}})",
       "The provided starting key does not match the range key predicate"},
      {"Query",
       R"({"TableName":"tab","IndexName":"by_gpk","KeyConditionExpression":"gpk = :g AND gsk > :n","ExpressionAttributeValues":{":g":{"S":"g"},":n":{"N":"5"}}})",
       R"({"gpk":{"S":"h"},"gsk":{"N":"6"},"pk":{"S":"a"},"sk":{"N":"1"}})",
       "The query can return at most one row and cannot be restarted"},
      // LSI: the index sort key is the one extra attribute.
      {"Query",
       R"({"TableName":"tab","IndexName":"by_lsk","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})",
       R"({"pk":{"S":"a"},"sk":{"N":"1"}})", kStartInvalid},
      {"Query",
       R"({"TableName":"tab","IndexName":"by_lsk","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})",
       R"({"pk":{"S":"a"},"sk":{"N":"1"},"lsk":{"N":"1"}})", kNoMatch},
      // The base table's Scan words a wrong set differently.
      {"Scan", R"({"TableName":"tab"})", R"({"pk":{"S":"a"}})", kStartNoMatch},
  };
  for (const auto& c : cases) {
    HttpResult r = CallFrom(server_, c.op, c.body, c.start_key);
    EXPECT_EQ("ValidationException", r.ErrorName()) << c.op << " " << c.start_key << " -> " << r.Describe();
    EXPECT_EQ(c.message, r.Message()) << c.op << " " << c.body << " from " << c.start_key;
  }
  // Well-formed start keys need not exist; a hash-only GSI's Query takes one (it is not a hash-only table).
  HttpResult r =
      CallFrom(server_, "Query", query, R"({"gpk":{"S":"g"},"gsk":{"N":"4"},"pk":{"S":"zzz"},"sk":{"N":"9"}})");
  EXPECT_EQ((Strings{"a"}), Values(r, "pk")) << r.Describe();
  r = CallFrom(server_, "Query", R"({"TableName":"tab","IndexName":"gpk_keys","KeyConditionExpression":"gpk = :g",
      "ExpressionAttributeValues":{":g":{"S":"g"}}})", R"({"gpk":{"S":"g"},"pk":{"S":"a"},"sk":{"N":"0"}})");
  EXPECT_EQ((Strings{"a"}), Values(r, "pk")) << r.Describe();
}

// §7.2.
TEST_F(IndexReadTest, ConsistentReadAndUnknownIndex) {
  PutItem("a", 1, "g", "5", "x");
  const std::string message = "Consistent reads are not supported on global secondary indexes";
  HttpResult r = Call("Query", std::string(kQueryG, sizeof(kQueryG) - 2) + R"(,"ConsistentRead":true})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(message, r.Message());
  EXPECT_EQ(message, Call("Scan", R"({"TableName":"tab","IndexName":"gpk_keys","ConsistentRead":true})").Message());
  r = Call("Query", R"({"TableName":"tab","IndexName":"by_lsk","ConsistentRead":true,
      "KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})");
  EXPECT_EQ(1, r.json["Count"].GetInt()) << r.Describe();
  EXPECT_EQ(200, Call("Scan", R"({"TableName":"tab","IndexName":"by_lsk","ConsistentRead":true})").status);
  EXPECT_EQ("The table does not have the specified index: nope",
            Call("Scan", R"({"TableName":"tab","IndexName":"nope"})").Message());
  EXPECT_EQ("The table does not have the specified index: nope",
            Call("Query", R"({"TableName":"tab","IndexName":"nope","KeyConditionExpression":"pk = :p",
                "ExpressionAttributeValues":{":p":{"S":"a"}}})").Message());
  EXPECT_EQ("Requested resource not found",
            Call("Scan", R"({"TableName":"nope","IndexName":"by_gpk","ConsistentRead":true})").Message());
}

// §4: Select on indexes, and the order in which its GSI check comes (after the start key and the key checks).
TEST_F(IndexReadTest, SelectRules) {
  PutItem("a", 1, "g", "5", "x", R"(,"a":{"S":"A"},"b":{"S":"B"})");
  const std::string gsi_all = "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not "
                              "supported for global secondary index gpk_keys because its projection type is not ALL";
  const std::string keys_query = R"({"TableName":"tab","IndexName":"gpk_keys","KeyConditionExpression":"gpk = :g",
      "ExpressionAttributeValues":{":g":{"S":"g"}}})";
  auto with = [](const std::string& body, const std::string& member) {
    return body.substr(0, body.size() - 1) + "," + member + "}";
  };
  EXPECT_EQ(gsi_all, Call("Query", with(keys_query, R"("Select":"ALL_ATTRIBUTES")")).Message());
  EXPECT_EQ(gsi_all, Call("Scan", R"({"TableName":"tab","IndexName":"gpk_keys","Select":"ALL_ATTRIBUTES"})").Message());
  EXPECT_EQ("1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
            Call("Query", R"({"TableName":"tab","Select":"ALL_PROJECTED_ATTRIBUTES","KeyConditionExpression":"pk = :p",
                "ExpressionAttributeValues":{":p":{"S":"a"}}})").Message());
  EXPECT_EQ("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
            Call("Scan", R"({"TableName":"tab","Select":"ALL_PROJECTED_ATTRIBUTES"})").Message());
  // The start key and the filter-on-key checks come first.
  EXPECT_EQ(kStartInvalid,
            CallFrom(server_, "Scan", R"({"TableName":"tab","IndexName":"gpk_keys","Select":"ALL_ATTRIBUTES"})",
                     R"({"pk":{"S":"a"},"sk":{"N":"1"}})")
                .Message());
  EXPECT_EQ("Filter Expression can only contain non-primary key attributes: Primary key attribute: gpk",
            Call("Query", with(keys_query, R"x("Select":"ALL_ATTRIBUTES","FilterExpression":"attribute_exists(gpk)")x"))
                .Message());
  // What each Select returns.
  const std::string keys_only = Canonical(R"([{"gpk":{"S":"g"},"pk":{"S":"a"},"sk":{"N":"1"}}])");
  EXPECT_EQ(keys_only, JsonText(Call("Query", keys_query + "").json["Items"]));
  EXPECT_EQ(keys_only,
            JsonText(Call("Query", with(keys_query, R"("Select":"ALL_PROJECTED_ATTRIBUTES")")).json["Items"]));
  HttpResult r = Call("Query", std::string(kQueryG, sizeof(kQueryG) - 2) + R"(,"Select":"ALL_ATTRIBUTES"})");
  EXPECT_EQ((Strings{"B"}), Values(r, "b")) << r.Describe();
  // Projected attributes may be asked for by name.
  r = Call("Query", with(keys_query, R"("ProjectionExpression":"gpk, pk")"));
  EXPECT_EQ(Canonical(R"([{"gpk":{"S":"g"},"pk":{"S":"a"}}])"), JsonText(r.json["Items"])) << r.Describe();
}

// Asking a GSI for attributes it does not project is refused, never answered with empty items.
TEST_F(IndexReadTest, GlobalIndexRefusesAttributesItDoesNotProject) {
  PutItem("a", 1, "g", "5", "x", R"(,"a":{"S":"A"},"b":{"S":"B"})");
  const std::string refused =
      "One or more parameter values were invalid: Global secondary index gpk_keys does not project [b]";
  const std::string keys_query = R"("TableName":"tab","IndexName":"gpk_keys","KeyConditionExpression":"gpk = :g",)"
                                 R"("ExpressionAttributeValues":{":g":{"S":"g"}})";
  HttpResult r = Call("Query", "{" + keys_query + R"(,"ProjectionExpression":"pk, b.c"})");
  EXPECT_EQ(400, r.status) << r.Describe();
  EXPECT_EQ(refused, r.Message());
  EXPECT_EQ(refused, Call("Query", "{" + keys_query + R"(,"Select":"SPECIFIC_ATTRIBUTES","ProjectionExpression":"b"})")
                         .Message());
  EXPECT_EQ(refused, Call("Scan", R"({"TableName":"tab","IndexName":"gpk_keys","AttributesToGet":["pk","b"]})")
                         .Message());
}

// An LSI read of attributes outside its projection fetches the base item, whose read is charged to the table.
TEST_F(IndexReadTest, LocalIndexFetchesBaseItemsAndChargesTheTable) {
  PutItem("a", 1, "g", "5", "x", R"(,"a":{"S":"A"},"b":{"S":"B"})");
  const std::string lsi = R"({"TableName":"tab","IndexName":"by_lsk","ReturnConsumedCapacity":"INDEXES",
      "KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})";
  auto with = [&](const std::string& member) { return lsi.substr(0, lsi.size() - 1) + "," + member + "}"; };
  auto units = [](const HttpResult& r, const std::string& part) {
    const auto& c = r.json["ConsumedCapacity"];
    if (part == "total") return c["CapacityUnits"].GetDouble();
    if (part == "table") return c["Table"]["CapacityUnits"].GetDouble();
    return c["LocalSecondaryIndexes"][part.c_str()]["CapacityUnits"].GetDouble();
  };
  HttpResult r = Call("Query", lsi);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"a":{"S":"A"},"lsk":{"S":"x"},"pk":{"S":"a"},"sk":{"N":"1"}}])"), JsonText(r.json["Items"]));
  EXPECT_EQ(0.5, units(r, "total"));
  EXPECT_EQ(0.0, units(r, "table"));
  EXPECT_EQ(0.5, units(r, "by_lsk"));
  EXPECT_FALSE(r.json["ConsumedCapacity"].HasMember("GlobalSecondaryIndexes"));

  r = Call("Query", with(R"("Select":"ALL_ATTRIBUTES")"));
  EXPECT_EQ((Strings{"B"}), Values(r, "b")) << r.Describe();
  EXPECT_EQ(7u, r.json["Items"][0].MemberCount());
  EXPECT_EQ(1.0, units(r, "total"));
  EXPECT_EQ(0.5, units(r, "table"));
  EXPECT_EQ(0.5, units(r, "by_lsk"));
  r = Call("Query", with(R"("Select":"ALL_ATTRIBUTES","ConsistentRead":true)"));
  EXPECT_EQ(2.0, units(r, "total"));

  r = Call("Query", with(R"("ProjectionExpression":"b, lsk")"));
  EXPECT_EQ(Canonical(R"([{"b":{"S":"B"},"lsk":{"S":"x"}}])"), JsonText(r.json["Items"])) << r.Describe();
  EXPECT_EQ(0.5, units(r, "table"));
  // A filter on an attribute outside the projection reads it from the base item.
  auto filtered = [&](const std::string& b) {
    return Call("Query", R"({"TableName":"tab","IndexName":"by_lsk","KeyConditionExpression":"pk = :p",
        "FilterExpression":"b = :b","ExpressionAttributeValues":{":p":{"S":"a"},":b":{"S":")" + b + R"("}}})");
  };
  r = filtered("B");
  EXPECT_EQ(1, r.json["Count"].GetInt()) << r.Describe();
  EXPECT_EQ((Strings{"-"}), Values(r, "b"));  // not returned: the answer keeps the index's projection
  r = filtered("C");
  EXPECT_EQ(0, r.json["Count"].GetInt()) << r.Describe();
  EXPECT_EQ(1, r.json["ScannedCount"].GetInt());

  // A GSI read is charged to the index alone.
  r = Call("Query", std::string(kQueryG, sizeof(kQueryG) - 2) + R"(,"ReturnConsumedCapacity":"INDEXES"})");
  EXPECT_EQ(0.0, r.json["ConsumedCapacity"]["Table"]["CapacityUnits"].GetDouble()) << r.body;
  EXPECT_EQ(0.5, r.json["ConsumedCapacity"]["GlobalSecondaryIndexes"]["by_gpk"]["CapacityUnits"].GetDouble());
  EXPECT_EQ(0.5, r.json["ConsumedCapacity"]["CapacityUnits"].GetDouble());
}

// Item 6 on an LSI: DynamoDB fetches what the index does not project from the table, for Scan as for Query, and
// for AttributesToGet and a legacy ScanFilter as for expressions; never an error, never an empty item. The
// fetched items are charged to the table, the index entries to the index.
TEST_F(IndexReadTest, LocalIndexScanFetchesWhatItDoesNotProject) {
  PutItem("a", 1, "g", "5", "x", R"(,"a":{"S":"A"},"b":{"S":"B"})");
  PutItem("a", 2, "g", "6", "y", R"(,"b":{"S":"C"})");
  PutItem("c", 3, "g", "7");  // no lsk: not in the index
  const std::string scan = R"({"TableName":"tab","IndexName":"by_lsk","ReturnConsumedCapacity":"INDEXES")";
  HttpResult r = Call("Scan", scan + R"(,"AttributesToGet":["pk","b"]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"b":{"S":"B"},"pk":{"S":"a"}},{"b":{"S":"C"},"pk":{"S":"a"}}])"), JsonText(r.json["Items"]));
  EXPECT_EQ(0.5, r.json["ConsumedCapacity"]["Table"]["CapacityUnits"].GetDouble()) << r.body;
  EXPECT_EQ(0.5, r.json["ConsumedCapacity"]["LocalSecondaryIndexes"]["by_lsk"]["CapacityUnits"].GetDouble());

  r = Call("Scan", scan + R"(,"Select":"ALL_ATTRIBUTES"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ((Strings{"B", "C"}), Values(r, "b"));
  EXPECT_EQ((Strings{"5", "6"}), Values(r, "gsk"));

  // Projected attributes alone: no fetch, nothing charged to the table.
  r = Call("Scan", scan + R"(,"ProjectionExpression":"pk, lsk, a"})");
  EXPECT_EQ(Canonical(R"([{"a":{"S":"A"},"lsk":{"S":"x"},"pk":{"S":"a"}},{"lsk":{"S":"y"},"pk":{"S":"a"}}])"),
            JsonText(r.json["Items"])) << r.Describe();
  EXPECT_EQ(0.0, r.json["ConsumedCapacity"]["Table"]["CapacityUnits"].GetDouble());

  // A legacy filter on an attribute the index does not hold reads it from the table; the answer keeps the
  // index's projection.
  r = Call("Scan", R"({"TableName":"tab","IndexName":"by_lsk",
      "ScanFilter":{"b":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"C"}]}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(1, r.json["Count"].GetInt());
  EXPECT_EQ(2, r.json["ScannedCount"].GetInt());
  EXPECT_EQ(Canonical(R"([{"lsk":{"S":"y"},"pk":{"S":"a"},"sk":{"N":"2"}}])"), JsonText(r.json["Items"]));
}

// Query must not filter on the queried index's keys; the table's keys are ordinary attributes there.
TEST_F(IndexReadTest, FilterOnIndexKeysAndKeyConditions) {
  PutItem("a", 1, "g", "5");
  const std::string body = std::string(kQueryG, sizeof(kQueryG) - 2);
  EXPECT_EQ("Filter Expression can only contain non-primary key attributes: Primary key attribute: gsk",
            Call("Query", body + R"x(,"FilterExpression":"attribute_exists(gsk)"})x").Message());
  HttpResult r = Call("Query", body + R"(,"FilterExpression":"pk = :g"})");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(0, r.json["Count"].GetInt());
  EXPECT_EQ("Query condition missed key schema element: gpk",
            Call("Query", R"({"TableName":"tab","IndexName":"by_gpk","KeyConditionExpression":"pk = :p",
                "ExpressionAttributeValues":{":p":{"S":"a"}}})").Message());
}

// §1.4: the page limit counts the stored entry, which for an index is the projected entry.
TEST(IndexPageSizeTest, PageLimitCountsProjectedEntries) {
  TestServerOptions options;
  options.max_page_bytes = 2000;
  TestServer server(options);
  ASSERT_EQ(200, CreateIndexedTable(server, "tab").status);
  const std::string payload(1500, 'x');
  for (int i = 0; i < 10; i++) {
    HttpResult r = server.Call(
        "PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"a"},"sk":{"N":")" + std::to_string(i) +
                       R"("},"gpk":{"S":"g"},"gsk":{"N":"1"},"lsk":{"S":"l"},"b":{"S":")" + payload + R"("}}})");
    ASSERT_EQ(200, r.status) << r.Describe();
  }
  auto page_sizes = [&](const std::string& op, const std::string& body) {
    std::vector<size_t> sizes;
    for (const auto& page : ReadAllPages(server, op, body)) sizes.push_back(Values(page, "pk").size());
    return sizes;
  };
  using Sizes = std::vector<size_t>;
  // Whole items of ~1.5 KB: the second one crosses 2,000 bytes and ends the page.
  EXPECT_EQ((Sizes{2, 2, 2, 2, 2, 0}), page_sizes("Scan", R"({"TableName":"tab"})"));
  EXPECT_EQ((Sizes{2, 2, 2, 2, 2, 0}), page_sizes("Scan", R"({"TableName":"tab","IndexName":"by_gpk"})"));
  // Entries without the payload all fit in one page.
  EXPECT_EQ(Sizes{10}, page_sizes("Scan", R"({"TableName":"tab","IndexName":"gpk_keys"})"));
  EXPECT_EQ(Sizes{10},
            page_sizes("Query", R"({"TableName":"tab","IndexName":"by_lsk","KeyConditionExpression":"pk = :p",
      "ExpressionAttributeValues":{":p":{"S":"a"}}})"));
  // Select=COUNT pages the same way.
  std::vector<HttpResult> pages = ReadAllPages(server, "Query", R"({"TableName":"tab","IndexName":"gpk_keys",
      "Select":"COUNT","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}})");
  ASSERT_EQ(1u, pages.size());
  EXPECT_EQ(10, pages[0].json["Count"].GetInt()) << pages[0].Describe();
  pages = ReadAllPages(server, "Query", R"({"TableName":"tab","IndexName":"by_gpk",
      "Select":"COUNT","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}})");
  EXPECT_EQ(6u, pages.size());
}

// Model-based: Queries of an LSI and a GSI of random tables (index sort keys of each type, random projections,
// some items absent from each index), each page checked against the brute-force model of
// tests/http/pagination_model_util.h: order by index sort key then table key, LastEvaluatedKeys of index and table
// keys, pages cut by the projected entry's size. Fixed seeds, so that a failure (which names its seed) reproduces.
TEST(IndexModelTest, RandomIndexQueriesMatchTheModel) {
  ModelCoverage coverage;
  for (uint32_t seed = 501; seed <= 520; seed++) {
    std::mt19937 rng(seed);
    TestServerOptions options;
    if (seed % 2) options.max_page_bytes = SmallPageBytes(seed);
    TestServer server(options);
    TableShape shape = ShapeOfSeed(seed);
    shape.range = true;
    shape.indexes = true;
    ModelTable table = RandomTable(rng, "model", shape);
    ASSERT_TRUE(LoadTable(server, table)) << "seed " << seed;
    for (const ModelIndex& index : table.indexes) {
      EXPECT_EQ("", CheckRandomQueries(rng, server, table, &index, 15, 0.3, &coverage))
          << "seed " << seed << ", index " << index.name << " (" << ProjectionTypeName(index.projection) << ")";
    }
  }
  EXPECT_GT(coverage.size_stops, 10);
  EXPECT_GT(coverage.exhausted_by_limit, 0);
  EXPECT_GT(coverage.start_keys, 20);
}

}  // namespace
}  // namespace dynapage
