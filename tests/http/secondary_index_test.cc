// Secondary indexes through HTTP: CreateTable's index validation, DescribeTable's index descriptions, and the
// maintenance of index entries by every write (issue 5, items 1 and 2).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/http/index_test_util.h"

namespace dynapage {
namespace {

const char kInvalid[] = "One or more parameter values were invalid: ";

std::string Def(const std::string& name, const std::string& type = "S") {
  return R"({"AttributeName":")" + name + R"(","AttributeType":")" + type + R"("})";
}

std::string Key(const std::string& hash, const std::string& range = "") {
  std::string key = R"([{"AttributeName":")" + hash + R"(","KeyType":"HASH"})";
  if (!range.empty()) key += R"(,{"AttributeName":")" + range + R"(","KeyType":"RANGE"})";
  return key + "]";
}

std::string Index(const std::string& name, const std::string& key,
                  const std::string& projection = R"({"ProjectionType":"ALL"})", const std::string& extra = "") {
  return R"({"IndexName":")" + name + R"(","KeySchema":)" + key + R"(,"Projection":)" + projection + extra + "}";
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); i++) out += (i ? "," : "") + parts[i];
  return out;
}

// A CreateTable body for table "tab" (PAY_PER_REQUEST unless billing says otherwise).
std::string TableBody(const std::vector<std::string>& defs, const std::string& key, const std::string& indexes,
                      const std::string& billing = R"("BillingMode":"PAY_PER_REQUEST")") {
  return R"({"TableName":"tab",)" + billing + R"(,"AttributeDefinitions":[)" + Join(defs) + R"(],"KeySchema":)" + key +
         (indexes.empty() ? "" : "," + indexes) + "}";
}

class CreateTableIndexTest : public ::testing::Test {
 protected:
  // Expects a ValidationException with message, and no table created.
  void ExpectRefused(const std::string& body, const std::string& message) {
    HttpResult r = server_.Call("CreateTable", body);
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
    EXPECT_EQ(message, r.Message()) << body.substr(0, 300);
    EXPECT_EQ(R"({"TableNames":[]})", server_.Call("ListTables", "{}").body);
  }
  void ExpectCreated(const std::string& body) {
    HttpResult r = server_.Call("CreateTable", body);
    EXPECT_EQ(200, r.status) << r.Describe();
    server_.Call("DeleteTable", R"({"TableName":"tab"})");
  }

  TestServer server_;
};

TEST_F(CreateTableIndexTest, IndexKeysMustBeDefined) {
  // With indexes DynamoDB names only the missing key attributes.
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("gpk")}, Key("pk", "sk"),
                          R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk", "gsk")) + "]"),
                std::string(kInvalid) + "Some index key attributes are not defined in AttributeDefinitions. Keys: "
                                        "[gsk], AttributeDefinitions: [pk, sk, gpk]");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N")}, Key("pk", "sk"),
                          R"("LocalSecondaryIndexes":[)" + Index("ls1", Key("pk", "lsk")) + "]"),
                std::string(kInvalid) + "Some index key attributes are not defined in AttributeDefinitions. Keys: "
                                        "[lsk], AttributeDefinitions: [pk, sk]");
  // A definition no key uses.
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("gpk"), Def("extra")}, Key("pk", "sk"),
                          R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk")) + "]"),
                std::string(kInvalid) + "Some AttributeDefinitions are not used. AttributeDefinitions: [extra, gpk, "
                                        "pk, sk], keys used: [gpk, pk, sk]");
  ExpectCreated(TableBody({Def("pk"), Def("sk", "N"), Def("gpk")}, Key("pk", "sk"),
                          R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk", "sk")) + "]"));
}

