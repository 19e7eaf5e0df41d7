// Requests built to break the server (docs/behaviour.md §8.5, §8.7, §7): JSON, L and M values, expressions and
// paths nested far beyond any limit, and text that is not UTF-8. Each gets DynamoDB's error, nothing is stored,
// and the server answers the next request.

#include <gtest/gtest.h>

#include <string>

#include "engine/base/messages.h"
#include "engine/base/utf8.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

std::string Repeat(const std::string& piece, size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (size_t i = 0; i < times; i++) out += piece;
  return out;
}

// An AttributeValue holding {"S":"x"} inside `levels` L (or M) values.
std::string NestedValue(size_t levels, bool map) {
  return Repeat(map ? R"({"M":{"a":)" : R"({"L":[)", levels) + R"({"S":"x"})" + Repeat(map ? "}}" : "]}", levels);
}

class HostileInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S").status);
    ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"k"},"v":{"N":"1"}}})").status);
  }

  // The answer is an error of this name, a JSON object in valid UTF-8, and the server still serves.
  void ExpectRefused(const HttpResult& r, const std::string& error_name, const std::string& message) {
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ(error_name, r.ErrorName()) << r.Describe();
    EXPECT_EQ(message, r.Message()) << r.Describe();
    ExpectStillServing(r);
  }

  void ExpectStillServing(const HttpResult& r) {
    EXPECT_TRUE(r.json.IsObject()) << r.Describe();
    EXPECT_TRUE(IsValidUtf8(r.body)) << r.Describe();
    HttpResult next = server_.Call("Scan", R"({"TableName":"tab"})");
    ASSERT_EQ(200, next.status) << next.Describe();
    EXPECT_EQ(R"({"Items":[{"pk":{"S":"k"},"v":{"N":"1"}}],"Count":1,"ScannedCount":1})", next.body);
  }

  TestServer server_;
};

// ---- JSON nested beyond any limit: parsed without recursion (§8.5 step 3) ----

TEST_F(HostileInputTest, DeeplyNestedJsonArraysAreNotAnObject) {
  HttpResult r = server_.Call("ListTables", Repeat("[", 300000) + Repeat("]", 300000));
  ExpectRefused(r, "SerializationException", "");
}

TEST_F(HostileInputTest, UnclosedNestedJsonIsNotJson) {
  ExpectRefused(server_.Call("ListTables", Repeat(R"({"a":[)", 200000)), "SerializationException", "");
}

TEST_F(HostileInputTest, DeeplyNestedJsonObjectInAnIgnoredMember) {
  HttpResult r = server_.Call("ListTables", R"({"x":)" + Repeat(R"({"a":)", 200000) + "1" + Repeat("}", 200001));
  EXPECT_EQ(200, r.status) << r.Describe();
  ExpectStillServing(r);
}

TEST_F(HostileInputTest, DeeplyNestedJsonWhereAnAttributeValueGoes) {
  HttpResult r = server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"n"},"a":{"L":)" +
                                             Repeat("[", 150000) + Repeat("]", 150000) + "}}}");
  ExpectRefused(r, "SerializationException", "Start of list found where not expected");
}

// ---- L and M: at most 32 levels (§8.7) ----

TEST_F(HostileInputTest, ThirtyTwoLevelsAreStoredAndThirtyThreeRefused) {
  for (bool map : {false, true}) {
    std::string item = R"({"a":)" + NestedValue(32, map) + R"(,"pk":{"S":"deep"}})";  // in the stored order
    ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"tab","Item":)" + item + "}").status);
    HttpResult got = server_.Call("GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"deep"}}})");
    ASSERT_EQ(200, got.status) << got.Describe();
    EXPECT_EQ(Canonical(item), JsonText(got.json["Item"])) << "map: " << map;
    HttpResult r = server_.Call(
        "PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"deeper"},"a":)" + NestedValue(33, map) + "}}");
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ(Enveloped(kNestingTooDeep), r.Message()) << "map: " << map;  // PutItem's own message
  }
  HttpResult missing = server_.Call("GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"deeper"}}})");
  EXPECT_EQ("{}", missing.body);
}

