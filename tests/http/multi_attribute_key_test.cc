// Multi-attribute GSI keys through HTTP (issue 25, docs/multi-attribute-keys.md): the schema rules of CreateTable
// and UpdateTable with their messages, DescribeTable's KeySchema, sparse membership and write checks, the tuple
// order, the Query rules and messages, LastEvaluatedKey / ExclusiveStartKey, parallel Scan, projections,
// capacity, counts and backfill. The model-based pagination test is in multi_attribute_key_model_test.cc.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/http/index_test_util.h"

namespace dynapage {
namespace {

using Strings = std::vector<std::string>;

const char kInvalid[] = "One or more parameter values were invalid: ";

std::string Def(const std::string& name, const std::string& type = "S") {
  return R"({"AttributeName":")" + name + R"(","AttributeType":")" + type + R"("})";
}

// A KeySchema from "name:HASH" / "name:RANGE" elements ("h" and "r" for short).
std::string Key(const Strings& elements) {
  std::string out = "[";
  for (const std::string& e : elements) {
    size_t colon = e.find(':');
    std::string type = e.substr(colon + 1);
    if (type == "h") type = "HASH";
    if (type == "r") type = "RANGE";
    out += (out.size() > 1 ? "," : "") + std::string(R"({"AttributeName":")") + e.substr(0, colon) +
           R"(","KeyType":")" + type + R"("})";
  }
  return out + "]";
}

std::string Gsi(const std::string& name, const std::string& key, const std::string& projection = "ALL") {
  return R"({"IndexName":")" + name + R"(","KeySchema":)" + key + R"(,"Projection":{"ProjectionType":")" + projection +
         R"("}})";
}

std::string Join(const Strings& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); i++) out += (i ? "," : "") + parts[i];
  return out;
}

// CreateTable "multi" (pk S, sk N), PAY_PER_REQUEST, with the definitions and the member text of the indexes.
std::string TableBody(const Strings& defs, const std::string& indexes, const std::string& table_key = "") {
  return R"({"TableName":"multi","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[)" + Join(defs) +
         R"(],"KeySchema":)" + (table_key.empty() ? Key({"pk:h", "sk:r"}) : table_key) +
         (indexes.empty() ? "" : "," + indexes) + "}";
}

// "name=value-json" of each member of an object, sorted (member order is not part of the contract).
std::string Members(const rapidjson::Value& object) {
  std::set<std::string> members;
  for (auto m = object.MemberBegin(); m != object.MemberEnd(); ++m) {
    members.insert(std::string(m->name.GetString()) + "=" + JsonText(m->value));
  }
  std::string out;
  for (const auto& m : members) out += (out.empty() ? "" : " ") + m;
  return out;
}

const Strings kDefs = {Def("pk"), Def("sk", "N"), Def("t"), Def("r", "N"), Def("a", "N"), Def("b"), Def("m", "B")};

class MultiAttributeSchemaTest : public ::testing::Test {
 protected:
  void ExpectRefused(const std::string& body, const std::string& message) {
    HttpResult r = server_.Call("CreateTable", body);
    EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
    EXPECT_EQ(message, r.Message()) << body.substr(0, 400);
    EXPECT_EQ(R"({"TableNames":[]})", server_.Call("ListTables", "{}").body);
  }
  void ExpectCreated(const std::string& body) {
    HttpResult r = server_.Call("CreateTable", body);
    EXPECT_EQ(200, r.status) << r.Describe() << "\n" << body.substr(0, 400);
    server_.Call("DeleteTable", R"({"TableName":"multi"})");
  }
  std::string GsiBody(const Strings& key) {
    std::set<std::string> used = {"pk", "sk"};
    for (const auto& e : key) used.insert(e.substr(0, e.find(':')));
    Strings defs;
    for (const auto& name : used) defs.push_back(Def(name));
    return TableBody(defs, R"("GlobalSecondaryIndexes":[)" + Gsi("gsi", Key(key)) + "]");
  }

  TestServer server_;
};

// 1 to 4 HASH then 0 to 4 RANGE, returned by CreateTable and DescribeTable exactly as submitted.
TEST_F(MultiAttributeSchemaTest, GlobalIndexKeysOfUpToFourAndFourKeepTheirOrder) {
  const std::string key5 = Key({"t:h", "r:h", "a:r", "b:r", "m:r"});
  HttpResult r =
      server_.Call("CreateTable", TableBody(kDefs, R"("GlobalSecondaryIndexes":[)" + Gsi("gsi", key5) + "]"));
  ASSERT_EQ(200, r.status) << r.Describe();
  const std::string expected = R"([{"AttributeName":"t","KeyType":"HASH"},{"AttributeName":"r","KeyType":"HASH"},)"
                               R"({"AttributeName":"a","KeyType":"RANGE"},{"AttributeName":"b","KeyType":"RANGE"},)"
                               R"({"AttributeName":"m","KeyType":"RANGE"}])";
  EXPECT_EQ(expected, JsonText(r.json["TableDescription"]["GlobalSecondaryIndexes"][0]["KeySchema"]));
  HttpResult d = server_.Call("DescribeTable", R"({"TableName":"multi"})");
  EXPECT_EQ(expected, JsonText(d.json["Table"]["GlobalSecondaryIndexes"][0]["KeySchema"]));
  EXPECT_EQ(R"([{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}])",
            JsonText(d.json["Table"]["KeySchema"]));
  server_.Call("DeleteTable", R"({"TableName":"multi"})");

  ExpectCreated(GsiBody({"b:h", "a:h"}));
  ExpectCreated(GsiBody({"h1:h", "h2:h", "h3:h", "h4:h", "r1:r", "r2:r", "r3:r", "r4:r"}));
  ExpectCreated(GsiBody({"h1:h", "r1:r", "r2:r", "r3:r", "r4:r"}));
  // The table's own key attributes may be components, in any position.
  ExpectCreated(GsiBody({"a:h", "pk:h"}));
  ExpectCreated(GsiBody({"a:h", "b:r", "pk:r"}));
}