TEST_F(CreateTableIndexTest, LocalIndexRules) {
  ExpectRefused(TableBody({Def("pk"), Def("lsk")}, Key("pk"),
                          R"("LocalSecondaryIndexes":[)" + Index("ls1", Key("pk", "lsk")) + "]"),
                std::string(kInvalid) + "Table KeySchema does not have a range key, which is required when "
                                        "specifying a LocalSecondaryIndex");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N")}, Key("pk", "sk"),
                          R"("LocalSecondaryIndexes":[)" + Index("ls1", Key("pk")) + "]"),
                std::string(kInvalid) + "Index KeySchema does not have a range key for index: ls1");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("lsk")}, Key("pk", "sk"),
                          R"("LocalSecondaryIndexes":[)" + Index("ls1", Key("lsk", "sk")) + "]"),
                std::string(kInvalid) + "Index KeySchema does not have the same leading hash key as table KeySchema "
                                        "for index: ls1. index hash key: lsk, table hash key: pk");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N")}, Key("pk", "sk"), R"("LocalSecondaryIndexes":[])"),
                std::string(kInvalid) + "List of LocalSecondaryIndexes is empty");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N")}, Key("pk", "sk"), R"("GlobalSecondaryIndexes":[])"),
                std::string(kInvalid) + "List of GlobalSecondaryIndexes is empty");
}

TEST_F(CreateTableIndexTest, IndexCountLimits) {
  std::vector<std::string> lsis, gsis;
  for (int i = 1; i <= 6; i++) lsis.push_back(Index("lsi" + std::to_string(i), Key("pk", "lsk")));
  for (int i = 1; i <= 21; i++) gsis.push_back(Index("gsi" + std::to_string(i), Key("gpk")));
  const std::vector<std::string> lsi_defs = {Def("pk"), Def("sk", "N"), Def("lsk")};
  ExpectRefused(TableBody(lsi_defs, Key("pk", "sk"), R"("LocalSecondaryIndexes":[)" + Join(lsis) + "]"),
                std::string(kInvalid) + "Number of LocalSecondaryIndexes exceeds per-table limit of 5");
  lsis.pop_back();
  ExpectCreated(TableBody(lsi_defs, Key("pk", "sk"), R"("LocalSecondaryIndexes":[)" + Join(lsis) + "]"));
  const std::vector<std::string> gsi_defs = {Def("pk"), Def("gpk")};
  ExpectRefused(TableBody(gsi_defs, Key("pk"), R"("GlobalSecondaryIndexes":[)" + Join(gsis) + "]"),
                std::string(kInvalid) + "GlobalSecondaryIndex count exceeds the per-table limit of 20");
  gsis.pop_back();
  ExpectCreated(TableBody(gsi_defs, Key("pk"), R"("GlobalSecondaryIndexes":[)" + Join(gsis) + "]"));
}

TEST_F(CreateTableIndexTest, DuplicateIndexNames) {
  const std::vector<std::string> defs = {Def("pk"), Def("sk", "N"), Def("lsk"), Def("gpk")};
  ExpectRefused(TableBody(defs, Key("pk", "sk"),
                          R"("LocalSecondaryIndexes":[)" + Index("idx", Key("pk", "lsk")) +
                              R"(],"GlobalSecondaryIndexes":[)" + Index("idx", Key("gpk")) + "]"),
                std::string(kInvalid) + "Duplicate index name: idx");
  ExpectRefused(
      TableBody({Def("pk"), Def("gpk")}, Key("pk"),
                R"("GlobalSecondaryIndexes":[)" + Index("idx", Key("gpk")) + "," + Index("idx", Key("gpk")) + "]"),
      std::string(kInvalid) + "Duplicate index name: idx");
}