TEST_F(HostileInputTest, ItemNestedTensOfThousandsDeep) {
  for (bool map : {false, true}) {
    HttpResult r = server_.Call(
        "PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"n"},"a":)" + NestedValue(50000, map) + "}}");
    ExpectRefused(r, "ValidationException", Enveloped(kNestingTooDeep));
  }
}

TEST_F(HostileInputTest, KeyValuesAndStartKeyNestedTensOfThousandsDeep) {
  std::string deep = NestedValue(50000, false);
  ExpectRefused(server_.Call("GetItem", R"({"TableName":"tab","Key":{"pk":)" + deep + "}}"), "ValidationException",
                kNestingTooDeep);
  ExpectRefused(server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"k"}},)"
                                           R"("ConditionExpression":"v = :v","ExpressionAttributeValues":{":v":)" +
                                               deep + "}}"),
                "ValidationException", kNestingTooDeep);
  ExpectRefused(server_.Call("Scan", R"({"TableName":"tab","ExclusiveStartKey":{"pk":)" + deep + "}}"),
                "ValidationException", kNestingTooDeep);
  ExpectRefused(server_.Call("UpdateItem", R"({"TableName":"tab","Key":{"pk":{"S":"k"}},"UpdateExpression":"SET v = :v",)"
                                           R"("ExpressionAttributeValues":{":v":)" +
                                               deep + "}}"),
                "ValidationException", kNestingTooDeep);
}

// ---- Expressions: at most 300 operators, and no recursion the text can drive (§7) ----

TEST_F(HostileInputTest, ThreeHundredOperatorsAndNoMore) {
  // "NOT NOT … v = :v": each NOT is an operator, and so is "=".
  auto filter = [&](size_t nots) {
    return server_.Call("Scan", R"({"TableName":"tab","FilterExpression":")" + Repeat("NOT ", nots) +
                                    R"(v = :v","ExpressionAttributeValues":{":v":{"N":"1"}}})");
  };
  HttpResult ok = filter(299);
  EXPECT_EQ(200, ok.status) << ok.Describe();
  ExpectRefused(filter(300), "ValidationException",
                "Invalid FilterExpression: The expression contains too many operators; operator count: 301");
  ExpectRefused(filter(1000), "ValidationException",
                "Invalid FilterExpression: The expression contains too many operators; operator count: 1001");
}

TEST_F(HostileInputTest, OperatorLimitInEveryExpressionKind) {
  std::string many = Repeat("v = :v OR ", 200) + "v = :v";  // 401 comparisons and ORs
  const char* message = "The expression contains too many operators; operator count: 401";
  ExpectRefused(server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"k"}},"ConditionExpression":")" +
                                               many + R"(","ExpressionAttributeValues":{":v":{"N":"1"}}})"),
                "ValidationException", Enveloped(std::string("Invalid ConditionExpression: ") + message));
  ExpectRefused(server_.Call("Query", R"({"TableName":"tab","KeyConditionExpression":")" + many +
                                          R"(","ExpressionAttributeValues":{":v":{"N":"1"}}})"),
                "ValidationException", std::string("Invalid KeyConditionExpression: ") + message);
  std::string sum = "SET v = " + Repeat("size(", 350) + "v" + Repeat(")", 350);
  ExpectRefused(
      server_.Call("UpdateItem", R"({"TableName":"tab","Key":{"pk":{"S":"k"}},"UpdateExpression":")" + sum + R"("})"),
      "ValidationException",
      Enveloped("Invalid UpdateExpression: The expression contains too many operators; operator count: 350"));
}