TEST_F(MultiAttributeSchemaTest, GlobalIndexKeyViolationsGetDynamoDbMessages) {
  ExpectRefused(GsiBody({"h1:h", "h2:h", "h3:h", "h4:h", "h5:h"}),
                std::string(kInvalid) + "The KeySchema exceeds the maximum allowed number of HASH key attributes");
  ExpectRefused(GsiBody({"h1:h", "r1:r", "r2:r", "r3:r", "r4:r", "r5:r"}),
                std::string(kInvalid) + "The KeySchema exceeds the maximum allowed number of RANGE key attributes");
  ExpectRefused(GsiBody({"h1:h", "h2:h", "h3:h", "h4:h", "h5:h", "r1:r", "r2:r", "r3:r", "r4:r", "r5:r"}),
                std::string(kInvalid) + "The KeySchema exceeds the maximum allowed number of HASH key attributes");
  ExpectRefused(GsiBody({"h1:h", "r1:r", "h2:h"}),
                std::string(kInvalid) + "All HASH key attributes must precede RANGE key attributes in the KeySchema");
  ExpectRefused(GsiBody({"r1:r", "h1:h"}), "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  ExpectRefused(GsiBody({"r1:r"}), "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  ExpectRefused(GsiBody({"r1:r", "r2:r"}), "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  ExpectRefused(GsiBody({"a:h", "b:h", "a:r"}), "The KeySchema contains multiple key attributes with the same name");
  ExpectRefused(GsiBody({"a:h", "a:h"}), "The KeySchema contains multiple key attributes with the same name");
  // A single-attribute [HASH, RANGE] pair keeps its old wording.
  ExpectRefused(GsiBody({"a:h", "a:r"}),
                "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  // Definitions: every component defined; no definition unused (checked first, hiding the shape errors).
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("t")},
                          R"("GlobalSecondaryIndexes":[)" + Gsi("gsi", Key({"t:h", "b:h", "a:r"})) + "]"),
                std::string(kInvalid) +
                    "Some index key attributes are not defined in AttributeDefinitions. Keys: [b, a], "
                    "AttributeDefinitions: [pk, sk, t]");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("t"), Def("x")},
                          R"("GlobalSecondaryIndexes":[)" + Gsi("gsi", Key({"t:r", "t:h"})) + "]"),
                std::string(kInvalid) +
                    "Some AttributeDefinitions are not used. AttributeDefinitions: [pk, sk, t, x], keys used: [pk, sk, "
                    "t]");
}

// Tables and LSIs keep one HASH and at most one RANGE attribute.
TEST_F(MultiAttributeSchemaTest, TablesAndLocalIndexesKeepAtMostTwoElements) {
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("t")}, "", Key({"pk:h", "sk:r", "t:r"})),
                "1 validation error detected: Value '[KeySchemaElement(attributeName=pk, keyType=HASH), "
                "KeySchemaElement(attributeName=sk, keyType=RANGE), KeySchemaElement(attributeName=t, "
                "keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length less than or "
                "equal to 2");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N")}, "", Key({"pk:h", "sk:h"})),
                "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("t"), Def("b")},
                          R"("LocalSecondaryIndexes":[)" + Gsi("lsi", Key({"pk:h", "t:r", "b:r"})) + "]"),
                "1 validation error detected: Value '[KeySchemaElement(attributeName=pk, keyType=HASH), "
                "KeySchemaElement(attributeName=t, keyType=RANGE), KeySchemaElement(attributeName=b, "
                "keyType=RANGE)]' at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member "
                "must have length less than or equal to 2");
  ExpectRefused(TableBody({Def("pk"), Def("sk", "N"), Def("t")},
                          R"("LocalSecondaryIndexes":[)" + Gsi("lsi", Key({"pk:h", "t:h"})) + "]"),
                "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
}

