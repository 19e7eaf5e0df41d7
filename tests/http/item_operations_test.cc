// PutItem, GetItem, DeleteItem, BatchWriteItem, BatchGetItem through HTTP: results, every §9 / §3.2 / §1.3 / §8.6
// message, capacity (§7.3), and that a refused request changes nothing.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/base/base64.h"
#include "engine/model/attribute_value_json.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kNoMatch[] = "The provided key element does not match the schema";
const char kNotFound[] = "Requested resource not found";
const char kTooBig[] = "Item size has exceeded the maximum allowed size";
const char kDuplicates[] = "Provided list of item keys contains duplicates";
const char kInvalid[] = "One or more parameter values were invalid: ";
const char kHashKeyTooBig[] =
    "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes";
const char kRangeKeyTooBig[] =
    "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of "
    "1024 bytes";

std::string Repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; i++) out += s;
  return out;
}

// An AttributeMap from its wire JSON (sets compare as sets, numbers by value).
AttributeMap Item(const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  AttributeMap map;
  Status s = DecodeAttributeMap(doc, &map);
  EXPECT_TRUE(s.ok()) << json << ": " << s.message();
  return map;
}

AttributeMap Item(const rapidjson::Value& json) { return Item(JsonText(json)); }

class ItemOperationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(200, server_.CreateTable("items", "pk", "S").status);
    ASSERT_EQ(200, server_.CreateTable("range", "pk", "S", "sk", "S").status);
    ASSERT_EQ(200, server_.CreateTable("num", "id", "N").status);
    ASSERT_EQ(200, server_.CreateTable("bin", "id", "B").status);
  }

  HttpResult Put(const std::string& table, const std::string& item, const std::string& extra = "") {
    return server_.Call("PutItem", R"({"TableName":")" + table + R"(","Item":)" + item + extra + "}");
  }
  HttpResult Get(const std::string& table, const std::string& key, const std::string& extra = "") {
    return server_.Call("GetItem", R"({"TableName":")" + table + R"(","Key":)" + key + extra + "}");
  }
  HttpResult Delete(const std::string& table, const std::string& key, const std::string& extra = "") {
    return server_.Call("DeleteItem", R"({"TableName":")" + table + R"(","Key":)" + key + extra + "}");
  }
  // Expects a ValidationException with exactly this message.
  void ExpectValidation(const HttpResult& r, const std::string& message) {
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ("com.amazon.coral.validate#ValidationException", r.ErrorType()) << r.Describe();
    EXPECT_EQ(message, r.Message());
  }
  // The body of a GetItem of key in table.
  std::string Stored(const std::string& table, const std::string& key) {
    return Get(table, key, R"(,"ConsistentRead":true)").body;
  }
  int64_t ItemCount(const std::string& table) {
    HttpResult r = server_.Call("DescribeTable", R"({"TableName":")" + table + R"("})");
    return r.json["Table"]["ItemCount"].GetInt64();
  }
  int64_t TableSizeBytes(const std::string& table) {
    HttpResult r = server_.Call("DescribeTable", R"({"TableName":")" + table + R"("})");
    return r.json["Table"]["TableSizeBytes"].GetInt64();
  }

  TestServer server_;
};

TEST_F(ItemOperationsTest, PutThenGetEveryType) {
  const std::string item =
      R"({"pk":{"S":"k1"},"s":{"S":"h\u00e9llo"},"n":{"N":"-12.50"},"b":{"B":"AAEC/w=="},"t":{"BOOL":true},)"
      R"("f":{"BOOL":false},"z":{"NULL":true},"l":{"L":[{"S":"x"},{"N":"1e2"},{"L":[]},{"M":{}}]},)"
      R"("m":{"M":{"inner":{"M":{"deep":{"SS":["a","b"]}}},"e":{"S":""}}},"ss":{"SS":["z","y","x"]},)"
      R"("ns":{"NS":["3","1.0","2e1"]},"bs":{"BS":["AQ==","Ag=="]}})";
  HttpResult r = Put("items", item);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("{}", r.body);
  r = Get("items", R"({"pk":{"S":"k1"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(r.Has("Item")) << r.body;
  EXPECT_EQ(Item(item), Item(r.json["Item"]));
  // Numbers come back canonical (§3.1, §8.6).
  EXPECT_STREQ("-12.5", r.json["Item"]["n"]["N"].GetString());
  EXPECT_STREQ("100", r.json["Item"]["l"]["L"][1]["N"].GetString());
  std::set<std::string> ns;
  for (const auto& e : r.json["Item"]["ns"]["NS"].GetArray()) ns.insert(e.GetString());
  EXPECT_EQ((std::set<std::string>{"1", "3", "20"}), ns);
}

TEST_F(ItemOperationsTest, PutReplacesWholeItem) {
  ASSERT_EQ(200, Put("items", R"({"pk":{"S":"a"},"x":{"N":"1"},"y":{"N":"2"}})").status);
  ASSERT_EQ(200, Put("items", R"({"pk":{"S":"a"},"z":{"N":"3"}})").status);
  EXPECT_EQ(R"({"Item":{"pk":{"S":"a"},"z":{"N":"3"}}})", Stored("items", R"({"pk":{"S":"a"}})"));
  EXPECT_EQ(1, ItemCount("items"));
}

TEST_F(ItemOperationsTest, GetMissingItemIsEmptyObject) {
  HttpResult r = Get("items", R"({"pk":{"S":"none"}})");
  EXPECT_EQ(200, r.status);
  EXPECT_EQ("{}", r.body);
}

TEST_F(ItemOperationsTest, NumberKeysAreEqualByValue) {
  ASSERT_EQ(200, Put("num", R"({"id":{"N":"1e3"},"v":{"S":"first"}})").status);
  EXPECT_EQ(R"({"Item":{"id":{"N":"1000"},"v":{"S":"first"}}})", Stored("num", R"({"id":{"N":"1000.00"}})"));
  ASSERT_EQ(200, Put("num", R"({"id":{"N":"1000"},"v":{"S":"second"}})").status);
  EXPECT_EQ(1, ItemCount("num"));
}

TEST_F(ItemOperationsTest, BinaryKeys) {
  ASSERT_EQ(200, Put("bin", R"({"id":{"B":"AAE="},"v":{"N":"1"}})").status);
  ASSERT_EQ(200, Put("bin", R"({"id":{"B":"AAI="},"v":{"N":"2"}})").status);
  EXPECT_EQ(R"({"Item":{"id":{"B":"AAE="},"v":{"N":"1"}}})", Stored("bin", R"({"id":{"B":"AAE="}})"));
  EXPECT_EQ("{}", Stored("bin", R"({"id":{"B":"AA=="}})"));
}

TEST_F(ItemOperationsTest, ReturnValuesAllOld) {
  HttpResult r = Put("items", R"({"pk":{"S":"a"},"v":{"N":"1"}})", R"(,"ReturnValues":"ALL_OLD")");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("{}", r.body);  // nothing was there
  r = Put("items", R"({"pk":{"S":"a"},"v":{"N":"2"}})", R"(,"ReturnValues":"ALL_OLD")");
  EXPECT_EQ(R"({"Attributes":{"pk":{"S":"a"},"v":{"N":"1"}}})", r.body);
  r = Put("items", R"({"pk":{"S":"a"},"v":{"N":"3"}})", R"(,"ReturnValues":"NONE")");
  EXPECT_EQ("{}", r.body);
  r = Delete("items", R"({"pk":{"S":"a"}})", R"(,"ReturnValues":"ALL_OLD")");
  EXPECT_EQ(R"({"Attributes":{"pk":{"S":"a"},"v":{"N":"3"}}})", r.body);
  r = Delete("items", R"({"pk":{"S":"a"}})", R"(,"ReturnValues":"ALL_OLD")");
  EXPECT_EQ(200, r.status);
  EXPECT_EQ("{}", r.body);
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"a"}})"));
}