TEST_F(CreateTableIndexTest, ProjectionRules) {
  const std::vector<std::string> defs = {Def("pk"), Def("gpk")};
  auto gsi = [&](const std::string& projection) {
    return TableBody(defs, Key("pk"), R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk"), projection) + "]");
  };
  ExpectRefused(gsi(R"({"ProjectionType":"KEYS_ONLY","NonKeyAttributes":["a"]})"),
                std::string(kInvalid) + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified");
  ExpectRefused(gsi(R"({"ProjectionType":"ALL","NonKeyAttributes":["a"]})"),
                std::string(kInvalid) + "ProjectionType is ALL, but NonKeyAttributes is specified");
  ExpectRefused(gsi(R"({"NonKeyAttributes":["a"]})"), std::string(kInvalid) + "Unknown ProjectionType: null");
  ExpectRefused(gsi(R"({"ProjectionType":"INCLUDE","NonKeyAttributes":[]})"),
                "1 validation error detected: Value '[]' at 'globalSecondaryIndexes.1.member.projection."
                "nonKeyAttributes' failed to satisfy constraint: Member must have length greater than or equal to 1");
  ExpectRefused(gsi(R"({"ProjectionType":"SOME"})"),
                "1 validation error detected: Value 'SOME' at 'globalSecondaryIndexes.1.member.projection."
                "projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, "
                "KEYS_ONLY]");
  ExpectRefused(TableBody(defs, Key("pk"),
                          R"("GlobalSecondaryIndexes":[{"IndexName":"gs1","KeySchema":)" + Key("gpk") + "}]"),
                "1 validation error detected: Value null at 'globalSecondaryIndexes.1.member.projection' failed to "
                "satisfy constraint: Member must not be null");
  ExpectCreated(gsi(R"({"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b"]})"));
}

TEST_F(CreateTableIndexTest, IncludeProjectionsAndDuplicateDefinitions) {
  const std::vector<std::string> defs = {Def("pk"), Def("gpk")};
  auto gsi = [&](const std::string& projection) {
    return TableBody(defs, Key("pk"), R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk"), projection) + "]");
  };
  ExpectRefused(gsi(R"({"ProjectionType":"INCLUDE"})"),
                std::string(kInvalid) + "ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  ExpectRefused(gsi(R"({"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b","a"]})"),
                std::string(kInvalid) + "Duplicate value in NonKeyAttributes: a");
  ExpectRefused(TableBody({Def("pk"), Def("gpk"), Def("gpk", "N")}, Key("pk"),
                          R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk")) + "]"),
                std::string(kInvalid) + "Duplicate AttributeName in AttributeDefinitions: gpk");
  // Projected names are at most 255 characters; a key name over 255 is reported before a definition mismatch.
  HttpResult r = server_.Call("CreateTable", gsi(R"({"ProjectionType":"INCLUDE","NonKeyAttributes":[")" +
                                                 std::string(256, 'n') + R"("]})"));
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("Member must have length less than or equal to 255")) << r.Message();
  r = server_.Call("CreateTable", TableBody({Def("other")}, Key(std::string(256, 'k')), ""));
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("Member must have length less than or equal to 255")) << r.Message();
  // A key schema of three elements is rendered element by element.
  ExpectRefused(TableBody({Def("a"), Def("b"), Def("c")},
                          R"([{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"RANGE"},)"
                          R"({"AttributeName":"c","KeyType":"RANGE"}])",
                          ""),
                "1 validation error detected: Value '[KeySchemaElement(attributeName=a, keyType=HASH), "
                "KeySchemaElement(attributeName=b, keyType=RANGE), KeySchemaElement(attributeName=c, keyType=RANGE)]' "
                "at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2");
}

// At most 100 NonKeyAttributes over all indexes; an attribute projected twice counts twice.
TEST_F(CreateTableIndexTest, ProjectedAttributeLimit) {
  auto include = [](int from, int count) {
    std::vector<std::string> names;
    for (int i = from; i < from + count; i++) names.push_back("\"a" + std::to_string(i) + "\"");
    return R"({"ProjectionType":"INCLUDE","NonKeyAttributes":[)" + Join(names) + "]}";
  };
  const std::vector<std::string> defs = {Def("pk"), Def("gpk")};
  // At most 20 per index (the service model's constraint, ModelConstraintsTest), so 100 takes five indexes.
  auto body = [&](int sixth) {
    std::string indexes;
    for (int i = 0; i < 5; i++) indexes += Index("gs" + std::to_string(i), Key("gpk"), include(i * 20, 20)) + ",";
    if (sixth) indexes += Index("gs5", Key("gpk"), include(100, sixth)) + ",";
    indexes.pop_back();
    return TableBody(defs, Key("pk"), R"("GlobalSecondaryIndexes":[)" + indexes + "]");
  };
  ExpectRefused(body(1), std::string(kInvalid) + "Number of projected attributes in all indexes exceeds limit of "
                                                 "100, number of projected attributes:101");
  ExpectCreated(body(0));
}

