// Vector indexes and SearchVectors through the wire (docs/vector-search.md): declaration and its errors, the
// lifecycle, item-write checks, exact neighbours per distance function against a reference, filters,
// projections, capacity, and a property test over random vectors.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

std::string VectorIndexJson(const std::string& name, int dims, const std::string& distance,
                            const std::string& extra = "") {
  return R"({"IndexName":")" + name + R"(","VectorAttribute":{"AttributeName":"v"},"Dimensions":)" +
         std::to_string(dims) + R"(,"DistanceFunction":")" + distance + R"(","Projection":{"ProjectionType":"ALL"})" +
         extra + "}";
}

// A PAY_PER_REQUEST table "tbl" keyed on pk (S) with the given VectorIndexes JSON list and extra definitions.
HttpResult CreateVectorTable(TestServer& s, const std::string& indexes, const std::string& extra_defs = "",
                             const std::string& billing = R"("BillingMode":"PAY_PER_REQUEST")") {
  return s.Call("CreateTable",
                R"({"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"})" +
                    extra_defs + R"(],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)" + billing +
                    R"(,"VectorIndexes":)" + indexes + "}");
}

std::string VectorJson(const std::vector<double>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); i++) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v[i]);
    out += std::string(i ? "," : "") + R"({"N":")" + buf + R"("})";
  }
  return out + "]";
}

void Put(TestServer& s, const std::string& pk, const std::vector<double>& v, const std::string& extra = "") {
  auto r = s.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":")" + pk + R"("},"v":{"L":)" + VectorJson(v) +
                                 "}" + extra + "}}");
  ASSERT_EQ(200, r.status) << r.Describe();
}

HttpResult Search(TestServer& s, const std::vector<double>& q, int top_k, const std::string& extra = "",
                  const std::string& index = "vec") {
  return s.Call("SearchVectors", R"({"TableName":"tbl","IndexName":")" + index + R"(","SearchVector":)" +
                                     VectorJson(q) + R"(,"TopK":)" + std::to_string(top_k) + extra + "}");
}

std::vector<std::string> Keys(const HttpResult& r) {
  std::vector<std::string> keys;
  for (const auto& m : r.json["SearchResults"].GetArray()) keys.push_back(m["Item"]["pk"]["S"].GetString());
  return keys;
}

std::vector<double> Scores(const HttpResult& r) {
  std::vector<double> scores;
  for (const auto& m : r.json["SearchResults"].GetArray()) scores.push_back(m["Score"].GetDouble());
  return scores;
}

void PutChecklistItems(TestServer& s) {
  Put(s, "a", {1, 0, 0});
  Put(s, "b", {0, 1, 0});
  Put(s, "c", {-1, 0, 0});
  Put(s, "d", {0.6, 0.8, 0});
}

TEST(VectorSearch, CreateTableShowsTheIndexCreatingThenActive) {
  TestServer s;
  auto r = CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "]");
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& created = r.json["TableDescription"]["VectorIndexes"][0];
  EXPECT_EQ("CREATING", std::string(created["IndexStatus"].GetString()));
  EXPECT_FALSE(created.HasMember("Backfilling"));
  r = s.Call("DescribeTable", R"({"TableName":"tbl"})");
  const auto& index = r.json["Table"]["VectorIndexes"][0];
  EXPECT_EQ("ACTIVE", std::string(index["IndexStatus"].GetString()));
  EXPECT_FALSE(index.HasMember("Backfilling"));
  EXPECT_EQ(3, index["Dimensions"].GetInt());
  EXPECT_EQ("COSINE", std::string(index["DistanceFunction"].GetString()));
  EXPECT_EQ("v", std::string(index["VectorAttribute"]["AttributeName"].GetString()));
  std::string arn = index["IndexArn"].GetString();
  EXPECT_EQ("/index/vec", arn.substr(arn.size() - 10));
}