TEST_F(MultiAttributeSchemaTest, UpdateTableCreatesMultiAttributeIndexesWithTheSameRules) {
  ASSERT_EQ(200, server_.CreateTable("multi", "pk", "S", "sk", "N").status);
  auto create = [&](const Strings& key) {
    Strings defs;
    for (const auto& e : key) defs.push_back(Def(e.substr(0, e.find(':'))));
    return server_.Call("UpdateTable", R"({"TableName":"multi","AttributeDefinitions":[)" + Join(defs) +
                                           R"(],"GlobalSecondaryIndexUpdates":[{"Create":)" + Gsi("gsi", Key(key)) +
                                           "}]}");
  };
  HttpResult r = create({"h1:h", "h2:h", "h3:h", "h4:h", "h5:h"});
  EXPECT_EQ(std::string(kInvalid) + "The KeySchema exceeds the maximum allowed number of HASH key attributes",
            r.Message());
  r = create({"h1:h", "r1:r", "r2:r", "r3:r", "r4:r", "r5:r"});
  EXPECT_EQ(std::string(kInvalid) + "The KeySchema exceeds the maximum allowed number of RANGE key attributes",
            r.Message());
  r = create({"h1:h", "r1:r", "h2:h"});
  EXPECT_EQ(std::string(kInvalid) + "All HASH key attributes must precede RANGE key attributes in the KeySchema",
            r.Message());
  r = create({"h1:h", "h2:h", "r1:r", "r2:r", "r3:r"});
  ASSERT_EQ(200, r.status) << r.Describe();
  HttpResult d = server_.Call("DescribeTable", R"({"TableName":"multi"})");
  EXPECT_EQ(R"([{"AttributeName":"h1","KeyType":"HASH"},{"AttributeName":"h2","KeyType":"HASH"},)"
            R"({"AttributeName":"r1","KeyType":"RANGE"},{"AttributeName":"r2","KeyType":"RANGE"},)"
            R"({"AttributeName":"r3","KeyType":"RANGE"}])",
            JsonText(d.json["Table"]["GlobalSecondaryIndexes"][0]["KeySchema"]));
  // Deleting it prunes the definitions only it used.
  r = server_.Call("UpdateTable",
                   R"({"TableName":"multi","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"gsi"}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  d = server_.Call("DescribeTable", R"({"TableName":"multi"})");
  EXPECT_EQ(2u, d.json["Table"]["AttributeDefinitions"].Size()) << d.Describe();
}

// The table of most tests: pk S, sk N; GSI idx5 [t:S HASH, r:N HASH, a:N RANGE, b:S RANGE, m:B RANGE] ALL, and GSI
// idxk [t HASH, a RANGE, b RANGE] KEYS_ONLY.
class MultiAttributeKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    HttpResult r =
        server_.Call("CreateTable", TableBody(kDefs, R"("GlobalSecondaryIndexes":[)" +
                                                         Gsi("idx5", Key({"t:h", "r:h", "a:r", "b:r", "m:r"})) + "," +
                                                         Gsi("idxk", Key({"t:h", "a:r", "b:r"}), "KEYS_ONLY") + "]"));
    ASSERT_EQ(200, r.status) << r.Describe();
  }
  // An item; a component given as "-" is left out. m is base64.
  HttpResult Put(const std::string& pk, int sk, const std::string& t, const std::string& r, const std::string& a,
                 const std::string& b, const std::string& m, const std::string& extra = "") {
    std::string item = R"({"pk":{"S":")" + pk + R"("},"sk":{"N":")" + std::to_string(sk) + R"("})";
    auto add = [&](const char* name, const char* type, const std::string& v) {
      if (v != "-") item += std::string(R"(,")") + name + R"(":{")" + type + R"(":")" + v + R"("})";
    };
    add("t", "S", t);
    add("r", "N", r);
    add("a", "N", a);
    add("b", "S", b);
    add("m", "B", m);
    return server_.Call("PutItem", R"({"TableName":"multi","Item":)" + item + extra + "}}");
  }
  void MustPut(const std::string& pk, int sk, const std::string& t, const std::string& r, const std::string& a,
               const std::string& b, const std::string& m) {
    HttpResult res = Put(pk, sk, t, r, a, b, m);
    ASSERT_EQ(200, res.status) << res.Describe();
  }
  // A Query of idx5 with the condition; values (JSON members) may define more placeholders than it uses (":t" is
  // "T" and ":r" is 1 unless values says otherwise): only those the condition and extra name are sent.
  std::string QueryBody(const std::string& condition, const std::string& values = "", const std::string& extra = "") {
    rapidjson::Document defined;
    defined.Parse((R"({":t":{"S":"T"},":r":{"N":"1"})" + (values.empty() ? "" : "," + values) + "}").c_str());
    std::string used, text = condition + " " + extra + " ";
    for (auto m = defined.MemberBegin(); m != defined.MemberEnd(); ++m) {
      std::string name = m->name.GetString();
      bool named = false;
      for (size_t at = text.find(name); at != std::string::npos && !named; at = text.find(name, at + 1)) {
        named = !std::isalnum(static_cast<unsigned char>(text[at + name.size()]));
      }
      if (named) used += (used.empty() ? "\"" : ",\"") + name + "\":" + JsonText(m->value);
    }
    return R"({"TableName":"multi","IndexName":"idx5","KeyConditionExpression":")" + condition +
           R"(","ExpressionAttributeValues":{)" + used + "}" + extra + "}";
  }
  HttpResult Query(const std::string& condition, const std::string& values = "", const std::string& extra = "") {
    return server_.Call("Query", QueryBody(condition, values, extra));
  }
  // "pk/sk" of every item of the pages.
  static Strings ItemKeys(const std::vector<HttpResult>& pages) {
    Strings pks = Values(pages, "pk"), sks = Values(pages, "sk"), out;
    for (size_t i = 0; i < pks.size(); i++) out.push_back(pks[i] + "/" + sks[i]);
    return out;
  }
  void ExpectQueryRefused(const std::string& condition, const std::string& values, const std::string& message) {
    HttpResult r = Query(condition, values);
    EXPECT_EQ("ValidationException", r.ErrorName()) << condition << ": " << r.Describe();
    EXPECT_EQ(message, r.Message()) << condition;
  }

  TestServer server_;
};

