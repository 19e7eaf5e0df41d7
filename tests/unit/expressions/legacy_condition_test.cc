#include "engine/expressions/legacy_condition.h"

#include <gtest/gtest.h>

#include "engine/expressions/condition_evaluator.h"

namespace dynapage {
namespace {

AttributeValue S(const std::string& s) { return AttributeValue::String(s); }
AttributeValue N(const std::string& s) { return AttributeValue::Number(s); }

LegacyCondition C(const std::string& attr, const std::string& op, std::vector<AttributeValue> values) {
  LegacyCondition c;
  c.attribute = attr;
  c.comparison_operator = op;
  c.values = std::move(values);
  c.has_values = true;
  return c;
}

const char kInvalid[] = "One or more parameter values were invalid: ";

std::string Validate(const LegacyCondition& c) {
  Status s = ValidateLegacyCondition(c);
  if (!s.ok()) {
    EXPECT_EQ(ErrorCode::kValidation, s.code());
  }
  return s.ok() ? "OK" : s.message();
}

TEST(LegacyConditionTest, ArgumentCounts) {
  for (const char* op : {"EQ", "NE", "LE", "LT", "GE", "GT", "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH"}) {
    EXPECT_EQ("OK", Validate(C("a", op, {S("x")}))) << op;
    EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the " + op + " ComparisonOperator",
              Validate(C("a", op, {}))) << op;
    EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the " + op + " ComparisonOperator",
              Validate(C("a", op, {S("x"), S("y")}))) << op;
  }
  for (const char* op : {"NULL", "NOT_NULL"}) {
    EXPECT_EQ("OK", Validate(C("a", op, {}))) << op;
    EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the " + op + " ComparisonOperator",
              Validate(C("a", op, {S("x")}))) << op;
  }
  EXPECT_EQ("OK", Validate(C("a", "BETWEEN", {S("a"), S("b")})));
  EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the BETWEEN ComparisonOperator",
            Validate(C("a", "BETWEEN", {S("a")})));
  EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the BETWEEN ComparisonOperator",
            Validate(C("a", "BETWEEN", {S("a"), S("b"), S("c")})));
  EXPECT_EQ("OK", Validate(C("a", "IN", {S("a"), S("b"), S("c")})));
  // IN's values, like BETWEEN's, are of one type.
  EXPECT_EQ(std::string(kInvalid) + "AttributeValues inside AttributeValueList must be of same type",
            Validate(C("a", "IN", {S("a"), N("1"), S("c")})));
  EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the IN ComparisonOperator",
            Validate(C("a", "IN", {})));
  LegacyCondition absent;
  absent.attribute = "a";
  absent.comparison_operator = "EQ";
  EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the EQ ComparisonOperator", Validate(absent));
}

TEST(LegacyConditionTest, ArgumentTypes) {
  EXPECT_EQ(std::string(kInvalid) + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type",
            Validate(C("a", "BEGINS_WITH", {N("1")})));
  EXPECT_EQ("OK", Validate(C("a", "BEGINS_WITH", {AttributeValue::Binary("x")})));
  EXPECT_EQ(std::string(kInvalid) + "ComparisonOperator LT is not valid for BOOL AttributeValue type",
            Validate(C("a", "LT", {AttributeValue::Bool(true)})));
  EXPECT_EQ(std::string(kInvalid) + "ComparisonOperator GE is not valid for SS AttributeValue type",
            Validate(C("a", "GE", {AttributeValue::Set(AttrType::kSS, {"x"})})));
  EXPECT_EQ(std::string(kInvalid) + "ComparisonOperator IN is not valid for L AttributeValue type",
            Validate(C("a", "IN", {S("x"), AttributeValue::List({})})));
  EXPECT_EQ(std::string(kInvalid) + "ComparisonOperator CONTAINS is not valid for SS AttributeValue type",
            Validate(C("a", "CONTAINS", {AttributeValue::Set(AttrType::kSS, {"x"})})));
  EXPECT_EQ(std::string(kInvalid) + "ComparisonOperator NOT_CONTAINS is not valid for M AttributeValue type",
            Validate(C("a", "NOT_CONTAINS", {AttributeValue::Map({})})));
  EXPECT_EQ(std::string(kInvalid) + "ComparisonOperator BETWEEN is not valid for NULL AttributeValue type",
            Validate(C("a", "BETWEEN", {AttributeValue::Null(), AttributeValue::Null()})));
  // EQ and NE take anything.
  EXPECT_EQ("OK", Validate(C("a", "EQ", {AttributeValue::Map({})})));
  EXPECT_EQ("OK", Validate(C("a", "NE", {AttributeValue::Set(AttrType::kNS, {"1"})})));
  EXPECT_EQ("OK", Validate(C("a", "CONTAINS", {N("1")})));
}

TEST(LegacyConditionTest, BetweenBounds) {
  EXPECT_EQ("The BETWEEN condition was provided a range where the lower bound is greater than the upper bound",
            Validate(C("a", "BETWEEN", {N("10"), N("9")})));
  EXPECT_EQ("OK", Validate(C("a", "BETWEEN", {N("9"), N("10")})));
  EXPECT_EQ("OK", Validate(C("a", "BETWEEN", {S("b"), S("b")})));
  EXPECT_EQ(std::string(kInvalid) + "AttributeValues inside AttributeValueList must be of same type",
            Validate(C("a", "BETWEEN", {N("1"), S("b")})));
}

TEST(LegacyConditionTest, UnknownOperator) {
  EXPECT_EQ("1 validation error detected: Value 'FOO' at 'comparisonOperator' failed to satisfy constraint: Member "
            "must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, "
            "BEGINS_WITH, GE, CONTAINS]",
            Validate(C("a", "FOO", {})));
  EXPECT_EQ("1 validation error detected: Value null at 'comparisonOperator' failed to satisfy constraint: Member "
            "must not be null",
            Validate(C("a", "", {S("x")})));
}

bool Matches(const std::vector<LegacyCondition>& conditions, bool use_or, const AttributeMap& item) {
  std::unique_ptr<ConditionExpr> expr;
  Status s = ConvertLegacyFilter(conditions, use_or, &expr);
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() && EvaluateCondition(*expr, item);
}

TEST(LegacyConditionTest, FilterSemantics) {
  AttributeMap item = {{"s", S("hello")}, {"n", N("5")}, {"ss", AttributeValue::Set(AttrType::kSS, {"x"})}};
  EXPECT_TRUE(Matches({C("s", "EQ", {S("hello")})}, false, item));
  EXPECT_FALSE(Matches({C("s", "NE", {S("hello")})}, false, item));
  EXPECT_TRUE(Matches({C("gone", "NE", {S("hello")})}, false, item));  // missing is "not equal"
  EXPECT_TRUE(Matches({C("n", "LT", {N("6")})}, false, item));
  EXPECT_TRUE(Matches({C("n", "LE", {N("5")})}, false, item));
  EXPECT_FALSE(Matches({C("n", "GT", {N("5")})}, false, item));
  EXPECT_TRUE(Matches({C("n", "GE", {N("5")})}, false, item));
  EXPECT_TRUE(Matches({C("n", "NOT_NULL", {})}, false, item));
  EXPECT_FALSE(Matches({C("n", "NULL", {})}, false, item));
  EXPECT_TRUE(Matches({C("gone", "NULL", {})}, false, item));
  EXPECT_TRUE(Matches({C("s", "CONTAINS", {S("ell")})}, false, item));
  EXPECT_TRUE(Matches({C("ss", "CONTAINS", {S("x")})}, false, item));
  EXPECT_TRUE(Matches({C("ss", "NOT_CONTAINS", {S("y")})}, false, item));
  EXPECT_TRUE(Matches({C("gone", "NOT_CONTAINS", {S("y")})}, false, item));
  EXPECT_FALSE(Matches({C("s", "NOT_CONTAINS", {S("ell")})}, false, item));
  EXPECT_TRUE(Matches({C("s", "BEGINS_WITH", {S("he")})}, false, item));
  EXPECT_TRUE(Matches({C("n", "IN", {N("1"), N("5")})}, false, item));
  EXPECT_FALSE(Matches({C("n", "IN", {N("1"), N("6")})}, false, item));
  EXPECT_TRUE(Matches({C("n", "BETWEEN", {N("5"), N("6")})}, false, item));
  // Attribute names are taken literally, never as paths.
  AttributeMap dotted = {{"a.b", S("v")}};
  EXPECT_TRUE(Matches({C("a.b", "EQ", {S("v")})}, false, dotted));
}

TEST(LegacyConditionTest, ConditionalOperator) {
  AttributeMap item = {{"a", S("1")}, {"b", S("2")}};
  std::vector<LegacyCondition> one_true = {C("a", "EQ", {S("1")}), C("b", "EQ", {S("nope")})};
  EXPECT_FALSE(Matches(one_true, false, item));
  EXPECT_TRUE(Matches(one_true, true, item));
  std::vector<LegacyCondition> both_true = {C("a", "EQ", {S("1")}), C("b", "EQ", {S("2")})};
  EXPECT_TRUE(Matches(both_true, false, item));
}

TEST(LegacyConditionTest, FilterStopsAtFirstInvalidCondition) {
  std::unique_ptr<ConditionExpr> expr;
  Status s = ConvertLegacyFilter({C("a", "EQ", {S("1")}), C("b", "GT", {}), C("c", "LT", {AttributeValue::Null()})},
                                 false, &expr);
  EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the GT ComparisonOperator", s.message());
  EXPECT_EQ(nullptr, expr);
}

std::string Expected(const LegacyCondition& c, const AttributeMap& item, bool* matched = nullptr) {
  std::unique_ptr<ConditionExpr> expr;
  Status s = ConvertLegacyExpected({c}, false, &expr);
  if (!s.ok()) return s.message();
  if (matched) *matched = EvaluateCondition(*expr, item);
  return "OK";
}

TEST(LegacyConditionTest, ExpectedValueAndExists) {
  AttributeMap item = {{"a", S("1")}};
  LegacyCondition c;
  c.attribute = "a";
  bool m = false;

  c.value = S("1");
  ASSERT_EQ("OK", Expected(c, item, &m));
  EXPECT_TRUE(m);
  c.exists = true;
  ASSERT_EQ("OK", Expected(c, item, &m));
  EXPECT_TRUE(m);
  c.value = S("2");
  ASSERT_EQ("OK", Expected(c, item, &m));
  EXPECT_FALSE(m);

  c.value.reset();
  c.exists = false;
  ASSERT_EQ("OK", Expected(c, item, &m));
  EXPECT_FALSE(m);
  ASSERT_EQ("OK", Expected(c, AttributeMap(), &m));
  EXPECT_TRUE(m);

  c.exists.reset();
  EXPECT_EQ(std::string(kInvalid) + "Value must be provided when Exists is null for Attribute: a", Expected(c, item));
  c.exists = true;
  EXPECT_EQ(std::string(kInvalid) + "Value must be provided when Exists is true for Attribute: a", Expected(c, item));
  c.exists = false;
  c.value = S("1");
  EXPECT_EQ(std::string(kInvalid) + "Value cannot be used when Exists is false for Attribute: a", Expected(c, item));
}

TEST(LegacyConditionTest, ExpectedWithComparisonOperator) {
  AttributeMap item = {{"a", N("3")}};
  LegacyCondition c = C("a", "GT", {N("2")});
  bool m = false;
  ASSERT_EQ("OK", Expected(c, item, &m));
  EXPECT_TRUE(m);
  // Value may stand for a one-element AttributeValueList.
  LegacyCondition v;
  v.attribute = "a";
  v.comparison_operator = "LT";
  v.value = N("2");
  ASSERT_EQ("OK", Expected(v, item, &m));
  EXPECT_FALSE(m);

  LegacyCondition both = C("a", "EQ", {N("1")});
  both.value = N("1");
  EXPECT_EQ(std::string(kInvalid) + "Value and AttributeValueList cannot be used together for Attribute: a",
            Expected(both, item));
  LegacyCondition exists = C("a", "EQ", {N("1")});
  exists.exists = true;
  EXPECT_EQ(std::string(kInvalid) + "Exists and ComparisonOperator cannot be used together for Attribute: a",
            Expected(exists, item));
  LegacyCondition list_only = C("a", "", {N("1")});
  EXPECT_EQ(std::string(kInvalid) + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a",
            Expected(list_only, item));
  EXPECT_EQ(std::string(kInvalid) + "Invalid number of argument(s) for the BETWEEN ComparisonOperator",
            Expected(C("a", "BETWEEN", {N("1")}), item));
}

}  // namespace
}  // namespace dynapage
