// WriteCondition and PrepareWriteExpressions: the request-level checks of a write's expressions and
// placeholders; then conditional PutItem and DeleteItem through HTTP (ConditionExpression, Expected,
// ReturnValuesOnConditionCheckFailure), each failure leaving the data as it was.

#include "engine/expressions/write_condition.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/expressions/expression_ast.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

// "OK" or the message of preparing a write with these parts.
std::string Prepare(WriteCondition condition, const ExpressionInputs& inputs, bool is_update = false,
                    const std::optional<std::string>& update_expression = std::nullopt,
                    bool has_attribute_updates = false) {
  UpdateExpr update;
  Status s = PrepareWriteExpressions(inputs, is_update, update_expression, has_attribute_updates, &condition, &update);
  return s.ok() ? "OK" : s.message();
}

WriteCondition Expression(const std::string& text) {
  WriteCondition c;
  c.expression = text;
  return c;
}

ExpressionInputs Values(std::map<std::string, AttributeValue> values) {
  ExpressionInputs inputs;
  inputs.values = std::move(values);
  return inputs;
}

TEST(WriteConditionTest, PlaceholdersNeedAnExpression) {
  ExpressionInputs names;
  names.names = std::map<std::string, std::string>{{"#a", "a"}};
  EXPECT_EQ("ExpressionAttributeNames can only be specified when using expressions", Prepare({}, names));
  ExpressionInputs values = Values({{":a", AttributeValue::Number("1")}});
  EXPECT_EQ("ExpressionAttributeValues can only be specified when using expressions", Prepare({}, values));
  EXPECT_EQ("ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and "
            "ConditionExpression are null",
            Prepare({}, values, true));
}

TEST(WriteConditionTest, ExpressionAndLegacyParametersDoNotMix) {
  WriteCondition c = Expression("attribute_exists(a)");
  c.expected = std::vector<LegacyCondition>{};
  EXPECT_EQ("Can not use both expression and non-expression parameters in the same request: Non-expression "
            "parameters: {Expected} Expression parameters: {ConditionExpression}",
            Prepare(c, {}));
  WriteCondition expected;
  expected.expected = std::vector<LegacyCondition>{};
  expected.conditional_operator = "OR";
  EXPECT_EQ("Can not use both expression and non-expression parameters in the same request: Non-expression "
            "parameters: {AttributeUpdates, Expected} Expression parameters: {UpdateExpression}",
            Prepare(expected, {}, true, std::string("REMOVE a"), true));
}

TEST(WriteConditionTest, ParseErrorsNameConditionExpression) {
  EXPECT_EQ("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\"", Prepare(Expression("a ="), {}));
  EXPECT_EQ("Invalid ConditionExpression: An expression attribute value used in expression is not defined; "
            "attribute value: :x",
            Prepare(Expression("a = :x"), {}));
}

// The engine makes the bare message; the request's message cohort adds the envelope when the error leaves the
// handler (ItemOperationsTest and message_cohorts_test check the answer on the wire).
TEST(WriteConditionTest, UnusedPlaceholdersAreNamed) {
  EXPECT_EQ("Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}",
            Prepare(Expression("a = :a"), Values({{":a", AttributeValue::Number("1")},
                                                  {":b", AttributeValue::Number("2")}})));
  // A value used by the UpdateExpression counts as used.
  EXPECT_EQ("OK", Prepare(Expression("a = :a"),
                          Values({{":a", AttributeValue::Number("1")}, {":b", AttributeValue::Number("2")}}), true,
                          std::string("SET b = :b")));
}

TEST(WriteConditionTest, CheckAgainstStoredOrMissingItem) {
  WriteCondition c = Expression("attribute_not_exists(pk) OR v = :v");
  ExpressionInputs inputs = Values({{":v", AttributeValue::Number("1")}});
  UpdateExpr unused;
  ASSERT_TRUE(PrepareWriteExpressions(inputs, false, std::nullopt, false, &c, &unused).ok());
  EXPECT_TRUE(c.Check(nullptr).ok());
  AttributeMap item = {{"pk", AttributeValue::String("a")}, {"v", AttributeValue::Number("1")}};
  EXPECT_TRUE(c.Check(&item).ok());
  item["v"] = AttributeValue::Number("2");
  Status s = c.Check(&item);
  EXPECT_EQ(ErrorCode::kConditionalCheckFailed, s.code());
  EXPECT_EQ("The conditional request failed", s.message());
  // No condition, or an empty Expected: nothing to check.
  WriteCondition none;
  none.expected = std::vector<LegacyCondition>{};
  ASSERT_TRUE(PrepareWriteExpressions({}, false, std::nullopt, false, &none, &unused).ok());
  EXPECT_TRUE(none.Check(&item).ok());
}