// Items are ordered by the RANGE tuple, each component by its own type (N numerically, S and B by unsigned bytes),
// then by table key; ScanIndexForward=false reverses the whole order.
TEST_F(MultiAttributeKeyTest, EntriesOrderByEveryRangeComponentThenTableKey) {
  // 0x01 "AQ==", 0x02 "Ag==", 0x00 "AA==", 0xFF "/w==".
  MustPut("p7", 7, "T", "1", "10", "a", "AA==");
  MustPut("p4", 4, "T", "1", "2", "ab", "AA==");
  MustPut("p1", 1, "T", "1", "-5", "z", "/w==");
  MustPut("p5", 5, "T", "1", "2", "x", "AQ==");
  MustPut("p3", 3, "T", "1", "2", "a", "Ag==");
  MustPut("p2", 2, "T", "1", "1", "a", "AQ==");
  MustPut("p6", 6, "T", "1", "2.0", "x", "AQ==");  // ties with p5: table key order
  MustPut("p0", 0, "T", "1", "2", "a", "AQ==");
  MustPut("q", 9, "T", "2", "0", "a", "AA==");  // another partition
  MustPut("s", 8, "T", "1", "1", "-", "AA==");  // no b: not indexed
  const Strings forward = {"p1/1", "p2/2", "p0/0", "p3/3", "p4/4", "p5/5", "p6/6", "p7/7"};
  std::vector<HttpResult> pages = ReadAllPages(server_, "Query", QueryBody("t = :t AND r = :r", "", R"(,"Limit":3)"));
  EXPECT_EQ(forward, ItemKeys(pages)) << pages.back().Describe();
  pages = ReadAllPages(server_, "Query", QueryBody("t = :t AND r = :r", "", R"(,"Limit":2,"ScanIndexForward":false)"));
  EXPECT_EQ(Strings(forward.rbegin(), forward.rend()), ItemKeys(pages)) << pages.back().Describe();
}