TEST_F(CreateTableIndexTest, GlobalIndexThroughputFollowsBillingMode) {
  const std::vector<std::string> defs = {Def("pk"), Def("gpk")};
  const std::string throughput = R"(,"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1})";
  ExpectRefused(TableBody(defs, Key("pk"),
                          R"("GlobalSecondaryIndexes":[)" +
                              Index("gs1", Key("gpk"), R"({"ProjectionType":"ALL"})", throughput) + "]"),
                std::string(kInvalid) +
                    "ProvisionedThroughput should not be specified for index: gs1 when "
                    "BillingMode is PAY_PER_REQUEST");
  const std::string provisioned = R"("ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5})";
  ExpectRefused(
      TableBody(defs, Key("pk"), R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk")) + "]", provisioned),
      std::string(kInvalid) + "ProvisionedThroughput must be specified for index: gs1");
  ExpectRefused(TableBody(defs, Key("pk"),
                          R"("GlobalSecondaryIndexes":[)" +
                              Index("gs1", Key("gpk"), R"({"ProjectionType":"ALL"})",
                                    R"(,"ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":1})") + "]",
                          provisioned),
                "1 validation error detected: Value '0' at 'globalSecondaryIndexes.1.member.provisionedThroughput."
                "readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1");
  HttpResult r = server_.Call(
      "CreateTable", TableBody(defs, Key("pk"),
                               R"("GlobalSecondaryIndexes":[)" +
                                   Index("gs1", Key("gpk"), R"({"ProjectionType":"ALL"})",
                                         R"(,"ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4})") +
                                   "]",
                               provisioned));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"NumberOfDecreasesToday":0,"ReadCapacityUnits":3,"WriteCapacityUnits":4})",
            JsonText(r.json["TableDescription"]["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]));
}

TEST_F(CreateTableIndexTest, IndexNameAndKeySchemaConstraints) {
  const std::vector<std::string> defs = {Def("pk"), Def("gpk"), Def("gsk")};
  auto gsi = [&](const std::string& index) {
    return TableBody(defs, Key("pk"), R"("GlobalSecondaryIndexes":[)" + index + "]");
  };
  ExpectRefused(gsi(Index("ab", Key("gpk", "gsk"))),
                "1 validation error detected: Value 'ab' at 'globalSecondaryIndexes.1.member.indexName' failed to "
                "satisfy constraint: Member must have length greater than or equal to 3");
  ExpectRefused(gsi(Index("bad name", Key("gpk", "gsk"))),
                "1 validation error detected: Value 'bad name' at 'globalSecondaryIndexes.1.member.indexName' failed "
                "to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  ExpectRefused(gsi(Index(std::string(256, 'i'), Key("gpk", "gsk"))),
                "1 validation error detected: Value '" + std::string(256, 'i') +
                    "' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must have "
                    "length less than or equal to 255");
  ExpectRefused(gsi(R"({"KeySchema":)" + Key("gpk", "gsk") + R"(,"Projection":{"ProjectionType":"ALL"}})"),
                "1 validation error detected: Value null at 'globalSecondaryIndexes.1.member.indexName' failed to "
                "satisfy constraint: Member must not be null");
  ExpectRefused(
      gsi(Index("gs1", R"([{"AttributeName":"gpk","KeyType":"HASH"},{"AttributeName":"gsk","KeyType":"SORT"}])")),
      "1 validation error detected: Value 'SORT' at 'globalSecondaryIndexes.1.member.keySchema.2.member."
      "keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]");
  // Two HASH attributes make a GSI's multi-attribute partition key (tests/http/multi_attribute_key_test.cc).
  ExpectCreated(
      gsi(Index("gs1", R"([{"AttributeName":"gpk","KeyType":"HASH"},{"AttributeName":"gsk","KeyType":"HASH"}])")));
  ExpectRefused(
      gsi(Index("gs1", R"([{"AttributeName":"gpk","KeyType":"RANGE"},{"AttributeName":"gsk","KeyType":"HASH"}])")),
      "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  ExpectRefused(TableBody({Def("pk"), Def("gpk")}, Key("pk"),
                          R"("GlobalSecondaryIndexes":[)" + Index("gs1", Key("gpk", "gpk")) + "]"),
                "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  ExpectCreated(gsi(Index(std::string(255, 'i'), Key("gpk", "gsk"))));
  ExpectCreated(gsi(Index("a-b_c.D9", Key("gpk", "gsk"))));
}

class IndexDescriptionTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(200, CreateIndexedTable(server_, "tab").status); }
  HttpResult Put(const std::string& item) {
    return server_.Call("PutItem", R"({"TableName":"tab","Item":)" + item + "}");
  }
  TestServer server_;
};

