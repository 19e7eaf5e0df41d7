#include "engine/partiql/partiql_expressions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dynapage {
namespace {

struct Pins {
  bool pinned = false;
  std::vector<std::string> values;  // the S values
};

Pins PinsOf(const std::string& where, const std::vector<AttributeValue>& parameters = {}) {
  PartiqlStatement s;
  Status status = ParsePartiql("SELECT * FROM t WHERE " + where, &s);
  EXPECT_TRUE(status.ok()) << status.message();
  Pins out;
  std::vector<AttributeValue> values;
  KeyPins(s.where.get(), "pk", parameters, &out.pinned, &values);
  for (const AttributeValue& v : values) out.values.push_back(v.scalar);
  return out;
}

TEST(PartiqlKeyPinsTest, EveryOrBranchMustPinTheKey) {
  Pins p = PinsOf("pk = 'a'");
  EXPECT_TRUE(p.pinned);
  EXPECT_EQ(std::vector<std::string>({"a"}), p.values);
  p = PinsOf("'a' = pk AND x = 1");
  EXPECT_EQ(std::vector<std::string>({"a"}), p.values);
  p = PinsOf("pk IN ['b', 'a', 'b'] OR pk = 'c'");
  EXPECT_TRUE(p.pinned);
  EXPECT_EQ(std::vector<std::string>({"b", "a", "c"}), p.values);  // written order, no repeats
  p = PinsOf("(pk = 'a' AND x = 1) OR (pk = 'b' AND y = 2)");
  EXPECT_EQ(std::vector<std::string>({"a", "b"}), p.values);
  p = PinsOf("pk = ?", {AttributeValue::String("p")});
  EXPECT_EQ(std::vector<std::string>({"p"}), p.values);
  // Not pinned: a Scan.
  EXPECT_FALSE(PinsOf("pk = 'a' OR x = 1").pinned);
  EXPECT_FALSE(PinsOf("pk > 'a'").pinned);
  EXPECT_FALSE(PinsOf("NOT pk = 'a'").pinned);
  EXPECT_FALSE(PinsOf("sk = 'a'").pinned);
  EXPECT_FALSE(PinsOf("pk.x = 'a'").pinned);
  EXPECT_FALSE(PinsOf("pk = other").pinned);
  // Contradictory pins read nothing.
  p = PinsOf("pk = 'a' AND pk = 'b'");
  EXPECT_TRUE(p.pinned);
  EXPECT_TRUE(p.values.empty());
  p = PinsOf("pk IN ['a', 'b'] AND pk IN ['b', 'c']");
  EXPECT_EQ(std::vector<std::string>({"b"}), p.values);
}

std::string ConditionText(const std::string& where, ExpressionInputs* inputs = nullptr) {
  PartiqlStatement s;
  EXPECT_TRUE(ParsePartiql("SELECT * FROM t WHERE " + where, &s).ok());
  std::vector<AttributeValue> parameters;
  PartiqlExpressionBuilder b(parameters);
  std::string text;
  Status status = b.Condition(*s.where, &text);
  EXPECT_TRUE(status.ok()) << status.message();
  if (inputs) *inputs = b.TakeInputs();
  return text;
}

TEST(PartiqlExpressionBuilderTest, ConditionsBecomeFilterExpressionsWithPlaceholders) {
  ExpressionInputs inputs;
  EXPECT_EQ("#n0 = :v0 AND (#n1 < :v1 OR NOT (#n2 <> :v2))", ConditionText("a = 1 AND (b < 2 OR NOT c != 3)", &inputs));
  EXPECT_EQ("a", inputs.names->at("#n0"));
  EXPECT_EQ("2", inputs.values->at(":v1").scalar);
  // A name is one placeholder however often it appears; reserved words need no care.
  EXPECT_EQ("#n0.#n1[2] BETWEEN :v0 AND :v1 AND size(#n0) > :v2",
            ConditionText("Year.m[2] BETWEEN 1 AND 5 AND size(Year) > 1"));
  EXPECT_EQ("attribute_not_exists(#n0) AND NOT (attribute_not_exists(#n1))",
            ConditionText("a IS MISSING AND b IS NOT MISSING"));
  EXPECT_EQ("attribute_type(#n0, :v0)", ConditionText("a IS NULL", &inputs));
  EXPECT_EQ("NULL", inputs.values->at(":v0").scalar);
  EXPECT_EQ("NOT (#n0 IN (:v0, :v1))", ConditionText("a NOT IN [1, 2]"));
  EXPECT_EQ("begins_with(#n0, :v0) OR contains(#n1, :v1)", ConditionText("begins_with(a, 'x') OR contains(b, 'y')"));
}

TEST(PartiqlExpressionBuilderTest, OrderingOperatorsRefuseParametersOfUnorderedTypes) {
  PartiqlStatement s;
  ASSERT_TRUE(ParsePartiql("SELECT * FROM t WHERE a < ?", &s).ok());
  std::vector<AttributeValue> parameters = {AttributeValue::Bool(true)};
  PartiqlExpressionBuilder b(parameters);
  std::string text;
  Status status = b.Condition(*s.where, &text);
  EXPECT_EQ("Incorrect operand type for operator or function; operator or function: <, operand type: BOOL",
            status.message());
}

TEST(PartiqlExpressionBuilderTest, UpdateClausesGroupedAsUpdateExpression) {
  PartiqlStatement s;
  ASSERT_TRUE(ParsePartiql("UPDATE t SET a = 1 REMOVE b SET c = c + 1, s = set_add(s, <<'x'>>), "
                           "l = list_append(l, [1]), d = set_delete(d, <<1>>), e = if_not_exists(e, 0) WHERE pk = 'k'",
                           &s)
                  .ok());
  std::vector<AttributeValue> parameters;
  PartiqlExpressionBuilder b(parameters);
  std::string text;
  ASSERT_TRUE(b.Update(s, &text).ok());
  EXPECT_EQ(
      "SET #n0 = :v0, #n1 = #n1 + :v1, #n3 = list_append(#n3, :v3), #n5 = if_not_exists(#n5, :v5) REMOVE #n6 "
      "ADD #n2 :v2 DELETE #n4 :v4",
      text);
}

}  // namespace
}  // namespace dynapage