// An item is in the index only with every component, each of its declared type; an update that removes or adds
// a component moves it out or in; a component of the wrong type or empty is refused on write.
TEST_F(MultiAttributeKeyTest, MembershipNeedsEveryComponent) {
  MustPut("all", 1, "T", "1", "1", "b", "AA==");
  for (int missing = 0; missing < 5; missing++) {
    std::vector<std::string> v = {"T", "1", "1", "b", "AA=="};
    v[missing] = "-";
    MustPut("miss" + std::to_string(missing), 2, v[0], v[1], v[2], v[3], v[4]);
  }
  HttpResult scan = server_.Call("Scan", R"({"TableName":"multi","IndexName":"idx5"})");
  EXPECT_EQ(Strings({"all"}), Values(scan, "pk")) << scan.Describe();
  HttpResult d = server_.Call("DescribeTable", R"({"TableName":"multi"})");
  EXPECT_EQ(1, d.json["Table"]["GlobalSecondaryIndexes"][0]["ItemCount"].GetInt()) << d.Describe();
  EXPECT_EQ(6, d.json["Table"]["ItemCount"].GetInt());

  HttpResult r = server_.Call("UpdateItem", R"({"TableName":"multi","Key":{"pk":{"S":"all"},"sk":{"N":"1"}},
      "UpdateExpression":"REMOVE m"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(0, Query("t = :t AND r = :r").json["Count"].GetInt());
  // Changing a HASH component moves the entry to another partition.
  r = server_.Call("UpdateItem", R"({"TableName":"multi","Key":{"pk":{"S":"miss0"},"sk":{"N":"2"}},
      "UpdateExpression":"SET t = :t","ExpressionAttributeValues":{":t":{"S":"U"}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Strings({"miss0"}), Values(Query("t = :u AND r = :r", R"(":u":{"S":"U"})"), "pk"));
  r = server_.Call("UpdateItem", R"({"TableName":"multi","Key":{"pk":{"S":"miss0"},"sk":{"N":"2"}},
      "UpdateExpression":"SET r = :r","ExpressionAttributeValues":{":r":{"N":"3"}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(0, Query("t = :u AND r = :r", R"(":u":{"S":"U"})").json["Count"].GetInt());
  r = server_.Call("UpdateItem", R"({"TableName":"multi","Key":{"pk":{"S":"miss4"},"sk":{"N":"2"}},
      "UpdateExpression":"SET m = :m","ExpressionAttributeValues":{":m":{"B":"AQ=="}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Strings({"miss4"}), Values(Query("t = :t AND r = :r"), "pk"));

  r = server_.Call("PutItem", R"({"TableName":"multi","Item":{"pk":{"S":"bad"},"sk":{"N":"3"},"b":{"N":"1"}}})");
  EXPECT_EQ(std::string(kInvalid) + "Type mismatch for Index Key b Expected: S Actual: N IndexName: idx5", r.Message());
  r = server_.Call("PutItem", R"({"TableName":"multi","Item":{"pk":{"S":"bad"},"sk":{"N":"3"},"m":{"B":""}}})");
  EXPECT_EQ(
      "One or more parameter values are not valid. A value specified for a secondary index key is not "
      "supported. The AttributeValue for a key attribute cannot contain an empty binary value. IndexName: idx5, "
      "IndexKey: m",
      r.Message());
}

TEST_F(MultiAttributeKeyTest, QueryNeedsEqualityOnEveryHashAttribute) {
  ExpectQueryRefused("t = :t", "", "HASH key attributes r must have equality conditions specified in the query");
  ExpectQueryRefused("a = :a", R"(":a":{"N":"1"})",
                     "HASH key attributes t, r must have equality conditions specified in the query");
  ExpectQueryRefused("t = :t AND r > :r", "",
                     "HASH key attributes r must have equality conditions specified in the query");
  ExpectQueryRefused("t = :t AND r = :r AND x = :x", R"(":x":{"N":"1"})", "Query condition missed key schema element");
  // A HASH attribute only in the filter: the HASH error wins.
  HttpResult r = server_.Call("Query", QueryBody("t = :t", "", R"(,"FilterExpression":"r = :r")"));
  EXPECT_EQ("HASH key attributes r must have equality conditions specified in the query", r.Message());
}

TEST_F(MultiAttributeKeyTest, RangeConditionsFormAPrefixWithOnlyTheLastARange) {
  const std::string values = R"(":a":{"N":"1"},":b":{"S":"b"},":m":{"B":"AA=="},":m2":{"B":"AQ=="})";
  ExpectQueryRefused("t = :t AND r = :r AND b = :b", values,
                     "RANGE key attributes a must have equality conditions specified in the query because a condition "
                     "is present on key attribute b");
  ExpectQueryRefused("t = :t AND r = :r AND a = :a AND m = :m", values,
                     "RANGE key attributes b must have equality conditions specified in the query because a condition "
                     "is present on key attribute m");
  ExpectQueryRefused("t = :t AND r = :r AND a > :a AND b = :b", values,
                     "RANGE key attributes a must have equality conditions specified in the query because a condition "
                     "is present on key attribute b");
  ExpectQueryRefused("t = :t AND r = :r AND a = :a AND begins_with(b, :b) AND m = :m", values,
                     "RANGE key attributes b must have equality conditions specified in the query because a condition "
                     "is present on key attribute m");
  ExpectQueryRefused("t = :t AND r = :r AND a = :a AND a < :a", values,
                     "KeyConditionExpressions must only contain one condition per key");
  ExpectQueryRefused("t = :t AND r = :r AND (a = :a OR b = :b)", values,
                     "Invalid operator used in KeyConditionExpression: OR");
  ExpectQueryRefused("t = :t AND r = :r AND begins_with(a, :a)", values,
                     "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or "
                     "function: begins_with, operand type: N");
  ExpectQueryRefused("t = :t AND r = :r AND a = :b", values,
                     std::string(kInvalid) + "Condition parameter type does not match schema type");
  ExpectQueryRefused("t = :t AND r = :r AND a = :a AND b = :b AND m BETWEEN :a AND :a", values,
                     std::string(kInvalid) + "Condition parameter type does not match schema type");
  // Any textual order and parentheses; every operator on the last condition.
  for (const char* ok : {"t = :t AND r = :r", "r = :r AND t = :t", "(b = :b) AND r = :r AND (a = :a AND t = :t)",
                         "m BETWEEN :m AND :m2 AND b = :b AND a = :a AND r = :r AND t = :t",
                         "t = :t AND r = :r AND a = :a AND begins_with(b, :b)", "t = :t AND r = :r AND :a < a",
                         "t = :t AND r = :r AND a = :a AND b = :b AND begins_with(m, :m)"}) {
    HttpResult r = Query(ok, values);
    EXPECT_EQ(200, r.status) << ok << ": " << r.Describe();
  }
  // The legacy KeyConditions follow the same rules.
  HttpResult r = server_.Call("Query", R"({"TableName":"multi","IndexName":"idx5","KeyConditions":{
      "t":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"T"}]},
      "r":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"}]},
      "b":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"b"}]}}})");
  EXPECT_EQ(
      "RANGE key attributes a must have equality conditions specified in the query because a condition is "
      "present on key attribute b",
      r.Message());
  r = server_.Call("Query", R"({"TableName":"multi","IndexName":"idx5","KeyConditions":{
      "t":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"T"}]}}})");
  EXPECT_EQ("HASH key attributes r must have equality conditions specified in the query", r.Message());
  r = server_.Call("Query", R"({"TableName":"multi","IndexName":"idx5","KeyConditions":{
      "t":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"T"}]},
      "r":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"}]},
      "a":{"ComparisonOperator":"GE","AttributeValueList":[{"N":"1"}]}}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  // A table keeps its limit of two conditions.
  r = server_.Call("Query", R"({"TableName":"multi","KeyConditionExpression":"pk = :p AND sk = :s AND t = :t",
      "ExpressionAttributeValues":{":p":{"S":"p"},":s":{"N":"1"},":t":{"S":"T"}}})");
  EXPECT_EQ("Conditions can be of length 1 or 2 only", r.Message());
}