TEST_F(ItemOperationsTest, ReturnValuesOtherThanAllOldAreRefusedOnPutAndDelete) {
  ExpectValidation(Put("items", R"({"pk":{"S":"a"}})", R"(,"ReturnValues":"ALL_NEW")"),
                   "ReturnValues can only be ALL_OLD or NONE");
  ExpectValidation(Delete("items", R"({"pk":{"S":"a"}})", R"(,"ReturnValues":"UPDATED_NEW")"),
                   "ReturnValues can only be ALL_OLD or NONE");
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"a"}})"));
}

TEST_F(ItemOperationsTest, DeleteItem) {
  ASSERT_EQ(200, Put("range", R"({"pk":{"S":"a"},"sk":{"S":"1"}})").status);
  ASSERT_EQ(200, Put("range", R"({"pk":{"S":"a"},"sk":{"S":"2"}})").status);
  HttpResult r = Delete("range", R"({"pk":{"S":"a"},"sk":{"S":"1"}})");
  EXPECT_EQ(200, r.status);
  EXPECT_EQ("{}", r.body);
  EXPECT_EQ("{}", Stored("range", R"({"pk":{"S":"a"},"sk":{"S":"1"}})"));
  EXPECT_EQ(R"({"Item":{"pk":{"S":"a"},"sk":{"S":"2"}}})", Stored("range", R"({"pk":{"S":"a"},"sk":{"S":"2"}})"));
  EXPECT_EQ(1, ItemCount("range"));
  // Deleting an absent item succeeds.
  EXPECT_EQ(200, Delete("range", R"({"pk":{"S":"zz"},"sk":{"S":"1"}})").status);
}

// §9: data-plane operations use the short not-found message.
TEST_F(ItemOperationsTest, MissingTable) {
  for (const HttpResult& r : {Put("nope", R"({"pk":{"S":"a"}})"), Get("nope", R"({"pk":{"S":"a"}})"),
                              Delete("nope", R"({"pk":{"S":"a"}})")}) {
    EXPECT_EQ(400, r.status);
    EXPECT_EQ("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", r.ErrorType());
    EXPECT_EQ(kNotFound, r.Message());
  }
}

// §9 Put: missing key attributes and type mismatches.
TEST_F(ItemOperationsTest, AttributeNamesMustBeNonEmptyAndAtMost64KB) {
  HttpResult r = Put("items", R"({"pk":{"S":"a"},"":{"S":"x"}})");
  EXPECT_EQ(400, r.status) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("Empty attribute name")) << r.Message();
  r = server_.Call("BatchWriteItem",
                   R"({"RequestItems":{"items":[{"PutRequest":{"Item":{"pk":{"S":"a"},"":{"N":"1"}}}}]}})");
  EXPECT_EQ(400, r.status) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("Empty attribute name")) << r.Message();
  r = Put("items", R"({"pk":{"S":"a"},")" + std::string(65536, 'n') + R"(":{"S":"x"}})");
  EXPECT_EQ(400, r.status) << r.Describe();
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"a"}})"));
  EXPECT_EQ(200, Put("items", R"({"pk":{"S":"a"},")" + std::string(65535, 'n') + R"(":{"S":"x"}})").status);
}

TEST_F(ItemOperationsTest, PutKeyErrors) {
  ExpectValidation(Put("items", R"({"other":{"S":"a"}})"), std::string(kInvalid) + "Missing the key pk in the item");
  ExpectValidation(Put("range", R"({"pk":{"S":"a"}})"), std::string(kInvalid) + "Missing the key sk in the item");
  ExpectValidation(Put("items", R"({"pk":{"N":"1"}})"),
                   std::string(kInvalid) + "Type mismatch for key pk expected: S actual: N");
  ExpectValidation(Put("num", R"({"id":{"S":"1"}})"),
                   std::string(kInvalid) + "Type mismatch for key id expected: N actual: S");
  ExpectValidation(Put("range", R"({"pk":{"S":"a"},"sk":{"SS":["1"]}})"),
                   std::string(kInvalid) + "Type mismatch for key sk expected: S actual: SS");
  ExpectValidation(Put("bin", R"({"id":{"L":[]}})"),
                   std::string(kInvalid) + "Type mismatch for key id expected: B actual: L");
}