TEST_F(IndexDescriptionTest, ShapesOfLocalAndGlobalIndexes) {
  EXPECT_EQ(Canonical(R"({"IndexName":"by_lsk",
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"lsk","KeyType":"RANGE"}],
      "Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]},"IndexSizeBytes":0,"ItemCount":0,
      "IndexArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tab/index/by_lsk"})"),
            DescribedIndex(server_, "tab", "by_lsk"));
  EXPECT_EQ(Canonical(R"({"IndexName":"by_gpk",
      "KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"},{"AttributeName":"gsk","KeyType":"RANGE"}],
      "Projection":{"ProjectionType":"ALL"},"IndexStatus":"ACTIVE",
      "ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,"WriteCapacityUnits":0},
      "WarmThroughput":{"ReadUnitsPerSecond":12000,"WriteUnitsPerSecond":4000,"Status":"ACTIVE"},
      "IndexSizeBytes":0,"ItemCount":0,"IndexArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tab/index/by_gpk"})"),
            DescribedIndex(server_, "tab", "by_gpk"));
  EXPECT_EQ(Canonical(R"({"IndexName":"gpk_keys","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"KEYS_ONLY"},"IndexStatus":"ACTIVE",
      "ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,"WriteCapacityUnits":0},
      "WarmThroughput":{"ReadUnitsPerSecond":12000,"WriteUnitsPerSecond":4000,"Status":"ACTIVE"},
      "IndexSizeBytes":0,"ItemCount":0,"IndexArn":"arn:aws:dynamodb:us-east-1:000000000000:table/tab/index/gpk_keys"})"),
            DescribedIndex(server_, "tab", "gpk_keys"));
}

// ItemCount and IndexSizeBytes count the projected entries; an item lacking an index key is not in the index.
TEST_F(IndexDescriptionTest, CountsAndSizesOfProjectedEntries) {
  // 27 bytes: pk 3, sk 4, lsk 4, gpk 4, gsk 5, a 2, b 5. by_lsk keeps pk, sk, lsk, a (13); gpk_keys pk, sk, gpk (11).
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"sk":{"N":"1"},"lsk":{"S":"x"},"gpk":{"S":"g"},"gsk":{"N":"5"},
                         "a":{"S":"A"},"b":{"S":"BBBB"}})").status);
  ASSERT_EQ(200, Put(R"({"pk":{"S":"b"},"sk":{"N":"2"}})").status);                    // in no index
  ASSERT_EQ(200, Put(R"({"pk":{"S":"c"},"sk":{"N":"3"},"gpk":{"S":"g"}})").status);  // gpk_keys only
  HttpResult r = server_.Call("DescribeTable", R"({"TableName":"tab"})");
  EXPECT_EQ(3, r.json["Table"]["ItemCount"].GetInt64());
  EXPECT_EQ(27 + 7 + 11, r.json["Table"]["TableSizeBytes"].GetInt64());
  auto stats = [&](const std::string& index) {
    rapidjson::Document d;
    d.Parse(DescribedIndex(server_, "tab", index).c_str());
    return std::to_string(d["ItemCount"].GetInt64()) + "/" + std::to_string(d["IndexSizeBytes"].GetInt64());
  };
  EXPECT_EQ("1/13", stats("by_lsk"));
  EXPECT_EQ("1/27", stats("by_gpk"));
  EXPECT_EQ("2/22", stats("gpk_keys"));
  ASSERT_EQ(200, server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}})").status);
  EXPECT_EQ("0/0", stats("by_lsk"));
  EXPECT_EQ("0/0", stats("by_gpk"));
  EXPECT_EQ("1/11", stats("gpk_keys"));
}