// Each operator on the last condition selects exactly the entries it names, after the equalities before it.
TEST_F(MultiAttributeKeyTest, RangePrefixSelectsItsEntries) {
  MustPut("p1", 1, "T", "1", "1", "a", "AA==");
  MustPut("p2", 2, "T", "1", "1", "ab", "AA==");
  MustPut("p3", 3, "T", "1", "1", "ab", "AQ==");
  MustPut("p4", 4, "T", "1", "1", "b", "AA==");
  MustPut("p5", 5, "T", "1", "2", "a", "AA==");
  MustPut("p6", 6, "T", "1", "0", "ab", "AA==");
  MustPut("x", 7, "U", "1", "1", "ab", "AA==");
  const std::string values =
      R"(":a":{"N":"1"},":a2":{"N":"2"},":b":{"S":"ab"},":bp":{"S":"a"},":m":{"B":"AA=="},":m1":{"B":"AQ=="})";
  auto pks = [&](const std::string& condition) { return Values(Query(condition, values), "pk"); };
  EXPECT_EQ(Strings({"p6", "p1", "p2", "p3", "p4", "p5"}), pks("t = :t AND r = :r"));
  EXPECT_EQ(Strings({"p1", "p2", "p3", "p4"}), pks("t = :t AND r = :r AND a = :a"));
  EXPECT_EQ(Strings({"p1", "p2", "p3", "p4", "p5"}), pks("t = :t AND r = :r AND a >= :a"));
  EXPECT_EQ(Strings({"p5"}), pks("t = :t AND r = :r AND a > :a"));
  EXPECT_EQ(Strings({"p6"}), pks("t = :t AND r = :r AND a < :a"));
  EXPECT_EQ(Strings({"p6", "p1", "p2", "p3", "p4"}), pks("t = :t AND r = :r AND a <= :a"));
  EXPECT_EQ(Strings({"p1", "p2", "p3", "p4", "p5"}), pks("t = :t AND r = :r AND a BETWEEN :a AND :a2"));
  EXPECT_EQ(Strings({"p2", "p3"}), pks("t = :t AND r = :r AND a = :a AND b = :b"));
  EXPECT_EQ(Strings({"p1", "p2", "p3"}), pks("t = :t AND r = :r AND a = :a AND begins_with(b, :bp)"));
  EXPECT_EQ(Strings({"p1"}), pks("t = :t AND r = :r AND a = :a AND b < :b"));
  EXPECT_EQ(Strings({"p4"}), pks("t = :t AND r = :r AND a = :a AND b > :b"));
  EXPECT_EQ(Strings({"p3"}), pks("t = :t AND r = :r AND a = :a AND b = :b AND m > :m"));
  EXPECT_EQ(Strings({"p2"}), pks("t = :t AND r = :r AND a = :a AND b = :b AND m = :m"));
  EXPECT_EQ(Strings({"p2", "p3"}), pks("t = :t AND r = :r AND a = :a AND b = :b AND m BETWEEN :m AND :m1"));
}

TEST_F(MultiAttributeKeyTest, FilterMayNotNameAnyKeyAttribute) {
  for (const char* attribute : {"m", "a", "t"}) {
    HttpResult r = server_.Call("Query", QueryBody("t = :t AND r = :r", R"(":v":{"S":"x"})",
                                                   std::string(R"(,"FilterExpression":")") + attribute + R"( = :v")"));
    EXPECT_EQ(std::string("Filter Expression can only contain non-primary key attributes: Primary key attribute: ") +
                  attribute,
              r.Message());
  }
  HttpResult r = server_.Call("Query", R"({"TableName":"multi","IndexName":"idx5","KeyConditions":{
      "t":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"T"}]},
      "r":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"1"}]}},
      "QueryFilter":{"b":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}}})");
  EXPECT_EQ("QueryFilter can only contain non-primary key attributes: Primary key attribute: b", r.Message());
}