// §9 Get/Delete: any key that is not exactly the schema.
TEST_F(ItemOperationsTest, KeyDoesNotMatchSchema) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"items", R"({})"},
      {"items", R"({"pk":{"N":"1"}})"},
      {"items", R"({"pk":{"S":"a"},"extra":{"S":"b"}})"},
      {"items", R"({"other":{"S":"a"}})"},
      {"range", R"({"pk":{"S":"a"}})"},
      {"range", R"({"pk":{"S":"a"},"sk":{"N":"1"}})"},
      {"range", R"({"sk":{"S":"a"}})"},
      {"num", R"({"id":{"S":"1"}})"},
  };
  for (const auto& [table, key] : cases) {
    SCOPED_TRACE(table + " " + key);
    ExpectValidation(Get(table, key), kNoMatch);
    ExpectValidation(Delete(table, key), kNoMatch);
  }
}

// §9: an empty string key value.
TEST_F(ItemOperationsTest, EmptyKeyString) {
  const std::string message =
      "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty "
      "string value. Key: pk";
  ExpectValidation(Put("items", R"({"pk":{"S":""}})"), message);
  ExpectValidation(Get("items", R"({"pk":{"S":""}})"), message);
  ExpectValidation(Delete("items", R"({"pk":{"S":""}})"), message);
  ExpectValidation(Put("range", R"({"pk":{"S":"a"},"sk":{"S":""}})"),
                   "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                   "contain an empty string value. Key: sk");
  // Empty strings are fine outside the key.
  EXPECT_EQ(200, Put("items", R"({"pk":{"S":"a"},"e":{"S":""}})").status);
}

// §3.2: partition key ≤ 2048 bytes, sort key ≤ 1024 bytes, counted in UTF-8 bytes; exact boundaries.
TEST_F(ItemOperationsTest, KeySizeLimits) {
  std::string pk2048 = std::string(2048, 'p');
  EXPECT_EQ(200, Put("items", R"({"pk":{"S":")" + pk2048 + R"("}})").status);
  EXPECT_EQ(R"({"Item":{"pk":{"S":")" + pk2048 + R"("}}})", Stored("items", R"({"pk":{"S":")" + pk2048 + R"("}})"));
  ExpectValidation(Put("items", R"({"pk":{"S":")" + pk2048 + R"(q"}})"), kHashKeyTooBig);
  ExpectValidation(Get("items", R"({"pk":{"S":")" + pk2048 + R"(q"}})"), kHashKeyTooBig);
  ExpectValidation(Delete("items", R"({"pk":{"S":")" + pk2048 + R"(q"}})"), kHashKeyTooBig);
  // UTF-8 bytes, not characters: 1024 × "ä" is 2048 bytes.
  std::string umlauts = Repeat("\xc3\xa4", 1024);
  EXPECT_EQ(200, Put("items", R"({"pk":{"S":")" + umlauts + R"("}})").status);
  ExpectValidation(Put("items", R"({"pk":{"S":")" + umlauts + R"(a"}})"), kHashKeyTooBig);

  std::string sk1024 = std::string(1024, 's');
  EXPECT_EQ(200, Put("range", R"({"pk":{"S":"a"},"sk":{"S":")" + sk1024 + R"("}})").status);
  ExpectValidation(Put("range", R"({"pk":{"S":"a"},"sk":{"S":")" + sk1024 + R"(t"}})"), kRangeKeyTooBig);
  ExpectValidation(Get("range", R"({"pk":{"S":"a"},"sk":{"S":")" + sk1024 + R"(t"}})"), kRangeKeyTooBig);
  ExpectValidation(Put("range", R"({"pk":{"S":"a"},"sk":{"S":")" + Repeat("\xc3\xa4", 512) + R"(t"}})"),
                   kRangeKeyTooBig);

  // Binary keys count decoded bytes.
  EXPECT_EQ(200, Put("bin", R"({"id":{"B":")" + Base64Encode(std::string(2048, '\x01')) + R"("}})").status);
  ExpectValidation(Put("bin", R"({"id":{"B":")" + Base64Encode(std::string(2049, '\x01')) + R"("}})"),
                   kHashKeyTooBig);
}

// §1.3: an item of exactly 409600 bytes is stored, one byte more is refused (UTF-8 bytes, names included).
TEST_F(ItemOperationsTest, ItemSizeLimitExactBoundary) {
  // pk(2) + "x"(1) + data(4) + value
  std::string at_limit = std::string(409600 - 7, 'd');
  HttpResult r = Put("items", R"({"pk":{"S":"x"},"data":{"S":")" + at_limit + R"("}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  r = Put("items", R"({"pk":{"S":"y"},"data":{"S":")" + at_limit + R"(+"}})");
  ExpectValidation(r, kTooBig);
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"y"}})"));
  // Multi-byte characters count their UTF-8 bytes (not UTF-16 units, docs/behaviour.md §1.3).
  std::string utf8 = "a" + Repeat("\xc3\xa4", (409600 - 7 - 1) / 2);  // 1 + 409592 bytes
  EXPECT_EQ(200, Put("items", R"({"pk":{"S":"u"},"data":{"S":")" + utf8 + R"("}})").status);
  ExpectValidation(Put("items", R"({"pk":{"S":"v"},"data":{"S":")" + utf8 + R"(a"}})"), kTooBig);
  // The attribute name counts: a longer name with the same value is over.
  ExpectValidation(Put("items", R"({"pk":{"S":"w"},"data2":{"S":")" + at_limit + R"("}})"), kTooBig);
}

// §1.2: the DYN-T 400 KB boundaries with number attributes, to the byte.
TEST_F(ItemOperationsTest, ItemSizeLimitWithNumbers) {
  struct Case {
    const char* number;
    size_t size;
  } cases[] = {{"1e125", 2},       {"11e124", 2},      {"11111e121", 4}, {"111111e120", 4},
               {"1111111e119", 5}, {"11111111111111111111111111111111111111e88", 20}, {"-12.3456", 5}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.number);
    // pk(2)+"x"(1) + n(1)+size + d(1)+filler
    std::string filler(409600 - 3 - 1 - c.size - 1, 'f');
    std::string item = R"({"pk":{"S":"x"},"n":{"N":")" + std::string(c.number) + R"("},"d":{"S":")" + filler + "\"}}";
    EXPECT_EQ(200, Put("items", item).status);
    std::string over = R"({"pk":{"S":"x"},"n":{"N":")" + std::string(c.number) + R"("},"d":{"S":")" + filler + "f\"}}";
    ExpectValidation(Put("items", over), kTooBig);
  }
}

// §1.1: L/M overhead and set sizes count toward the limit.
TEST_F(ItemOperationsTest, ItemSizeLimitWithCollections) {
  // pk(2)+1 + l(1) + L[3 + (1+filler) + (1+1 BOOL)] = 3 + 1 + 3 + 1 + filler + 2
  std::string filler(409600 - 10, 'l');
  EXPECT_EQ(200, Put("items", R"({"pk":{"S":"x"},"l":{"L":[{"S":")" + filler + R"("},{"BOOL":true}]}})").status);
  ExpectValidation(Put("items", R"({"pk":{"S":"x"},"l":{"L":[{"S":")" + filler + R"(l"},{"BOOL":true}]}})"), kTooBig);
  // SS with no per-element overhead: pk(3) + s(1) + 2 + filler2
  std::string filler2(409600 - 6, 's');
  EXPECT_EQ(200, Put("items", R"({"pk":{"S":"y"},"s":{"SS":["ab",")" + filler2 + R"("]}})").status);
  ExpectValidation(Put("items", R"({"pk":{"S":"y"},"s":{"SS":["abc",")" + filler2 + R"("]}})"), kTooBig);
}

// §8.6 through PutItem and GetItem.
TEST_F(ItemOperationsTest, NumberErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "The parameter cannot be converted to a numeric value"},
      {"b", "The parameter cannot be converted to a numeric value: b"},
      {"NaN", "The parameter cannot be converted to a numeric value: NaN"},
      {"Infinity", "The parameter cannot be converted to a numeric value: Infinity"},
      {"1 ", "The parameter cannot be converted to a numeric value: 1 "},
      {"1e126", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {"-1e126", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {"1e-131", "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
      {"1.2345678901234567890123456789012345678", "OK"},
      {"1.23456789012345678901234567890123456789",
       "Attempting to store more than 38 significant digits in a Number"},
      {"0e126", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {"0.0e126", "OK"},  // a live quirk (§8.6)
  };
  for (const auto& [number, message] : cases) {
    SCOPED_TRACE("N '" + number + "'");
    HttpResult r = Put("items", R"({"pk":{"S":"a"},"n":{"N":")" + number + R"("}})");
    if (message == "OK") {
      EXPECT_EQ(200, r.status) << r.Describe();
    } else {
      ExpectValidation(r, Enveloped(message));  // PutItem's own messages: enveloped (dialects.md §2.7)
    }
  }
  ExpectValidation(Get("num", R"({"id":{"N":"x1"}})"), "The parameter cannot be converted to a numeric value: x1");
}

TEST_F(ItemOperationsTest, NumberSpellingsAreAcceptedAndNormalised) {
  ASSERT_EQ(200, Put("items", R"({"pk":{"S":"a"},"a":{"N":"+3"},"b":{"N":".123"},"c":{"N":"0001.23"},)"
                              R"("d":{"N":"1e+5"},"e":{"N":"-0"},"f":{"N":"1.0"}})")
                     .status);
  EXPECT_EQ(R"({"Item":{"a":{"N":"3"},"b":{"N":"0.123"},"c":{"N":"1.23"},"d":{"N":"100000"},"e":{"N":"0"},)"
            R"("f":{"N":"1"},"pk":{"S":"a"}}})",
            Stored("items", R"({"pk":{"S":"a"}})"));
}

// §8.7 through PutItem.
TEST_F(ItemOperationsTest, ShapeErrors) {
  ExpectValidation(Put("items", R"({"pk":{"S":"a"},"x":{}})"),
                   Enveloped("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"));
  ExpectValidation(Put("items", R"({"pk":{"S":"a"},"x":{"S":"a","N":"1"}})"),
                   Enveloped("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
                             "supported datatypes"));
  ExpectValidation(Put("items", R"({"pk":{"S":"a"},"x":{"NULL":false}})"),
                   Enveloped(std::string(kInvalid) + "Null attribute value types must have the value of true"));
  // dialects.md §2.2, §2.7: duplicate members are quoted.
  ExpectValidation(Put("items", R"({"pk":{"S":"a"},"x":{"SS":["a","a"]}})"),
                   Enveloped(std::string(kInvalid) + R"(Input collection ["a", "a"] contains duplicates.)"));
  ExpectValidation(
      Put("items", R"({"pk":{"S":"a"},"x":{"BS":["Yg==","Yg=="]}})"),
      Enveloped(std::string(kInvalid) + R"(Input collection ["Yg==","Yg=="]of type BS contains duplicates.)"));
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"a"}})"));
}

// docs/behaviour.md §8.7: PutItem puts an empty set's error in the "1 validation error detected: " envelope
// ("… One or more parameter values were invalid: An number set  may not be empty"), DynamoDB's newer wording.
TEST_F(ItemOperationsTest, EmptySetOnPutItemHasNewerPrefix) {
  const std::string prefix = "1 validation error detected: One or more parameter values were invalid: ";
  ExpectValidation(Put("items", R"({"pk":{"S":"a"},"x":{"NS":[]}})"), prefix + "An number set  may not be empty");
  ExpectValidation(Put("items", R"({"pk":{"S":"a"},"x":{"SS":[]}})"), prefix + "An string set  may not be empty");
  ExpectValidation(Put("items", R"({"pk":{"S":"a"},"x":{"BS":[]}})"), prefix + "Binary sets should not be empty");
}

// §7.3: an invalid ReturnConsumedCapacity.
TEST_F(ItemOperationsTest, ReturnConsumedCapacityEnum) {
  const std::string message =
      "1 validation error detected: Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
      "satisfy enum value set: [INDEXES, TOTAL, NONE]";
  ExpectValidation(Get("items", R"({"pk":{"S":"a"}})", R"(,"ReturnConsumedCapacity":"hi")"), message);
  ExpectValidation(Put("items", R"({"pk":{"S":"a"}})", R"(,"ReturnConsumedCapacity":"hi")"), message);
  ExpectValidation(Delete("items", R"({"pk":{"S":"a"}})", R"(,"ReturnConsumedCapacity":"hi")"), message);
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"a"}})"));
}

// An item of `size` bytes in table "items": pk(2) + key + data(4) + filler.
std::string SizedItem(const std::string& key, size_t size) {
  return R"({"pk":{"S":")" + key + R"("},"data":{"S":")" + std::string(size - 6 - key.size(), 'c') + R"("}})";
}

double Units(const HttpResult& r) {
  if (!r.Has("ConsumedCapacity")) return -1;
  return r.json["ConsumedCapacity"]["CapacityUnits"].GetDouble();
}

// Writes: ceil(size / 1 KB) units (DYN-T: an item of 1024 bytes costs 1, of 1025 bytes 2; docs/behaviour.md §1.2).
TEST_F(ItemOperationsTest, WriteCapacityTotal) {
  HttpResult r = Put("items", SizedItem("a", 1024), R"(,"ReturnConsumedCapacity":"TOTAL")");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(r.Has("ConsumedCapacity")) << r.body;
  EXPECT_STREQ("items", r.json["ConsumedCapacity"]["TableName"].GetString());
  EXPECT_EQ(1.0, Units(r));
  EXPECT_EQ(2.0, Units(Put("items", SizedItem("b", 1025), R"(,"ReturnConsumedCapacity":"TOTAL")")));
  EXPECT_EQ(1.0, Units(Put("items", SizedItem("c", 8), R"(,"ReturnConsumedCapacity":"TOTAL")")));
  EXPECT_EQ(10.0, Units(Put("items", SizedItem("d", 10240), R"(,"ReturnConsumedCapacity":"TOTAL")")));
  EXPECT_EQ(11.0, Units(Put("items", SizedItem("e", 10241), R"(,"ReturnConsumedCapacity":"TOTAL")")));
  // NONE (and absent) write nothing.
  EXPECT_EQ("{}", Put("items", SizedItem("f", 100), R"(,"ReturnConsumedCapacity":"NONE")").body);
}

// Reads: ceil(size / 4 KB) units, halved unless ConsistentRead; a missing item still costs the minimum (§7.3).
TEST_F(ItemOperationsTest, ReadCapacityTotal) {
  ASSERT_EQ(200, Put("items", SizedItem("k4096", 4096)).status);
  ASSERT_EQ(200, Put("items", SizedItem("k4097", 4097)).status);
  const std::string total = R"(,"ReturnConsumedCapacity":"TOTAL")";
  const std::string consistent = R"(,"ReturnConsumedCapacity":"TOTAL","ConsistentRead":true)";
  HttpResult r = Get("items", R"({"pk":{"S":"k4096"}})", total);
  ASSERT_TRUE(r.Has("Item")) << r.Describe();
  EXPECT_STREQ("items", r.json["ConsumedCapacity"]["TableName"].GetString());
  EXPECT_EQ(0.5, Units(r));
  EXPECT_EQ(1.0, Units(Get("items", R"({"pk":{"S":"k4096"}})", consistent)));
  EXPECT_EQ(1.0, Units(Get("items", R"({"pk":{"S":"k4097"}})", total)));
  EXPECT_EQ(2.0, Units(Get("items", R"({"pk":{"S":"k4097"}})", consistent)));
  r = Get("items", R"({"pk":{"S":"absent"}})", total);
  EXPECT_FALSE(r.Has("Item"));
  EXPECT_EQ(0.5, Units(r));
  EXPECT_EQ(1.0, Units(Get("items", R"({"pk":{"S":"absent"}})", consistent)));
}

// §7.3: INDEXES adds "Table".
TEST_F(ItemOperationsTest, ReadCapacityIndexes) {
  ASSERT_EQ(200, Put("items", SizedItem("a", 100)).status);
  HttpResult r = Get("items", R"({"pk":{"S":"a"}})", R"(,"ReturnConsumedCapacity":"INDEXES")");
  ASSERT_TRUE(r.Has("ConsumedCapacity")) << r.Describe();
  EXPECT_EQ(0.5, Units(r));
  ASSERT_TRUE(r.json["ConsumedCapacity"].HasMember("Table")) << r.body;
  EXPECT_EQ(0.5, r.json["ConsumedCapacity"]["Table"]["CapacityUnits"].GetDouble());
}

// Nothing a refused request carries reaches the store.
TEST_F(ItemOperationsTest, RefusedRequestsLeaveDataUnchanged) {
  const std::string original = R"({"pk":{"S":"keep"},"v":{"N":"1"},"s":{"SS":["a"]}})";
  ASSERT_EQ(200, Put("items", original).status);
  const std::string before = Stored("items", R"({"pk":{"S":"keep"}})");
  const std::vector<std::string> bad_puts = {
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{"N":"x"}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{"N":"1e999"}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{"S":5}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{"NULL":false}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{"SS":[]}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{"B":"abc"}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{}}})",
      R"({"TableName":"items","Item":{"pk":{"N":"1"},"v":{"S":"x"}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"},"v":{"S":")" + std::string(409600, 'x') + R"("}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"}},"ReturnValues":"ALL_NEW"})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"}},"ReturnConsumedCapacity":"bad"})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"}},"ReturnValues":5})",
      R"({"TableName":"i","Item":{"pk":{"S":"keep"}}})",
      R"({"TableName":"items","Item":{"pk":{"S":"keep"}})",
  };
  for (const auto& body : bad_puts) {
    HttpResult r = server_.Call("PutItem", body);
    EXPECT_EQ(400, r.status) << body.substr(0, 120) << " -> " << r.Describe();
  }
  for (const std::string body : {R"({"TableName":"items","Key":{"pk":{"S":"keep"},"x":{"S":"y"}}})",
                                 R"({"TableName":"items","Key":{"pk":{"S":"keep"}},"ReturnValues":"ALL_NEW"})"}) {
    EXPECT_EQ(400, server_.Call("DeleteItem", body).status) << body;
  }
  EXPECT_EQ(before, Stored("items", R"({"pk":{"S":"keep"}})"));
  EXPECT_EQ(1, ItemCount("items"));
  EXPECT_EQ(200, server_.Call("ListTables", "{}").status);
}

// GetItem ProjectionExpression / AttributesToGet (issue 2, item 5).
TEST_F(ItemOperationsTest, GetItemProjection) {
  ASSERT_EQ(
      200,
      Put("items", R"({"pk":{"S":"a"},"x":{"N":"1"},"y":{"N":"2"},"m":{"M":{"p":{"S":"q"},"r":{"S":"s"}}}})").status);
  HttpResult r = Get("items", R"({"pk":{"S":"a"}})", R"(,"ProjectionExpression":"x, m.p")");
  EXPECT_EQ(R"({"Item":{"m":{"M":{"p":{"S":"q"}}},"x":{"N":"1"}}})", r.body);
  r = Get("items", R"({"pk":{"S":"a"}})", R"(,"ProjectionExpression":"#y","ExpressionAttributeNames":{"#y":"y"})");
  EXPECT_EQ(R"({"Item":{"y":{"N":"2"}}})", r.body);
  r = Get("items", R"({"pk":{"S":"a"}})", R"(,"AttributesToGet":["y","nothing"])");
  EXPECT_EQ(R"({"Item":{"y":{"N":"2"}}})", r.body);
}

// ---------------------------------------------------------------------------------------------------------------
// BatchWriteItem

std::string PutRequest(const std::string& item) { return R"({"PutRequest":{"Item":)" + item + "}}"; }
std::string DeleteRequest(const std::string& key) { return R"({"DeleteRequest":{"Key":)" + key + "}}"; }

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); i++) out += (i ? "," : "") + parts[i];
  return out;
}

std::vector<std::string> Puts(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; i++) out.push_back(PutRequest(R"({"pk":{"S":")" + prefix + std::to_string(i) + R"("}})"));
  return out;
}

TEST_F(ItemOperationsTest, BatchWritePutsAndDeletes) {
  ASSERT_EQ(200, Put("items", R"({"pk":{"S":"old"}})").status);
  std::vector<std::string> requests = Puts("i", 23);
  requests.push_back(DeleteRequest(R"({"pk":{"S":"old"}})"));
  requests.push_back(PutRequest(R"({"pk":{"S":"x"},"v":{"N":"1e1"}})"));
  HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + Join(requests) + "]}}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"UnprocessedItems":{}})", r.body);
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"old"}})"));
  EXPECT_EQ(R"({"Item":{"pk":{"S":"x"},"v":{"N":"10"}}})", Stored("items", R"({"pk":{"S":"x"}})"));
  EXPECT_EQ(24, ItemCount("items"));
}

// Each put is written with its own size (the one checked against 400 KB), whatever entries come between.
TEST_F(ItemOperationsTest, BatchWriteCountsEachPutsSize) {
  ASSERT_EQ(200, Put("items", SizedItem("old", 500)).status);
  ASSERT_EQ(500, TableSizeBytes("items"));
  HttpResult r = server_.Call(
      "BatchWriteItem", R"({"RequestItems":{"num":[)" + PutRequest(R"({"id":{"N":"1"}})") + R"(],"items":[)" +
                            PutRequest(SizedItem("a", 1025)) + "," + DeleteRequest(R"({"pk":{"S":"old"}})") + "," +
                            PutRequest(SizedItem("b", 3000)) + R"(]},"ReturnConsumedCapacity":"INDEXES"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(1025 + 3000, TableSizeBytes("items"));
  EXPECT_EQ(2 + 1 + 3 + 1, r.json["ConsumedCapacity"][0]["CapacityUnits"].GetDouble() +
                               r.json["ConsumedCapacity"][1]["CapacityUnits"].GetDouble());
  EXPECT_EQ(4, TableSizeBytes("num"));
  ASSERT_EQ(200, Put("items", SizedItem("c", 700)).status);
  EXPECT_EQ(1025 + 3000 + 700, TableSizeBytes("items"));
}

// A batch put that replaces an item (which a table without indexes reads only for its size) counts the item
// once, with its new size, and pays for the larger of the two; the item is the new one, whole.
TEST_F(ItemOperationsTest, BatchWriteReplacesItemsWithTheirNewSize) {
  ASSERT_EQ(200, Put("items", SizedItem("a", 3000)).status);
  ASSERT_EQ(200, Put("items", SizedItem("b", 500)).status);
  HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + PutRequest(SizedItem("a", 900)) +
                                                    "," + PutRequest(SizedItem("b", 2100)) +
                                                    R"(]},"ReturnConsumedCapacity":"TOTAL"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(2, ItemCount("items"));
  EXPECT_EQ(900 + 2100, TableSizeBytes("items"));
  EXPECT_EQ(3.0 + 3.0, r.json["ConsumedCapacity"][0]["CapacityUnits"].GetDouble()) << r.body;
  EXPECT_EQ(R"({"Item":{"data":{"S":")" + std::string(900 - 7, 'c') + R"("},"pk":{"S":"a"}}})",
            Stored("items", R"({"pk":{"S":"a"}})"));
  r = server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" +
                                         PutRequest(R"({"pk":{"S":"b"},"n":{"N":"-0.50"},"t":{"BOOL":false}})") +
                                         "]}}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"Item":{"n":{"N":"-0.5"},"pk":{"S":"b"},"t":{"BOOL":false}}})",
            Stored("items", R"({"pk":{"S":"b"}})"));
  EXPECT_EQ(2, ItemCount("items"));
  EXPECT_EQ(900 + 1 + 3 + 1 + 2 + 1 + 1, TableSizeBytes("items"));
}

TEST_F(ItemOperationsTest, BatchWriteAcrossTablesWithCapacity) {
  HttpResult r = server_.Call(
      "BatchWriteItem", R"({"RequestItems":{"items":[)" + PutRequest(SizedItem("a", 1025)) + "," +
                            PutRequest(SizedItem("b", 3000)) + R"(],"num":[)" + PutRequest(R"({"id":{"N":"1"}})") +
                            R"(]},"ReturnConsumedCapacity":"TOTAL"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(r.Has("ConsumedCapacity")) << r.body;
  const auto& list = r.json["ConsumedCapacity"];
  ASSERT_TRUE(list.IsArray());
  ASSERT_EQ(2u, list.Size()) << r.body;
  std::map<std::string, double> units;
  for (const auto& c : list.GetArray()) units[c["TableName"].GetString()] = c["CapacityUnits"].GetDouble();
  EXPECT_EQ(2.0 + 3.0, units["items"]);
  EXPECT_EQ(1.0, units["num"]);
  EXPECT_TRUE(r.Has("UnprocessedItems"));
}

// §9: each table's list holds 1..25 requests.
TEST_F(ItemOperationsTest, BatchWriteListLengthConstraint) {
  const std::string rule =
      "failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal "
      "to 25, Member must have length greater than or equal to 1]";
  for (const std::string& list : {Join(Puts("i", 26)), std::string()}) {
    HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + list + "]}}");
    EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
    EXPECT_EQ(0u, r.Message().rfind("1 validation error detected: Value '", 0)) << r.Message();
    ASSERT_GE(r.Message().size(), rule.size());
    EXPECT_EQ(rule, r.Message().substr(r.Message().size() - rule.size())) << r.Message();
  }
  EXPECT_EQ(0, ItemCount("items"));
  EXPECT_EQ(200, server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + Join(Puts("i", 25)) + "]}}").status);
  EXPECT_EQ(25, ItemCount("items"));
}

std::vector<std::string> RangePuts(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; i++)
    out.push_back(PutRequest(R"({"pk":{"S":"p"},"sk":{"S":")" + std::to_string(i) + R"("}})"));
  return out;
}

// §9: at most 25 requests in total. (The text is dynalite's; DynamoDB documents only the limit.)
TEST_F(ItemOperationsTest, BatchWriteTooManyInTotal) {
  HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + Join(Puts("i", 13)) +
                                                    R"(],"range":[)" + Join(RangePuts(13)) + "]}}");
  ExpectValidation(r, "Too many items requested for the BatchWriteItem call");
  EXPECT_EQ(0, ItemCount("items"));
}

TEST_F(ItemOperationsTest, BatchWriteDuplicates) {
  ExpectValidation(server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" +
                                                      PutRequest(R"({"pk":{"S":"a"},"v":{"N":"1"}})") + "," +
                                                      PutRequest(R"({"pk":{"S":"a"},"v":{"N":"2"}})") + "]}}"),
                   kDuplicates);
  ExpectValidation(server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" +
                                                      PutRequest(R"({"pk":{"S":"a"}})") + "," +
                                                      DeleteRequest(R"({"pk":{"S":"a"}})") + "]}}"),
                   kDuplicates);
  // Keys equal by value are duplicates.
  ExpectValidation(server_.Call("BatchWriteItem", R"({"RequestItems":{"num":[)" + PutRequest(R"({"id":{"N":"1"}})") +
                                                      "," + PutRequest(R"({"id":{"N":"1.0"}})") + "]}}"),
                   kDuplicates);
  EXPECT_EQ(0, ItemCount("items"));
  EXPECT_EQ(0, ItemCount("num"));
}

// Entries are checked in order: a duplicate wins over an error of a later entry (or table), and an error wins
// over a later duplicate.
TEST_F(ItemOperationsTest, BatchWriteDuplicatesInRequestOrder) {
  const std::string a = PutRequest(R"({"pk":{"S":"a"}})");
  const std::string bad = PutRequest(R"({"pk":{"N":"1"}})");
  ExpectValidation(server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + a + "," + a + "," + bad + "]}}"),
                   kDuplicates);
  ExpectValidation(server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + a + "," + bad + "," + a + "]}}"),
                   kNoMatch);
  ExpectValidation(server_.Call("BatchWriteItem",
                                R"({"RequestItems":{"items":[)" + a + "," + a + R"(],"nope":[)" + a + "]}}"),
                   kDuplicates);
  HttpResult r =
      server_.Call("BatchWriteItem", R"({"RequestItems":{"nope":[)" + a + R"(],"items":[)" + a + "," + a + "]}}");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ(0, ItemCount("items"));
}

// §9: key errors of a batch are rewritten to the schema message.
TEST_F(ItemOperationsTest, BatchWriteKeyErrors) {
  for (const std::string& request : {PutRequest(R"({"other":{"S":"a"}})"), PutRequest(R"({"pk":{"N":"1"}})"),
                                    DeleteRequest(R"({"pk":{"N":"1"}})"),
                                    DeleteRequest(R"({"pk":{"S":"a"},"x":{"S":"b"}})")}) {
    HttpResult r = server_.Call(
        "BatchWriteItem", R"({"RequestItems":{"items":[)" + PutRequest(R"({"pk":{"S":"ok"}})") + "," + request + "]}}");
    ExpectValidation(r, kNoMatch);
  }
  // A present, well-typed key with a bad value keeps its own message.
  HttpResult r =
      server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + PutRequest(R"({"pk":{"S":""}})") + "]}}");
  ExpectValidation(r, "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                      "contain an empty string value. Key: pk");
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"ok"}})"));
}

TEST_F(ItemOperationsTest, BatchWriteRefusalsWriteNothing) {
  const std::string good = PutRequest(R"({"pk":{"S":"ok"}})");
  ExpectValidation(server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + good + "," +
                                                      PutRequest(SizedItem("big", 409601)) + "]}}"),
                   kTooBig);
  ExpectValidation(server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + good + "," +
                                                      PutRequest(R"({"pk":{"S":"n"},"v":{"N":"1e200"}})") + "]}}"),
                   "Number overflow. Attempting to store a number with magnitude larger than supported range");
  HttpResult r =
      server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + good + R"(],"nope":[)" + good + "]}}");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ(kNotFound, r.Message());
  EXPECT_EQ("{}", Stored("items", R"({"pk":{"S":"ok"}})"));
  EXPECT_EQ(0, ItemCount("items"));
}

// ---------------------------------------------------------------------------------------------------------------
// BatchGetItem

std::vector<std::string> Keys(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; i++) out.push_back(R"({"pk":{"S":")" + prefix + std::to_string(i) + R"("}})");
  return out;
}

std::set<std::string> ReturnedKeys(const HttpResult& r, const std::string& table) {
  std::set<std::string> keys;
  if (!r.Has("Responses") || !r.json["Responses"].HasMember(table.c_str())) return keys;
  for (const auto& item : r.json["Responses"][table.c_str()].GetArray()) keys.insert(item["pk"]["S"].GetString());
  return keys;
}

TEST_F(ItemOperationsTest, BatchGet) {
  ASSERT_EQ(200, server_.Call("BatchWriteItem", R"({"RequestItems":{"items":[)" + Join(Puts("k", 5)) + "]}}").status);
  ASSERT_EQ(200, Put("range", R"({"pk":{"S":"p"},"sk":{"S":"s"},"v":{"BOOL":true}})").status);
  HttpResult r = server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[)" +
                                                  Join({Keys("k", 3)[0], Keys("k", 3)[2], R"({"pk":{"S":"none"}})"}) +
                                                  R"(]},"range":{"Keys":[{"pk":{"S":"p"},"sk":{"S":"s"}}],)"
                                                  R"("ConsistentRead":true}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ((std::set<std::string>{"k0", "k2"}), ReturnedKeys(r, "items"));
  ASSERT_TRUE(r.json["Responses"].HasMember("range"));
  ASSERT_EQ(1u, r.json["Responses"]["range"].Size());
  EXPECT_EQ(Canonical(R"({"pk":{"S":"p"},"sk":{"S":"s"},"v":{"BOOL":true}})"),
            JsonText(r.json["Responses"]["range"][0]));
  // §9: UnprocessedKeys is always present.
  ASSERT_TRUE(r.Has("UnprocessedKeys")) << r.body;
  EXPECT_EQ("{}", JsonText(r.json["UnprocessedKeys"]));
}

TEST_F(ItemOperationsTest, BatchGetLimits) {
  HttpResult r = server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[)" + Join(Keys("a", 60)) +
                                                  R"(]},"num":{"Keys":[)" + [] {
                                                    std::vector<std::string> k;
                                                    for (int i = 0; i < 41; i++)
                                                      k.push_back(R"({"id":{"N":")" + std::to_string(i) + R"("}})");
                                                    return Join(k);
                                                  }() + "]}}}");
  ExpectValidation(r, "Too many items requested for the BatchGetItem call");
  r = server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[)" + Join(Keys("a", 50)) +
                                       R"(]},"range":{"Keys":[)" + [] {
                                         std::vector<std::string> k;
                                         for (int i = 0; i < 50; i++)
                                           k.push_back(R"({"pk":{"S":"p"},"sk":{"S":")" + std::to_string(i) + R"("}})");
                                         return Join(k);
                                       }() + "]}}}");
  EXPECT_EQ(200, r.status) << r.Describe();
  // Over 100 keys for one table: a constraint error in DynamoDB's current wording.
  r = server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[)" + Join(Keys("a", 101)) + "]}}}");
  ExpectValidation(r, "1 validation error detected: Value at 'RequestItems.items.member.Keys' failed to satisfy "
                      "constraint: Member must have length less than or equal to 100");
}

TEST_F(ItemOperationsTest, BatchGetDuplicatesAndKeyErrors) {
  ExpectValidation(
      server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"a"}}]}}})"),
      kDuplicates);
  ExpectValidation(
      server_.Call("BatchGetItem", R"({"RequestItems":{"num":{"Keys":[{"id":{"N":"1"}},{"id":{"N":"1e0"}}]}}})"),
      kDuplicates);
  ExpectValidation(server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[{"pk":{"N":"1"}}]}}})"), kNoMatch);
  HttpResult r = server_.Call("BatchGetItem", R"({"RequestItems":{"nope":{"Keys":[{"pk":{"S":"a"}}]}}})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ(kNotFound, r.Message());
}

// §9: each item's size is rounded up to 4 KB separately.
TEST_F(ItemOperationsTest, BatchGetCapacity) {
  for (const char* key : {"a", "b", "c"}) ASSERT_EQ(200, Put("items", SizedItem(key, 5000)).status);
  HttpResult r = server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"b"}},)"
                                                  R"({"pk":{"S":"c"}}]}},"ReturnConsumedCapacity":"TOTAL"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(r.Has("ConsumedCapacity")) << r.body;
  ASSERT_EQ(1u, r.json["ConsumedCapacity"].Size());
  EXPECT_STREQ("items", r.json["ConsumedCapacity"][0]["TableName"].GetString());
  EXPECT_EQ(3 * 2 * 0.5, r.json["ConsumedCapacity"][0]["CapacityUnits"].GetDouble());
}

// §9: results are capped at 16 MB, the remainder comes back in UnprocessedKeys, and asking for those gets the rest.
TEST_F(ItemOperationsTest, BatchGetUnprocessedKeysPast16MB) {
  const int n = 60;  // 60 × ~400 KB = ~24 MB
  for (int i = 0; i < n; i++) {
    ASSERT_EQ(200, Put("items", SizedItem("big" + std::to_string(i), 409000)).status) << i;
  }
  std::set<std::string> all;
  for (int i = 0; i < n; i++) all.insert("big" + std::to_string(i));
  HttpResult r = server_.Call("BatchGetItem", R"({"RequestItems":{"items":{"Keys":[)" + Join(Keys("big", n)) + "]}}}");
  ASSERT_EQ(200, r.status) << r.Describe();
  std::set<std::string> returned = ReturnedKeys(r, "items");
  EXPECT_FALSE(returned.empty());
  EXPECT_LT(returned.size() * 409000, 16u * 1024 * 1024 + 409000);
  ASSERT_TRUE(r.Has("UnprocessedKeys"));
  ASSERT_TRUE(r.json["UnprocessedKeys"].HasMember("items")) << "no UnprocessedKeys for 24 MB of items";
  const auto& unprocessed = r.json["UnprocessedKeys"]["items"];
  ASSERT_TRUE(unprocessed.HasMember("Keys"));
  std::set<std::string> left;
  for (const auto& k : unprocessed["Keys"].GetArray()) left.insert(k["pk"]["S"].GetString());
  EXPECT_EQ(static_cast<size_t>(n), returned.size() + left.size());
  std::set<std::string> both = returned;
  both.insert(left.begin(), left.end());
  EXPECT_EQ(all, both);
  // Resubmitting UnprocessedKeys as RequestItems (what SDK retry loops do) returns the rest.
  r = server_.Call("BatchGetItem", R"({"RequestItems":)" + JsonText(r.json["UnprocessedKeys"]) + "}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(left, ReturnedKeys(r, "items"));
  EXPECT_EQ("{}", JsonText(r.json["UnprocessedKeys"]));
}

}  // namespace
}  // namespace dynapage