TEST_F(HostileInputTest, ParenthesesNestedToTheLengthLimit) {
  // 2,000 pairs of parentheses: no operators to count, so the parser's depth limit refuses them.
  std::string parens = Repeat("(", 2000) + "v = :v" + Repeat(")", 2000);
  HttpResult r = server_.Call(
      "Scan", R"({"TableName":"tab","FilterExpression":")" + parens + R"(","ExpressionAttributeValues":{":v":{"N":"1"}}})");
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
  EXPECT_EQ(0u, r.Message().find("Invalid FilterExpression: Syntax error; token: ")) << r.Describe();
  ExpectStillServing(r);
  std::string value = "SET v = " + Repeat("(", 2000) + ":v" + Repeat(")", 2000);
  r = server_.Call("UpdateItem", R"({"TableName":"tab","Key":{"pk":{"S":"k"}},"UpdateExpression":")" + value +
                                     R"(","ExpressionAttributeValues":{":v":{"N":"1"}}})");
  EXPECT_EQ(0u, r.Message().find(Enveloped("Invalid UpdateExpression: Syntax error; token: "))) << r.Describe();
  ExpectStillServing(r);
  std::string operand = Repeat("(", 2000) + "v" + Repeat(")", 2000) + " = :v";
  r = server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"k"}},"ConditionExpression":")" + operand +
                                     R"(","ExpressionAttributeValues":{":v":{"N":"1"}}})");
  EXPECT_EQ(0u, r.Message().find(Enveloped("Invalid ConditionExpression: Syntax error; token: "))) << r.Describe();
  ExpectStillServing(r);
}

TEST_F(HostileInputTest, LongProjectionPath) {
  std::string path = "v" + Repeat(".a", 2000);
  ExpectRefused(
      server_.Call("GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"k"}},"ProjectionExpression":")" + path + R"("})"),
      "ValidationException",
      "Invalid ProjectionExpression: The document path has too many nesting levels; nesting levels: 2001");
}

// ---- Only valid UTF-8 (§8.5 step 3) ----

TEST_F(HostileInputTest, TextThatIsNotUtf8IsRefusedAndNotStored) {
  const std::string bad[] = {"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\x80", "\xe2\x82"};
  for (const std::string& b : bad) {
    ExpectRefused(server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"u"},"s":{"S":")" + b + R"("}}})"),
                  "SerializationException", "");
    ExpectRefused(server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"u"},")" + b + R"(":{"S":"x"}}})"),
                  "SerializationException", "");
    ExpectRefused(server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":")" + b + R"("}}})"),
                  "SerializationException", "");
    ExpectRefused(server_.Call("DescribeTable", R"({"TableName":"tab)" + b + R"("})"), "SerializationException", "");
    ExpectRefused(server_.Call("Scan", R"({"TableName":"tab","FilterExpression":"v = :v)" + b + R"("})"),
                  "SerializationException", "");
  }
}

TEST_F(HostileInputTest, EscapedLoneSurrogatesAreRefused) {
  for (const char* escaped : {R"(\udc00)", R"(\ud800)", R"(\uD800x)", R"(\ud800\u0041)", R"(a\uDFFF)"}) {
    ExpectRefused(
        server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"u"},"s":{"S":")" + std::string(escaped) +
                                    R"("}}})"),
        "SerializationException", "");
  }
}

TEST_F(HostileInputTest, ValidUtf8AndEscapedPairsAreStoredAsUtf8) {
  ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"u"},"s":{"S":"\ud83d\ude00 é \\udc00 )"
                                         "\xf0\x9f\x98\x80\"}}}")
                     .status);
  HttpResult got = server_.Call("GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"u"}}})");
  ASSERT_EQ(200, got.status);
  EXPECT_EQ("{\"Item\":{\"pk\":{\"S\":\"u\"},\"s\":{\"S\":\"\xf0\x9f\x98\x80 \xc3\xa9 \\\\udc00 \xf0\x9f\x98\x80\"}}}",
            got.body);
}

TEST_F(HostileInputTest, HeaderThatIsNotUtf8IsEchoedAsUtf8) {
  HttpRequest request;
  request.headers = DynamoHeaders("ListTables");
  request.headers.erase("Authorization");
  request.headers.emplace("Authorization", "AWS4-HMAC-SHA256 Credential=\xff\xfe");
  request.body = "{}";
  HttpResult r = server_.Send(request);
  EXPECT_EQ("IncompleteSignatureException", r.ErrorName()) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("Authorization=AWS4-HMAC-SHA256 Credential=??")) << r.Describe();
  ExpectStillServing(r);
}

}  // namespace
}  // namespace dynapage