TEST(VectorSearch, DeclarationErrors) {
  TestServer s;
  auto r = CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "]", "",
                             R"("ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1})");
  EXPECT_EQ("One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables",
            r.Message());
  r = CreateVectorTable(s, "[" + VectorIndexJson("vec", 4097, "COSINE") + "]");
  EXPECT_EQ("One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 inclusive.",
            r.Message());
  r = CreateVectorTable(s, "[" + VectorIndexJson("vec", 0, "COSINE") + "]");
  EXPECT_EQ(
      "1 validation error detected: Value '0' at 'vectorIndexes.1.member.dimensions' failed to satisfy "
      "constraint: Member must have value greater than or equal to 1",
      r.Message());
  r = CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "MANHATTAN") + "]");
  EXPECT_NE(std::string::npos, r.Message().find("Member must satisfy enum value set: [COSINE, DOT_PRODUCT, EUCLIDEAN]"))
      << r.Message();
  r = CreateVectorTable(s, "[]");
  EXPECT_EQ("One or more parameter values were invalid: List of VectorIndexes is empty", r.Message());
  std::string six;
  for (int i = 0; i < 6; i++) six += (i ? "," : "") + VectorIndexJson("vec" + std::to_string(i), 3, "COSINE");
  r = CreateVectorTable(s, "[" + six + "]");
  EXPECT_EQ("One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5",
            r.Message());
  r = CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "," + VectorIndexJson("vec", 3, "COSINE") + "]");
  EXPECT_EQ("One or more parameter values were invalid: Duplicate index name: vec", r.Message());
  r = CreateVectorTable(
      s, "[" +
             VectorIndexJson("vec", 3, "COSINE",
                             R"(,"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"}])") +
             "]");
  EXPECT_EQ(
      "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute "
      "definitions",
      r.Message());
  r = CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "]",
                        R"(,{"AttributeName":"v","AttributeType":"S"})");
  EXPECT_EQ(
      "One or more parameter values were invalid: Conflicting attribute definition for 'v'. An attribute cannot "
      "be defined in AttributeDefinitions when used as a VectorAttribute.",
      r.Message());
  r = CreateVectorTable(s, "[" + VectorIndexJson("vv1", 3, "COSINE") + "," + VectorIndexJson("vv2", 4, "COSINE") + "]");
  EXPECT_EQ(
      "One or more parameter values were invalid: Conflicting attribute definition for 'v'. All VectorIndexes "
      "on the same vector attribute must use the same dimensions.",
      r.Message());
  EXPECT_EQ("ValidationException", r.ErrorName());
}

TEST(VectorSearch, ChecklistScoresPerDistanceFunction) {
  TestServer s;
  ASSERT_EQ(
      200,
      CreateVectorTable(
          s,
          "[" + VectorIndexJson("vec", 3, "COSINE") + "," +
              R"({"IndexName":"veu","VectorAttribute":{"AttributeName":"v"},"Dimensions":3,"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"KEYS_ONLY"}},)" +
              R"({"IndexName":"vdp","VectorAttribute":{"AttributeName":"v"},"Dimensions":3,"DistanceFunction":"DOT_PRODUCT","Projection":{"ProjectionType":"ALL"}}])")
          .status);
  PutChecklistItems(s);
  auto r = Search(s, {1, 0, 0}, 10);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ((std::vector<std::string>{"a", "d", "b", "c"}), Keys(r));
  auto scores = Scores(r);
  EXPECT_EQ(0.0, scores[0]);
  EXPECT_NEAR(0.4, scores[1], 1e-6);
  EXPECT_EQ(1.0, scores[2]);
  EXPECT_EQ(2.0, scores[3]);
  r = Search(s, {1, 0, 0}, 10, "", "veu");
  EXPECT_EQ((std::vector<std::string>{"a", "d", "b", "c"}), Keys(r));
  scores = Scores(r);
  EXPECT_NEAR(0.894427, scores[1], 1e-5);
  EXPECT_NEAR(std::sqrt(2.0), scores[2], 1e-9);
  EXPECT_EQ(2.0, scores[3]);
  r = Search(s, {1, 0, 0}, 10, "", "vdp");
  EXPECT_EQ((std::vector<std::string>{"a", "d", "b", "c"}), Keys(r));
  EXPECT_EQ(-1.0, Scores(r)[3]);
  // A zero query under COSINE scores every item exactly 1; ties in ascending key order.
  r = Search(s, {0, 0, 0}, 10);
  EXPECT_EQ((std::vector<std::string>{"a", "b", "c", "d"}), Keys(r));
  for (double score : Scores(r)) EXPECT_EQ(1.0, score);
  r = Search(s, {1, 0, 0}, 1);
  EXPECT_EQ((std::vector<std::string>{"a"}), Keys(r));
  // The vector is left out by default, even under ALL, and given as its float copy when asked for.
  EXPECT_FALSE(r.json["SearchResults"][0]["Item"].HasMember("v"));
  r = Search(s, {1, 0, 0}, 1, R"(,"ProjectionExpression":"pk, v")");
  EXPECT_EQ(R"({"L":[{"N":"1.0"},{"N":"0.0"},{"N":"0.0"}]})", JsonText(r.json["SearchResults"][0]["Item"]["v"]));
  r = Search(s, {1, 0, 0}, 1, R"(,"ProjectionExpression":"pk, v")", "veu");  // KEYS_ONLY: no vector, no error
  EXPECT_FALSE(r.json["SearchResults"][0]["Item"].HasMember("v"));
}