class IndexMaintenanceTest : public IndexDescriptionTest {
 protected:
  // Every entry of an index, in index order, as "pk/sk" of the items.
  std::vector<std::string> Entries(const std::string& index) {
    std::vector<HttpResult> pages =
        ReadAllPages(server_, "Scan", R"({"TableName":"tab","IndexName":")" + index + R"(","Limit":2})");
    std::vector<std::string> pks = Values(pages, "pk"), sks = Values(pages, "sk"), out;
    for (size_t i = 0; i < pks.size(); i++) out.push_back(pks[i] + "/" + sks[i]);
    return out;
  }
  using Strings = std::vector<std::string>;
};

TEST_F(IndexMaintenanceTest, PutOverwriteAndDeleteMoveEntries) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"sk":{"N":"1"},"lsk":{"S":"x"},"gpk":{"S":"g"},"gsk":{"N":"5"}})").status);
  EXPECT_EQ(Strings{"a/1"}, Entries("by_lsk"));
  EXPECT_EQ(Strings{"a/1"}, Entries("by_gpk"));
  // A new GSI sort key moves the entry; dropping the LSI key removes it from the LSI.
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"sk":{"N":"1"},"gpk":{"S":"g"},"gsk":{"N":"7"}})").status);
  EXPECT_EQ(Strings{}, Entries("by_lsk"));
  HttpResult r = server_.Call("Query", R"({"TableName":"tab","IndexName":"by_gpk","KeyConditionExpression":"gpk = :g",
      "ExpressionAttributeValues":{":g":{"S":"g"}}})");
  EXPECT_EQ(Strings{"7"}, Values(r, "gsk")) << r.body;
  // A new GSI partition key moves it to another partition.
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"sk":{"N":"1"},"gpk":{"S":"h"},"gsk":{"N":"7"}})").status);
  r = server_.Call("Query", R"({"TableName":"tab","IndexName":"gpk_keys","KeyConditionExpression":"gpk = :g",
      "ExpressionAttributeValues":{":g":{"S":"g"}}})");
  EXPECT_EQ(0, r.json["Count"].GetInt()) << r.body;
  EXPECT_EQ(Strings{"a/1"}, Entries("gpk_keys"));
  ASSERT_EQ(200, server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}})").status);
  EXPECT_EQ(Strings{}, Entries("by_gpk"));
  EXPECT_EQ(Strings{}, Entries("gpk_keys"));
}

// ReturnItemCollectionMetrics SIZE on a table with an LSI: every kind of write answers its item collection.
TEST_F(IndexMaintenanceTest, WritesAnswerItemCollectionMetrics) {
  const std::string metrics = Canonical(R"({"ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0.0,1.0]})");
  HttpResult r = server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"a"},"sk":{"N":"1"}},)"
                                         R"("ReturnItemCollectionMetrics":"SIZE"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(r.Has("ItemCollectionMetrics")) << r.body;
  EXPECT_EQ(metrics, JsonText(r.json["ItemCollectionMetrics"]));
  r = server_.Call("UpdateItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},)"
                                 R"("UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"N":"1"}},)"
                                 R"("ReturnItemCollectionMetrics":"SIZE"})");
  ASSERT_TRUE(r.Has("ItemCollectionMetrics")) << r.body;
  EXPECT_EQ(metrics, JsonText(r.json["ItemCollectionMetrics"]));
  r = server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},)"
                                 R"("ReturnItemCollectionMetrics":"SIZE"})");
  ASSERT_TRUE(r.Has("ItemCollectionMetrics")) << r.body;
  EXPECT_EQ(metrics, JsonText(r.json["ItemCollectionMetrics"]));
  r = server_.Call("BatchWriteItem", R"({"RequestItems":{"tab":[)"
                                     R"({"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"2"}}}},)"
                                     R"({"DeleteRequest":{"Key":{"pk":{"S":"a"},"sk":{"N":"3"}}}}]},)"
                                     R"("ReturnItemCollectionMetrics":"SIZE"})");
  ASSERT_TRUE(r.Has("ItemCollectionMetrics")) << r.body;
  EXPECT_EQ("[" + metrics + "," + metrics + "]", JsonText(r.json["ItemCollectionMetrics"]["tab"]));
  r = server_.Call("TransactWriteItems", R"({"TransactItems":[{"Put":{"TableName":"tab",)"
                                         R"("Item":{"pk":{"S":"a"},"sk":{"N":"4"}}}}],)"
                                         R"("ReturnItemCollectionMetrics":"SIZE"})");
  ASSERT_TRUE(r.Has("ItemCollectionMetrics")) << r.body;
  EXPECT_EQ("[" + metrics + "]", JsonText(r.json["ItemCollectionMetrics"]["tab"]));
  // Without the request, or on a table without LSIs, there is none.
  r = server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"a"},"sk":{"N":"1"}}})");
  EXPECT_FALSE(r.Has("ItemCollectionMetrics"));
}