// LastEvaluatedKey holds every component and the table key; ExclusiveStartKey must hold them all and lie in the
// queried range.
TEST_F(MultiAttributeKeyTest, LastEvaluatedKeyHoldsEveryComponent) {
  for (int i = 0; i < 6; i++) MustPut("p" + std::to_string(i), i, "T", "1", "1", "b", "AA==");
  HttpResult r = Query("t = :t AND r = :r", "", R"(,"Limit":2)");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"(a={"N":"1"} b={"S":"b"} m={"B":"AA=="} pk={"S":"p1"} r={"N":"1"} sk={"N":"1"} t={"S":"T"})",
            Members(r.json["LastEvaluatedKey"]));
  HttpResult s = server_.Call("Scan", R"({"TableName":"multi","IndexName":"idx5","Limit":1})");
  EXPECT_EQ(7u, s.json["LastEvaluatedKey"].MemberCount()) << s.Describe();
  HttpResult k = server_.Call("Scan", R"({"TableName":"multi","IndexName":"idxk","Limit":1})");
  EXPECT_EQ(5u, k.json["LastEvaluatedKey"].MemberCount()) << k.Describe();

  const std::string body = QueryBody("t = :t AND r = :r", "", R"(,"Limit":2)");
  auto from = [&](const std::string& key) { return CallFrom(server_, "Query", body, key); };
  const std::string full = R"("t":{"S":"T"},"r":{"N":"1"},"a":{"N":"1"},"b":{"S":"b"},"pk":{"S":"p1"},"sk":{"N":"1"})";
  EXPECT_EQ("The provided starting key is invalid", from("{" + full + "}").Message());  // no m
  EXPECT_EQ(
      "The provided starting key is invalid",
      from(R"({"t":{"S":"T"},"r":{"N":"1"},"a":{"N":"1"},"b":{"S":"b"},"m":{"B":"AA=="},"pk":{"S":"p1"}})").Message());
  EXPECT_EQ("The provided starting key does not match the range key predicate",
            from(R"({"t":{"S":"T"},"r":{"N":"2"},"a":{"N":"1"},"b":{"S":"b"},"m":{"B":"AA=="},"pk":{"S":"p1"},)"
                 R"("sk":{"N":"1"}})")
                .Message());
  HttpResult out = CallFrom(server_, "Query", QueryBody("t = :t AND r = :r AND a > :a", R"(":a":{"N":"1"})"),
                            "{" + full + R"(,"m":{"B":"AA=="}})");
  EXPECT_EQ("The provided starting key does not match the range key predicate", out.Message());
  // A Scan's start key too needs every component.
  HttpResult scan = CallFrom(server_, "Scan", R"({"TableName":"multi","IndexName":"idx5","Limit":1})", "{" + full + "}");
  EXPECT_EQ("The provided starting key is invalid", scan.Message()) << scan.Describe();
  // Resuming from a LastEvaluatedKey returns what follows it.
  HttpResult next = from("{" + full + R"(,"m":{"B":"AA=="}})");
  EXPECT_EQ(Strings({"p2", "p3"}), Values(next, "pk")) << next.Describe();
}

// Parallel Scan of the index covers every entry exactly once, with each partition's entries in tuple order.
TEST_F(MultiAttributeKeyTest, ParallelScanCoversEveryEntryOnce) {
  std::set<std::string> expected;
  for (int i = 0; i < 120; i++) {
    std::string pk = "p" + std::to_string(i);
    MustPut(pk, i, i % 3 == 0 ? "T" : "U", std::to_string(i % 4), std::to_string(i % 5), i % 2 ? "a" : "b", "AA==");
    expected.insert(pk);
  }
  std::vector<std::string> seen;
  for (int segment = 0; segment < 4; segment++) {
    std::vector<HttpResult> pages =
        ReadAllPages(server_, "Scan",
                     R"({"TableName":"multi","IndexName":"idx5","Limit":7,"TotalSegments":4,"Segment":)" +
                         std::to_string(segment) + "}");
    ASSERT_EQ(200, pages.back().status) << pages.back().Describe();
    Strings pks = Values(pages, "pk");
    seen.insert(seen.end(), pks.begin(), pks.end());
  }
  EXPECT_EQ(expected.size(), seen.size());
  EXPECT_EQ(expected, std::set<std::string>(seen.begin(), seen.end()));
}

// KEYS_ONLY entries hold every component and the table key; Select and ProjectionExpression follow the GSI rules.
TEST_F(MultiAttributeKeyTest, KeysOnlyProjectionHoldsEveryKeyAttribute) {
  MustPut("p", 1, "T", "1", "1", "b", "AA==");
  HttpResult r = server_.Call("Query", R"({"TableName":"multi","IndexName":"idxk","KeyConditionExpression":"t = :t",
      "ExpressionAttributeValues":{":t":{"S":"T"}}})");
  ASSERT_EQ(1u, r.json["Items"].Size()) << r.Describe();
  EXPECT_EQ(R"(a={"N":"1"} b={"S":"b"} pk={"S":"p"} sk={"N":"1"} t={"S":"T"})", Members(r.json["Items"][0]));
  r = server_.Call("Query", R"({"TableName":"multi","IndexName":"idxk","KeyConditionExpression":"t = :t",
      "ExpressionAttributeValues":{":t":{"S":"T"}},"Select":"ALL_ATTRIBUTES"})");
  EXPECT_EQ(std::string(kInvalid) +
                "Select type ALL_ATTRIBUTES is not supported for global secondary index idxk because its projection "
                "type is not ALL",
            r.Message());
  r = server_.Call("Query", R"({"TableName":"multi","IndexName":"idxk","KeyConditionExpression":"t = :t",
      "ExpressionAttributeValues":{":t":{"S":"T"}},"Select":"COUNT"})");
  EXPECT_EQ(1, r.json["Count"].GetInt()) << r.Describe();
}