// ---- Through HTTP ----

class ConditionalWriteTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(200, server_.CreateTable("items", "pk", "S").status); }

  HttpResult Put(const std::string& item, const std::string& extra = "") {
    return server_.Call("PutItem", R"({"TableName":"items","Item":)" + item + extra + "}");
  }
  HttpResult Delete(const std::string& extra) {
    return server_.Call("DeleteItem", R"({"TableName":"items","Key":{"pk":{"S":"a"}})" + extra + "}");
  }
  std::string Stored() {
    HttpResult r = server_.Call("GetItem", R"({"TableName":"items","Key":{"pk":{"S":"a"}},"ConsistentRead":true})");
    return r.Has("Item") ? JsonText(r.json["Item"]) : "none";
  }
  static void ExpectConditionFailed(const HttpResult& r) {
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", r.ErrorType()) << r.Describe();
    EXPECT_EQ("The conditional request failed", r.Message());
  }

  TestServer server_;
};

TEST_F(ConditionalWriteTest, PutIfAbsent) {
  const std::string if_absent = R"~(,"ConditionExpression":"attribute_not_exists(pk)")~";
  EXPECT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"N":"1"}})", if_absent).status);
  HttpResult r = Put(R"({"pk":{"S":"a"},"v":{"N":"2"}})", if_absent);
  ExpectConditionFailed(r);
  EXPECT_FALSE(r.Has("Item"));
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"1"}})"), Stored());
}

TEST_F(ConditionalWriteTest, FailureReturnsOldItemOnlyWhenAsked) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"N":"1"}})").status);
  const std::string condition = R"(,"ConditionExpression":"v > :v","ExpressionAttributeValues":{":v":{"N":"5"}})";
  HttpResult r = Put(R"({"pk":{"S":"a"}})", condition + R"(,"ReturnValuesOnConditionCheckFailure":"ALL_OLD")");
  ExpectConditionFailed(r);
  ASSERT_TRUE(r.Has("Item")) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"1"}})"), JsonText(r.json["Item"]));
  r = Put(R"({"pk":{"S":"a"}})", condition + R"(,"ReturnValuesOnConditionCheckFailure":"NONE")");
  ExpectConditionFailed(r);
  EXPECT_FALSE(r.Has("Item"));
  r = Delete(condition + R"(,"ReturnValuesOnConditionCheckFailure":"ALL_OLD")");
  ExpectConditionFailed(r);
  ASSERT_TRUE(r.Has("Item")) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"1"}})"), Stored());
  r = Put(R"({"pk":{"S":"a"}})", R"(,"ReturnValuesOnConditionCheckFailure":"SOME")");
  EXPECT_EQ("1 validation error detected: Value 'SOME' at 'returnValuesOnConditionCheckFailure' failed to satisfy "
            "constraint: Member must satisfy enum value set: [ALL_OLD, NONE]",
            r.Message());
}

TEST_F(ConditionalWriteTest, ConditionalDelete) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"S":"keep"}})").status);
  const std::string condition = R"(,"ConditionExpression":"#v = :v","ExpressionAttributeNames":{"#v":"v"})";
  ExpectConditionFailed(Delete(condition + R"(,"ExpressionAttributeValues":{":v":{"S":"other"}})"));
  EXPECT_NE("none", Stored());
  HttpResult r = Delete(condition + R"(,"ExpressionAttributeValues":{":v":{"S":"keep"}},"ReturnValues":"ALL_OLD")");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_TRUE(r.Has("Attributes"));
  EXPECT_EQ("none", Stored());
  // Deleting a missing item under attribute_exists fails; without a condition it succeeds.
  ExpectConditionFailed(Delete(R"~(,"ConditionExpression":"attribute_exists(pk)")~"));
  EXPECT_EQ(200, Delete("").status);
}

TEST_F(ConditionalWriteTest, LegacyExpected) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"N":"1"}})").status);
  ExpectConditionFailed(Put(R"({"pk":{"S":"a"},"v":{"N":"2"}})", R"(,"Expected":{"v":{"Value":{"N":"7"}}})"));
  ExpectConditionFailed(Put(R"({"pk":{"S":"a"},"v":{"N":"2"}})", R"(,"Expected":{"pk":{"Exists":false}})"));
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"1"}})"), Stored());
  HttpResult r = Put(R"({"pk":{"S":"a"},"v":{"N":"2"}})",
                     R"(,"Expected":{"v":{"ComparisonOperator":"GE","AttributeValueList":[{"N":"1"}]}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  r = Put(R"({"pk":{"S":"a"}})", R"(,"Expected":{"v":{"Exists":true}})");
  EXPECT_EQ(Enveloped("One or more parameter values were invalid: Value must be provided when Exists is true for "
                      "Attribute: v"),
            r.Message());
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"2"}})"), Stored());
}

TEST_F(ConditionalWriteTest, LegacyExpectedValueTypesAndConditionalOperator) {
  // The write's own messages carry us-east-1's envelope (dialects.md §1.2.1).
  const std::string same_type = Enveloped(
      "One or more parameter values were invalid: AttributeValues inside "
      "AttributeValueList must be of same type");
  HttpResult r = Put(R"({"pk":{"S":"a"}})",
                     R"(,"Expected":{"v":{"ComparisonOperator":"IN","AttributeValueList":[{"S":"x"},{"N":"1"}]}})");
  EXPECT_EQ(400, r.status) << r.Describe();
  EXPECT_EQ(same_type, r.Message());
  r = Put(R"({"pk":{"S":"a"}})",
          R"(,"Expected":{"v":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"S":"x"},{"N":"1"}]}})");
  EXPECT_EQ(same_type, r.Message());
  const std::string no_expected = Enveloped(
      "One or more parameter values were invalid: ConditionalOperator can only be used when Expected is present");
  r = Put(R"({"pk":{"S":"a"}})", R"(,"ConditionalOperator":"AND")");
  EXPECT_EQ(400, r.status) << r.Describe();
  EXPECT_EQ(no_expected, r.Message());
  EXPECT_EQ(no_expected, Put(R"({"pk":{"S":"a"}})", R"(,"ConditionalOperator":"OR","Expected":{})").Message());
  EXPECT_EQ(no_expected, Delete(R"(,"ConditionalOperator":"OR")").Message());
  EXPECT_EQ("none", Stored());
}

TEST_F(ConditionalWriteTest, LegacyNotContainsFailsOnMissingAttribute) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"S":"abc"}})").status);
  ExpectConditionFailed(Put(R"({"pk":{"S":"a"},"v":{"S":"new"}})",
                            R"(,"Expected":{"gone":{"ComparisonOperator":"NOT_CONTAINS",)"
                            R"("AttributeValueList":[{"S":"x"}]}})"));
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"S":"abc"}})"), Stored());
  HttpResult r = Put(R"({"pk":{"S":"a"},"v":{"S":"new"}})",
                     R"(,"Expected":{"v":{"ComparisonOperator":"NOT_CONTAINS","AttributeValueList":[{"S":"x"}]}})");
  EXPECT_EQ(200, r.status) << r.Describe();
}

TEST_F(ConditionalWriteTest, PlaceholderErrorsOnPutAndDelete) {
  HttpResult r = Put(R"({"pk":{"S":"a"}})", R"(,"ExpressionAttributeValues":{":v":{"N":"5"}})");
  EXPECT_EQ("1 validation error detected: ExpressionAttributeValues can only be specified when using expressions",
            r.Message());
  r = Delete(R"(,"ExpressionAttributeNames":{"#v":"v"})");
  EXPECT_EQ(Enveloped("ExpressionAttributeNames can only be specified when using expressions"), r.Message());
  r = Put(R"({"pk":{"S":"a"}})",
          R"~(,"ConditionExpression":"attribute_not_exists(pk)","ExpressionAttributeNames":{"#v":"v"})~");
  EXPECT_EQ("1 validation error detected: Value provided in ExpressionAttributeNames unused in expressions: keys: "
            "{#v}",
            r.Message());
  EXPECT_EQ("none", Stored());
}

}  // namespace
}  // namespace dynapage