TEST(VectorSearch, EveryWriteKeepsTheIndexCurrent) {
  TestServer s;
  ASSERT_EQ(200, CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "EUCLIDEAN") + "]").status);
  PutChecklistItems(s);
  ASSERT_EQ(200, s.Call("DeleteItem", R"({"TableName":"tbl","Key":{"pk":{"S":"a"}}})").status);
  EXPECT_EQ("d", Keys(Search(s, {1, 0, 0}, 1))[0]);
  ASSERT_EQ(200,
            s.Call("UpdateItem", R"({"TableName":"tbl","Key":{"pk":{"S":"d"}},"UpdateExpression":"REMOVE v"})").status);
  EXPECT_EQ("b", Keys(Search(s, {1, 0, 0}, 1))[0]);
  ASSERT_EQ(
      200,
      s.Call(
           "UpdateItem",
           R"({"TableName":"tbl","Key":{"pk":{"S":"c"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}})")
          .status);
  EXPECT_EQ("c", Keys(Search(s, {1, 0, 0}, 1))[0]);
  ASSERT_EQ(
      200,
      s.Call(
           "BatchWriteItem",
           R"({"RequestItems":{"tbl":[{"PutRequest":{"Item":{"pk":{"S":"e"},"v":{"L":[{"N":"2"},{"N":"0"},{"N":"0"}]}}}},{"DeleteRequest":{"Key":{"pk":{"S":"c"}}}}]}})")
          .status);
  EXPECT_EQ((std::vector<std::string>{"e", "b"}), Keys(Search(s, {2, 0, 0}, 5)));
  ASSERT_EQ(
      200,
      s.Call(
           "TransactWriteItems",
           R"({"TransactItems":[{"Put":{"TableName":"tbl","Item":{"pk":{"S":"f"},"v":{"L":[{"N":"3"},{"N":"0"},{"N":"0"}]}}}}]})")
          .status);
  ASSERT_EQ(200, s.Call("ExecuteStatement", R"({"Statement":"DELETE FROM \"tbl\" WHERE pk = 'e'"})").status);
  EXPECT_EQ((std::vector<std::string>{"f", "b"}), Keys(Search(s, {3, 0, 0}, 5)));
}

TEST(VectorSearch, ItemWriteErrorsRejectTheWholeRequest) {
  TestServer s;
  ASSERT_EQ(200, CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "]").status);
  auto r = s.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"},"v":{"L":[{"N":"1"},{"N":"2"}]}}})");
  EXPECT_EQ(
      "One or more parameter values were invalid. Invalid size for parameter v, Expected: 3, Actual: 2 "
      "IndexName: vec",
      r.Message());
  r = s.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"},"v":{"L":[{"N":"1"},{"S":"x"},{"N":"2"}]}}})");
  EXPECT_EQ(
      "One or more parameter values were invalid. Invalid type for parameter v[1], Expected: 32-bit floating "
      "point number, Actual: S. IndexName: vec",
      r.Message());
  r = s.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"},"v":{"S":"x"}}})");
  EXPECT_EQ(
      "One or more parameter values were invalid. Invalid type for parameter v, Expected: 32-bit floating point "
      "number list IndexName: vec",
      r.Message());
  r = s.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"},"v":{"L":[{"N":"1e39"},{"N":"0"},{"N":"0"}]}}})");
  EXPECT_NE(std::string::npos, r.Message().find("is outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: vec"))
      << r.Message();
  r = s.Call(
      "BatchWriteItem",
      R"({"RequestItems":{"tbl":[{"PutRequest":{"Item":{"pk":{"S":"ok"},"v":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}}},{"PutRequest":{"Item":{"pk":{"S":"bad"},"v":{"L":[{"N":"1"}]}}}}]}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  r = s.Call("Scan", R"({"TableName":"tbl"})");
  EXPECT_EQ(0, r.json["Count"].GetInt());
  EXPECT_EQ(0u, Keys(Search(s, {1, 0, 0}, 5)).size());
}

TEST(VectorSearch, HashAndFilterConditions) {
  TestServer s;
  ASSERT_EQ(
      200,
      CreateVectorTable(
          s,
          "[" +
              VectorIndexJson(
                  "vec", 2, "EUCLIDEAN",
                  R"(,"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"},{"AttributeName":"n","SearchSchemaElementType":"INLINE_FILTER"}])") +
              "]",
          R"(,{"AttributeName":"tenant","AttributeType":"S"},{"AttributeName":"n","AttributeType":"N"})")
          .status);
  Put(s, "a", {0, 0}, R"(,"tenant":{"S":"x"},"n":{"N":"1"})");
  Put(s, "b", {1, 0}, R"(,"tenant":{"S":"x"},"n":{"N":"2"})");
  Put(s, "c", {0, 0}, R"(,"tenant":{"S":"y"},"n":{"N":"1"})");
  Put(s, "d", {0, 0}, R"(,"tenant":{"S":"x"})");  // no filter value: excluded by a filter
  Put(s, "e", {0, 0});                            // no HASH value: never indexed
  auto r = Search(s, {0, 0}, 10);
  EXPECT_EQ("SearchConditionExpression must be provided when SearchSchema has a HASH key", r.Message());
  r = Search(s, {0, 0}, 10,
             R"(,"SearchConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"x"}})");
  EXPECT_EQ((std::vector<std::string>{"a", "d", "b"}), Keys(r));
  r = Search(
      s, {0, 0}, 10,
      R"(,"SearchConditionExpression":"tenant = :t AND n = :n","ExpressionAttributeValues":{":t":{"S":"x"},":n":{"N":"1.0"}})");
  EXPECT_EQ((std::vector<std::string>{"a"}), Keys(r));
  r = Search(s, {0, 0}, 10,
             R"(,"SearchConditionExpression":"tenant < :t","ExpressionAttributeValues":{":t":{"S":"x"}})");
  EXPECT_EQ("Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression", r.Message());
  r = Search(s, {0, 0}, 10,
             R"(,"SearchConditionExpression":"tenant = :t AND pk = :t","ExpressionAttributeValues":{":t":{"S":"x"}})");
  EXPECT_EQ(
      "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid "
      "attribute: pk",
      r.Message());
  r = Search(s, {0, 0}, 10,
             R"(,"SearchConditionExpression":"tenant = :n","ExpressionAttributeValues":{":n":{"N":"1"}})");
  EXPECT_EQ("Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in search schema (S)",
            r.Message());
  r = s.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"z"},"tenant":{"N":"1"}}})");
  EXPECT_EQ(
      "One or more parameter values were invalid. Attribute 'tenant' type mismatch. Expected: S, Actual: N. "
      "IndexName: vec",
      r.Message());
}

TEST(VectorSearch, SearchErrors) {
  TestServer s;
  ASSERT_EQ(200, CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "]").status);
  EXPECT_EQ("Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive",
            Search(s, {1, 0, 0}, 101).Message());
  EXPECT_EQ(
      "1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: Member must have value "
      "greater than or equal to 1",
      Search(s, {1, 0, 0}, 0).Message());
  EXPECT_EQ("Input search vector dimension 2 does not match vector index dimension 3", Search(s, {1, 0}, 1).Message());
  auto r = s.Call("SearchVectors", R"({"TableName":"tbl","IndexName":"vec","SearchVector":[{"S":"x"}],"TopK":1})");
  EXPECT_EQ(
      "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point "
      "number attribute",
      r.Message());
  r = s.Call("SearchVectors", R"({"TableName":"tbl","IndexName":"vec","SearchVector":[{"N":"1"}],"TopK":3.5})");
  EXPECT_EQ("SerializationException", r.ErrorName());
  EXPECT_EQ("The table does not have the specified index: nope", Search(s, {1, 0, 0}, 1, "", "nope").Message());
  r = s.Call("SearchVectors", R"({"TableName":"nope","IndexName":"vec","SearchVector":[{"N":"1"}],"TopK":1})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  r = s.Call(
      "Query",
      R"({"TableName":"tbl","IndexName":"vec","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})");
  EXPECT_EQ("Query operation not supported on this index type.", r.Message());
  r = s.Call("Scan", R"({"TableName":"tbl","IndexName":"vec"})");
  EXPECT_EQ("Scan operation not supported on this index type", r.Message());
  r = Search(s, {1, 0, 0}, 1, R"(,"ReturnConsumedCapacity":"TOTAL")");
  EXPECT_EQ(R"({"VectorSearchRequestBytes":1024.0})", JsonText(r.json["ConsumedCapacity"]));
  EXPECT_FALSE(Search(s, {1, 0, 0}, 1, R"(,"ReturnConsumedCapacity":"NONE")").Has("ConsumedCapacity"));
}

TEST(VectorSearch, UpdateTableCreatesBackfillsAndDeletes) {
  TestServer s;
  ASSERT_EQ(
      200,
      s.Call(
           "CreateTable",
           R"({"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"})")
          .status);
  Put(s, "a", {1, 0});
  Put(s, "b", {1, 0, 0});  // the wrong size for the index made below: skipped by the backfill
  auto r = s.Call("UpdateTable", R"({"TableName":"tbl","VectorIndexUpdates":[{"Create":)" +
                                     VectorIndexJson("vec", 2, "COSINE") + "}]}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("UPDATING", std::string(r.json["TableDescription"]["TableStatus"].GetString()));
  EXPECT_EQ("CREATING", std::string(r.json["TableDescription"]["VectorIndexes"][0]["IndexStatus"].GetString()));
  EXPECT_EQ((std::vector<std::string>{"a"}), Keys(Search(s, {1, 0}, 5)));
  r = s.Call("UpdateTable",
             R"({"TableName":"tbl","VectorIndexUpdates":[{"Create":)" + VectorIndexJson("vec", 2, "COSINE") + "}]}");
  EXPECT_EQ("Attempting to create an index which already exists", r.Message());
  r = s.Call("UpdateTable", R"({"TableName":"tbl","VectorIndexUpdates":[{"Delete":{"IndexName":"nope"}}]})");
  EXPECT_EQ("Requested resource not found: Index nope for table tbl", r.Message());
  r = s.Call("UpdateTable", R"({"TableName":"tbl","VectorIndexUpdates":[{"Create":)" +
                                VectorIndexJson("vv2", 2, "COSINE") + R"(},{"Delete":{"IndexName":"vec"}}]})");
  EXPECT_EQ("LimitExceededException", r.ErrorName());
  r = s.Call(
      "UpdateTable",
      R"({"TableName":"tbl","BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}})");
  EXPECT_EQ("One or more parameter values were invalid: Tables with vector indexes must be in PAY_PER_REQUEST mode",
            r.Message());
  r = s.Call("UpdateTable", R"({"TableName":"tbl","VectorIndexUpdates":[{"Delete":{"IndexName":"vec"}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("DELETING", std::string(r.json["TableDescription"]["VectorIndexes"][0]["IndexStatus"].GetString()));
  EXPECT_EQ("The table does not have the specified index: vec", Search(s, {1, 0}, 5).Message());
  EXPECT_EQ(2, s.Call("Scan", R"({"TableName":"tbl"})").json["Count"].GetInt());
}

// spec §6 and checklist items 23-24: VectorWriteRequestBytes per index, under INDEXES only, where the stored
// entry changed; the larger image on overwrite, the old on delete; summed in batches, not doubled in transactions.
TEST(VectorSearch, WriteBytesUnderIndexes) {
  TestServer s;
  ASSERT_EQ(200, CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "," +
                                          R"({"IndexName":"keys","VectorAttribute":{"AttributeName":"v"},)"
                                          R"("Dimensions":3,"DistanceFunction":"COSINE",)"
                                          R"("Projection":{"ProjectionType":"KEYS_ONLY"}})" +
                                          "]")
                     .status);
  auto put = [&](const std::string& item, const std::string& detail) {
    return s.Call("PutItem", R"({"TableName":"tbl","ReturnConsumedCapacity":")" + detail + R"(","Item":)" + item + "}");
  };
  std::string blob(1500, 'x');
  std::string with_blob = R"({"pk":{"S":"a"},"v":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]},"blob":{"S":")" + blob + "\"}}";
  auto r = put(with_blob, "INDEXES");
  ASSERT_EQ(200, r.status) << r.Describe();
  // 4·3 + "v" + pk "a" (2 + 1) + blob (4 + 1500) = 1520 for ALL; KEYS_ONLY has the 1024 floor.
  EXPECT_EQ(R"({"keys":{"VectorWriteRequestBytes":1024.0},"vec":{"VectorWriteRequestBytes":1520.0}})",
            JsonText(r.json["ConsumedCapacity"]["VectorIndexes"]))
      << r.Describe();
  EXPECT_FALSE(put(with_blob, "TOTAL").json["ConsumedCapacity"].HasMember("VectorIndexes"));
  r = put(with_blob, "INDEXES");  // an identical overwrite changes no entry
  EXPECT_FALSE(r.json["ConsumedCapacity"].HasMember("VectorIndexes")) << r.Describe();
  // A change of a projected non-vector attribute: the ALL index only; the larger image (the old one) is charged.
  r = put(R"({"pk":{"S":"a"},"v":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}})", "INDEXES");
  EXPECT_EQ(R"({"vec":{"VectorWriteRequestBytes":1520.0}})", JsonText(r.json["ConsumedCapacity"]["VectorIndexes"]));
  // A vector change charges KEYS_ONLY too.
  r = put(R"({"pk":{"S":"a"},"v":{"L":[{"N":"0"},{"N":"1"},{"N":"0"}]}})", "INDEXES");
  EXPECT_EQ(R"({"keys":{"VectorWriteRequestBytes":1024.0},"vec":{"VectorWriteRequestBytes":1024.0}})",
            JsonText(r.json["ConsumedCapacity"]["VectorIndexes"]));
  r = s.Call("DeleteItem", R"({"TableName":"tbl","Key":{"pk":{"S":"a"}},"ReturnConsumedCapacity":"INDEXES"})");
  EXPECT_EQ(R"({"keys":{"VectorWriteRequestBytes":1024.0},"vec":{"VectorWriteRequestBytes":1024.0}})",
            JsonText(r.json["ConsumedCapacity"]["VectorIndexes"]));
  std::string two = R"({"PutRequest":{"Item":{"pk":{"S":"b"},"v":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}}},)"
                    R"({"PutRequest":{"Item":{"pk":{"S":"c"},"v":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}}})";
  r = s.Call("BatchWriteItem", R"({"RequestItems":{"tbl":[)" + two + R"(]},"ReturnConsumedCapacity":"INDEXES"})");
  EXPECT_EQ(R"({"keys":{"VectorWriteRequestBytes":2048.0},"vec":{"VectorWriteRequestBytes":2048.0}})",
            JsonText(r.json["ConsumedCapacity"][0]["VectorIndexes"]))
      << r.Describe();
  r = s.Call("TransactWriteItems",
             R"({"ReturnConsumedCapacity":"INDEXES","TransactItems":[{"Put":{"TableName":"tbl","Item":)"
             R"({"pk":{"S":"d"},"v":{"L":[{"N":"1"},{"N":"0"},{"N":"0"}]}}}}]})");
  EXPECT_EQ(R"({"keys":{"VectorWriteRequestBytes":1024.0},"vec":{"VectorWriteRequestBytes":1024.0}})",
            JsonText(r.json["ConsumedCapacity"][0]["VectorIndexes"]))
      << r.Describe();
}

// spec §3.1 (a GSI keyed on a live vector attribute) and §4 (PartiQL naming a vector index).
TEST(VectorSearch, OtherIndexesAndStatementsRefuseTheVectorAttribute) {
  TestServer s;
  ASSERT_EQ(200, CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "COSINE") + "]").status);
  auto r = s.Call("UpdateTable",
                  R"({"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"v","AttributeType":"S"}],)"
                  R"("GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"gsi1","KeySchema":[{"AttributeName":"v",)"
                  R"("KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]})");
  EXPECT_EQ(
      "One or more parameter values were invalid: Attributes cannot be redefined. Please check that your attribute "
      "has the same type as previously defined. Existing schema: VectorIndexSchema:[VectorAttribute: key{v:L:3}] "
      "New schema: Schema:[SchemaElement: key{v:S:HASH}]",
      r.Message());
  EXPECT_EQ(0u, s.Call("DescribeTable", R"({"TableName":"tbl"})").json["Table"].HasMember("GlobalSecondaryIndexes"));
  r = s.Call("ExecuteStatement", R"({"Statement":"SELECT * FROM \"tbl\".\"vec\""})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("Scan operation not supported on this index type", r.Message());
}

TEST(VectorSearch, SurvivesARestart) {
  std::string dir = testing::TempDir() + "/dynapage-vectors-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  TestServerOptions options;
  options.path = dir;
  {
    TestServer s(options);
    ASSERT_EQ(200, CreateVectorTable(s, "[" + VectorIndexJson("vec", 3, "EUCLIDEAN") + "]").status);
    PutChecklistItems(s);
  }
  TestServer s(options);
  EXPECT_EQ((std::vector<std::string>{"d", "a"}), Keys(Search(s, {0.7, 0.7, 0}, 2)));
  std::filesystem::remove_all(dir);
}

// Random vectors: every distance function's answer equals a reference computed here, in order and in score.
TEST(VectorSearch, PropertyMatchesAReference) {
  TestServer s;
  const int dims = 8, items = 200;
  ASSERT_EQ(200, CreateVectorTable(s, "[" + VectorIndexJson("vco", dims, "COSINE") + "," +
                                          VectorIndexJson("veu", dims, "EUCLIDEAN") + "," +
                                          VectorIndexJson("vdp", dims, "DOT_PRODUCT") + "]")
                     .status);
  std::mt19937 rng(32);
  std::uniform_int_distribution<int> component(-4, 4);  // small integers: ties happen and floats are exact
  std::vector<std::vector<double>> vectors(items, std::vector<double>(dims));
  std::vector<std::string> keys(items);
  for (int i = 0; i < items; i++) {
    for (auto& x : vectors[i]) x = component(rng);
    char key[16];
    std::snprintf(key, sizeof key, "k%03d", i);
    keys[i] = key;
    Put(s, keys[i], vectors[i]);
  }
  for (int round = 0; round < 20; round++) {
    std::vector<double> q(dims);
    for (auto& x : q) x = component(rng);
    for (const std::string index : {"vco", "veu", "vdp"}) {
      std::vector<std::pair<double, std::string>> reference;  // (rank, key): lower first
      double qq = 0;
      for (double x : q) qq += x * x;
      for (int i = 0; i < items; i++) {
        double dot = 0, ss = 0, dd = 0;
        for (int j = 0; j < dims; j++) {
          dot += q[j] * vectors[i][j];
          ss += vectors[i][j] * vectors[i][j];
          dd += (q[j] - vectors[i][j]) * (q[j] - vectors[i][j]);
        }
        double rank = index == "vco"   ? (qq * ss == 0 ? 1.0 : std::clamp(1 - dot / std::sqrt(qq * ss), 0.0, 2.0))
                      : index == "veu" ? std::sqrt(dd)
                                       : -dot;
        reference.emplace_back(rank, keys[i]);
      }
      std::sort(reference.begin(), reference.end());
      auto r = Search(s, q, 10, "", index);
      ASSERT_EQ(200, r.status) << r.Describe();
      auto got = Keys(r);
      auto scores = Scores(r);
      ASSERT_EQ(10u, got.size());
      for (size_t i = 0; i < got.size(); i++) {
        EXPECT_EQ(reference[i].second, got[i]) << index << " round " << round << " rank " << i;
        EXPECT_NEAR(index == "vdp" ? -reference[i].first : reference[i].first, scores[i], 1e-12);
      }
    }
  }
}

}  // namespace
}  // namespace dynapage