// Writes are charged to the index, counts and sizes cover indexed items only, and an index created on a populated
// table is backfilled with the items that hold every component.
TEST_F(MultiAttributeKeyTest, CapacityCountsAndBackfill) {
  HttpResult r = server_.Call("PutItem", R"({"TableName":"multi","ReturnConsumedCapacity":"INDEXES","Item":{
      "pk":{"S":"p"},"sk":{"N":"1"},"t":{"S":"T"},"r":{"N":"1"},"a":{"N":"1"},"b":{"S":"b"},"m":{"B":"AA=="}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  auto units = [](const HttpResult& res, const char* index) {
    const auto& indexes = res.json["ConsumedCapacity"]["GlobalSecondaryIndexes"];
    return indexes.HasMember(index) ? indexes[index]["CapacityUnits"].GetDouble() : -1.0;
  };
  EXPECT_EQ(1.0, units(r, "idx5")) << r.Describe();
  EXPECT_EQ(1.0, units(r, "idxk"));
  // Changing a component moves the entry: a delete and a put.
  r = server_.Call("UpdateItem", R"({"TableName":"multi","ReturnConsumedCapacity":"INDEXES",
      "Key":{"pk":{"S":"p"},"sk":{"N":"1"}},"UpdateExpression":"SET m = :m","ExpressionAttributeValues":{":m":{"B":"AQ=="}}})");
  EXPECT_EQ(2.0, units(r, "idx5")) << r.Describe();
  r = Query("t = :t AND r = :r", "", R"(,"ReturnConsumedCapacity":"INDEXES")");
  EXPECT_EQ(0.5, units(r, "idx5")) << r.Describe();

  MustPut("q", 2, "T", "1", "1", "-", "AA==");
  MustPut("s", 3, "T", "2", "7", "b", "AA==");
  r = server_.Call("UpdateTable", R"({"TableName":"multi","AttributeDefinitions":[
      {"AttributeName":"t","AttributeType":"S"},{"AttributeName":"a","AttributeType":"N"},
      {"AttributeName":"sk","AttributeType":"N"}],
      "GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"late","KeySchema":[
      {"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"t","KeyType":"HASH"},
      {"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  r = server_.Call("Query", R"({"TableName":"multi","IndexName":"late","KeyConditionExpression":"t = :t AND a = :a",
      "ExpressionAttributeValues":{":t":{"S":"T"},":a":{"N":"1"}}})");
  EXPECT_EQ(Strings({"p", "q"}), Values(r, "pk")) << r.Describe();
  HttpResult d = server_.Call("DescribeTable", R"({"TableName":"multi"})");
  for (const auto& index : d.json["Table"]["GlobalSecondaryIndexes"].GetArray()) {
    std::string name = index["IndexName"].GetString();
    int expected = name == "late" ? 3 : 2;  // q lacks b
    EXPECT_EQ(expected, index["ItemCount"].GetInt()) << name;
    EXPECT_GT(index["IndexSizeBytes"].GetInt(), 0) << name;
  }
}

// A multi-attribute key is kept in the stored table definition: after a restart on the same --db-path the index
// is described, queried and maintained as before.
TEST(MultiAttributeKeyRestartTest, DefinitionAndEntriesSurviveARestart) {
  std::string dir = testing::TempDir() + "/dynapage-multikey-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  TestServerOptions options;
  options.path = dir;
  const std::string query =
      R"({"TableName":"multi","IndexName":"gsi","KeyConditionExpression":"t = :t AND r = :r AND a > :a",)"
      R"("ExpressionAttributeValues":{":t":{"S":"T"},":r":{"N":"1"},":a":{"N":"0"}}})";
  std::string described;
  {
    TestServer server(options);
    HttpResult r = server.Call(
        "CreateTable",
        TableBody(kDefs, R"("GlobalSecondaryIndexes":[)" + Gsi("gsi", Key({"t:h", "r:h", "a:r", "b:r", "m:r"})) + "]"));
    ASSERT_EQ(200, r.status) << r.Describe();
    r = server.Call("PutItem", R"({"TableName":"multi","Item":{"pk":{"S":"p"},"sk":{"N":"1"},"t":{"S":"T"},)"
                               R"("r":{"N":"1"},"a":{"N":"1"},"b":{"S":"b"},"m":{"B":"AA=="}}})");
    ASSERT_EQ(200, r.status) << r.Describe();
    described = JsonText(server.Call("DescribeTable", R"({"TableName":"multi"})")
                             .json["Table"]["GlobalSecondaryIndexes"][0]["KeySchema"]);
  }
  {
    TestServer again(options);
    HttpResult d = again.Call("DescribeTable", R"({"TableName":"multi"})");
    EXPECT_EQ(described, JsonText(d.json["Table"]["GlobalSecondaryIndexes"][0]["KeySchema"]));
    HttpResult r =
        again.Call("PutItem", R"({"TableName":"multi","Item":{"pk":{"S":"q"},"sk":{"N":"2"},)"
                              R"("t":{"S":"T"},"r":{"N":"1"},"a":{"N":"2"},"b":{"S":"a"},"m":{"B":"AA=="}}})");
    ASSERT_EQ(200, r.status) << r.Describe();
    EXPECT_EQ(Strings({"p", "q"}), Values(again.Call("Query", query), "pk"));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynapage
