#include "engine/expressions/expression_attributes.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

TEST(ExpressionAttributesTest, ResolvesAndRecordsUse) {
  ExpressionNameMap names = {{"#a", "alpha"}, {"#b", "beta"}};
  ExpressionValueMap values = {{":v", AttributeValue::String("x")}};
  ExpressionAttributes attrs(&names, &values);
  const std::string* n = attrs.ResolveName("#a");
  ASSERT_NE(nullptr, n);
  EXPECT_EQ("alpha", *n);
  EXPECT_EQ(nullptr, attrs.ResolveName("#zz"));
  EXPECT_EQ(nullptr, attrs.ResolveName("a"));
  const AttributeValue* v = attrs.ResolveValue(":v");
  ASSERT_NE(nullptr, v);
  EXPECT_EQ("x", v->scalar);
  EXPECT_EQ(nullptr, attrs.ResolveValue(":w"));

  Status s = attrs.CheckAllUsed();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(ErrorCode::kValidation, s.code());
  EXPECT_EQ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}", s.message());
  attrs.ResolveName("#b");
  EXPECT_TRUE(attrs.CheckAllUsed().ok());
}

TEST(ExpressionAttributesTest, NullMapsResolveNothingAndAreAllUsed) {
  ExpressionAttributes attrs(nullptr, nullptr);
  EXPECT_EQ(nullptr, attrs.ResolveName("#a"));
  EXPECT_EQ(nullptr, attrs.ResolveValue(":a"));
  EXPECT_TRUE(attrs.CheckAllUsed().ok());
}

TEST(ExpressionAttributesTest, UnusedListsAllKeysAndNamesComeFirst) {
  ExpressionNameMap names = {{"#b", "b"}, {"#a", "a"}, {"#c", "c"}};
  ExpressionValueMap values = {{":x", AttributeValue::Null()}, {":y", AttributeValue::Null()}};
  ExpressionAttributes attrs(&names, &values);
  attrs.ResolveName("#c");
  EXPECT_EQ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}",
            attrs.CheckAllUsed().message());
  attrs.ResolveName("#a");
  attrs.ResolveName("#b");
  EXPECT_EQ("Value provided in ExpressionAttributeValues unused in expressions: keys: {:x, :y}",
            attrs.CheckAllUsed().message());
  attrs.ResolveValue(":x");
  attrs.ResolveValue(":y");
  EXPECT_TRUE(attrs.CheckAllUsed().ok());
}

TEST(ExpressionAttributesTest, ValidateNames) {
  EXPECT_TRUE(ExpressionAttributes::ValidateNames(nullptr).ok());
  ExpressionNameMap empty;
  EXPECT_EQ("ExpressionAttributeNames must not be empty", ExpressionAttributes::ValidateNames(&empty).message());
  ExpressionNameMap good = {{"#a_1Z", "x"}};
  EXPECT_TRUE(ExpressionAttributes::ValidateNames(&good).ok());
  for (const char* key : {"a", "#", "#a-b", ":a", "# a", "##a"}) {
    ExpressionNameMap bad = {{key, "x"}};
    Status s = ExpressionAttributes::ValidateNames(&bad);
    EXPECT_EQ(std::string("ExpressionAttributeNames contains invalid key: Syntax error; key: \"") + key + "\"",
              s.message())
        << key;
  }
  ExpressionNameMap empty_value = {{"#a", ""}};
  EXPECT_EQ("ExpressionAttributeNames contains invalid value: Empty attribute name; key: #a",
            ExpressionAttributes::ValidateNames(&empty_value).message());
}

TEST(ExpressionAttributesTest, ValidateValues) {
  EXPECT_TRUE(ExpressionAttributes::ValidateValues(nullptr).ok());
  ExpressionValueMap empty;
  EXPECT_EQ("ExpressionAttributeValues must not be empty", ExpressionAttributes::ValidateValues(&empty).message());
  ExpressionValueMap good = {{":v_9", AttributeValue::Null()}};
  EXPECT_TRUE(ExpressionAttributes::ValidateValues(&good).ok());
  for (const char* key : {"a", ":", "#a", ":a.b"}) {
    ExpressionValueMap bad = {{key, AttributeValue::Null()}};
    EXPECT_EQ(std::string("ExpressionAttributeValues contains invalid key: Syntax error; key: \"") + key + "\"",
              ExpressionAttributes::ValidateValues(&bad).message())
        << key;
  }
}

TEST(ExpressionAttributesTest, MessageBuilders) {
  EXPECT_EQ("ExpressionAttributeNames can only be specified when using expressions",
            ExpressionAttributes::NamesWithoutExpressionsMessage());
  EXPECT_EQ("ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null",
            ExpressionAttributes::ValuesWithoutExpressionsMessage({"FilterExpression"}));
  EXPECT_EQ("ExpressionAttributeValues can only be specified when using expressions: FilterExpression and "
            "KeyConditionExpression are null",
            ExpressionAttributes::ValuesWithoutExpressionsMessage({"FilterExpression", "KeyConditionExpression"}));
  EXPECT_EQ("ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An number "
            "set  may not be empty for key :a",
            ExpressionAttributes::InvalidValueMessage(
                "One or more parameter values were invalid: An number set  may not be empty", ":a"));
}

}  // namespace
}  // namespace dynapage