TEST_F(IndexMaintenanceTest, BatchWriteMaintainsEveryIndex) {
  HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{"tab":[
      {"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1"},"lsk":{"S":"x"},"gpk":{"S":"g"},"gsk":{"N":"1"}}}},
      {"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"2"},"lsk":{"S":"y"},"gpk":{"S":"g"},"gsk":{"N":"2"}}}},
      {"PutRequest":{"Item":{"pk":{"S":"b"},"sk":{"N":"1"},"gpk":{"S":"g"}}}}]}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ((Strings{"a/1", "a/2"}), Entries("by_lsk"));
  EXPECT_EQ((Strings{"a/1", "a/2"}), Entries("by_gpk"));
  EXPECT_EQ((Strings{"a/1", "a/2", "b/1"}), Entries("gpk_keys"));
  r = server_.Call("BatchWriteItem", R"({"RequestItems":{"tab":[
      {"DeleteRequest":{"Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}},
      {"PutRequest":{"Item":{"pk":{"S":"b"},"sk":{"N":"1"},"gpk":{"S":"g"},"gsk":{"N":"0"}}}}]}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ((Strings{"a/2"}), Entries("by_lsk"));
  EXPECT_EQ((Strings{"b/1", "a/2"}), Entries("by_gpk"));  // gsk 0 sorts first
  EXPECT_EQ((Strings{"a/2", "b/1"}), Entries("gpk_keys"));
}

// A key attribute of an index with the wrong type, or an empty string, refuses the whole write.
TEST_F(IndexMaintenanceTest, WrongIndexKeyTypesAreRefused) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"sk":{"N":"1"},"gpk":{"S":"g"},"gsk":{"N":"1"}})").status);
  struct Case {
    std::string item, message;
  };
  const std::vector<Case> cases = {
      {R"({"pk":{"S":"a"},"sk":{"N":"1"},"gpk":{"N":"1"}})",
       std::string(kInvalid) + "Type mismatch for Index Key gpk Expected: S Actual: N IndexName: by_gpk"},
      {R"({"pk":{"S":"a"},"sk":{"N":"1"},"gsk":{"S":"x"}})",
       std::string(kInvalid) + "Type mismatch for Index Key gsk Expected: N Actual: S IndexName: by_gpk"},
      {R"({"pk":{"S":"a"},"sk":{"N":"1"},"lsk":{"SS":["x"]}})",
       std::string(kInvalid) + "Type mismatch for Index Key lsk Expected: S Actual: SS IndexName: by_lsk"},
      {R"({"pk":{"S":"a"},"sk":{"N":"1"},"gpk":{"S":""}})",
       "One or more parameter values are not valid. A value specified for a secondary index key is not supported. "
       "The AttributeValue for a key attribute cannot contain an empty string value. IndexName: by_gpk, IndexKey: gpk"},
  };
  for (const auto& c : cases) {
    HttpResult r = Put(c.item);
    EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
    EXPECT_EQ(c.message, r.Message());
    r = server_.Call("BatchWriteItem", R"({"RequestItems":{"tab":[{"PutRequest":{"Item":)" + c.item + "}}]}}");
    EXPECT_EQ(c.message, r.Message());
  }
  EXPECT_EQ(Strings{"a/1"}, Entries("by_gpk"));
  HttpResult r = server_.Call("GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}})");
  EXPECT_EQ(Canonical(R"({"Item":{"gpk":{"S":"g"},"gsk":{"N":"1"},"pk":{"S":"a"},"sk":{"N":"1"}}})"), r.body);
}

}  // namespace
}  // namespace dynapage
