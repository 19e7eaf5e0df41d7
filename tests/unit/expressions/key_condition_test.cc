#include "engine/expressions/key_condition.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

AttributeValue S(const std::string& s) { return AttributeValue::String(s); }
AttributeValue N(const std::string& s) { return AttributeValue::Number(s); }
AttributeValue B(const std::string& s) { return AttributeValue::Binary(s); }

using SortOp = KeyCondition::SortOp;

KeySchema HashRange(AttrType range_type = AttrType::kS) {
  KeySchema k;
  k.hash = KeyAttribute{"pk", AttrType::kS};
  k.range = KeyAttribute{"sk", range_type};
  return k;
}

// A multi-attribute GSI key: [h1 S, h2 N] HASH, [r1 S, r2 N, r3 B] RANGE.
KeySchema MultiAttribute() {
  KeySchema k;
  k.hash = KeyAttribute{"h1", AttrType::kS};
  k.more_hash = {KeyAttribute{"h2", AttrType::kN}};
  k.range = KeyAttribute{"r1", AttrType::kS};
  k.more_range = {KeyAttribute{"r2", AttrType::kN}, KeyAttribute{"r3", AttrType::kB}};
  return k;
}

KeySchema HashOnly() {
  KeySchema k;
  k.hash = KeyAttribute{"pk", AttrType::kS};
  return k;
}

class KeyConditionTest : public ::testing::Test {
 protected:
  KeyConditionTest() {
    names_ = {{"#p", "pk"}, {"#s", "sk"}};
    values_ = {{":p", S("p")},   {":a", S("a")},   {":b", S("b")},  {":n1", N("1")},
               {":n2", N("2")},  {":x", B("\x01")}, {":bool", AttributeValue::Bool(true)}, {":tS", S("S")}};
  }

  std::string Parse(const std::string& text, ParsedKeyCondition* out = nullptr) {
    ExpressionAttributes attrs(&names_, &values_);
    ParsedKeyCondition parsed;
    Status s = ParseKeyConditionExpression(text, &attrs, &parsed);
    if (out) *out = parsed;
    if (!s.ok()) {
      EXPECT_EQ(ErrorCode::kValidation, s.code());
    }
    return s.ok() ? "OK" : s.message();
  }

  // Parses and binds against schema; "OK" or the message.
  std::string Query(const std::string& text, const KeySchema& schema, KeyCondition* out = nullptr) {
    ParsedKeyCondition parsed;
    std::string r = Parse(text, &parsed);
    if (r != "OK") return r;
    KeyCondition kc;
    Status s = BindKeyCondition(parsed, schema, &kc);
    if (out) *out = kc;
    return s.ok() ? "OK" : s.message();
  }

  ExpressionNameMap names_;
  ExpressionValueMap values_;
};

TEST_F(KeyConditionTest, PartitionOnly) {
  KeyCondition kc;
  ASSERT_EQ("OK", Query("pk = :p", HashRange(), &kc));
  EXPECT_EQ(S("p"), kc.partition_value);
  EXPECT_EQ(SortOp::kNone, kc.sort_op);
  ASSERT_EQ("OK", Query("pk = :p", HashOnly(), &kc));
  ASSERT_EQ("OK", Query(":p = #p", HashOnly(), &kc));
  EXPECT_EQ(S("p"), kc.partition_value);
}

TEST_F(KeyConditionTest, EverySortOperator) {
  struct Case {
    const char* text;
    SortOp op;
  } cases[] = {
      {"pk = :p AND sk = :a", SortOp::kEq},
      {"pk = :p AND sk < :a", SortOp::kLt},
      {"pk = :p AND sk <= :a", SortOp::kLe},
      {"pk = :p AND sk > :a", SortOp::kGt},
      {"pk = :p AND sk >= :a", SortOp::kGe},
      {"pk = :p AND begins_with(sk, :a)", SortOp::kBeginsWith},
      {"sk >= :a AND pk = :p", SortOp::kGe},
      // The value on the left flips the comparison.
      {"pk = :p AND :a < sk", SortOp::kGt},
      {"pk = :p AND :a <= sk", SortOp::kGe},
      {"pk = :p AND :a > sk", SortOp::kLt},
      {"pk = :p AND :a >= sk", SortOp::kLe},
      {"pk = :p AND :a = sk", SortOp::kEq},
  };
  for (const Case& c : cases) {
    KeyCondition kc;
    ASSERT_EQ("OK", Query(c.text, HashRange(), &kc)) << c.text;
    EXPECT_EQ(c.op, kc.sort_op) << c.text;
    EXPECT_EQ(S("a"), kc.sort_lower) << c.text;
    EXPECT_EQ(S("p"), kc.partition_value) << c.text;
  }
  KeyCondition kc;
  ASSERT_EQ("OK", Query("pk = :p AND sk BETWEEN :a AND :b", HashRange(), &kc));
  EXPECT_EQ(SortOp::kBetween, kc.sort_op);
  EXPECT_EQ(S("a"), kc.sort_lower);
  EXPECT_EQ(S("b"), kc.sort_upper);
}

TEST_F(KeyConditionTest, KeywordsPlaceholdersAndParentheses) {
  KeyCondition kc;
  EXPECT_EQ("OK", Query("#p = :p and #s between :a and :b", HashRange(), &kc));
  EXPECT_EQ(SortOp::kBetween, kc.sort_op);
  EXPECT_EQ("OK", Query("(pk = :p) AND (begins_with(sk, :a))", HashRange()));
  EXPECT_EQ("OK", Query("((pk = :p) AND (sk > :a))", HashRange()));
  EXPECT_EQ("OK", Query("(#p) = :p AnD (sk) > (:a)", HashRange()));
  EXPECT_EQ("OK", Query("pk = :p AND sk BETWEEN :n1 AND :n2", HashRange(AttrType::kN)));
  EXPECT_EQ("OK", Query("pk = :p AND begins_with(sk, :x)", HashRange(AttrType::kB)));
}

TEST_F(KeyConditionTest, ExpressionLevelErrors) {
  const std::string k = "Invalid KeyConditionExpression: ";
  EXPECT_EQ(k + "The expression can not be empty;", Parse(""));
  EXPECT_EQ(k + "Syntax error; token: \">\", near: \"b > c\"", Parse("a > b > c"));
  EXPECT_EQ(k + "Attribute name is a reserved keyword; reserved keyword: name", Parse("name = :p"));
  EXPECT_EQ(k + "An expression attribute name used in the document path is not defined; attribute name: #q",
            Parse("pk = :p AND #q = :a"));
  EXPECT_EQ(k + "An expression attribute value used in expression is not defined; attribute value: :q",
            Parse("pk = :q"));
  EXPECT_EQ(k + "Invalid function name; function: foo", Parse("foo(pk)"));
  EXPECT_EQ(k + "The expression has redundant parentheses;", Parse("((pk = :p))"));
  EXPECT_EQ(k + "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: "
                "AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}",
            Parse("pk = :p AND sk BETWEEN :n1 AND :a"));
  EXPECT_EQ(k + "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound "
                "operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}",
            Parse("pk = :p AND sk BETWEEN :b AND :a"));
  EXPECT_EQ(k + "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N",
            Parse("pk = :p AND begins_with(sk, :n1)"));
}

TEST_F(KeyConditionTest, InvalidOperators) {
  const std::string k = "Invalid operator used in KeyConditionExpression: ";
  EXPECT_EQ(k + "OR", Parse("pk = :p OR sk = :a"));
  EXPECT_EQ(k + "OR", Parse("pk = :p AND (sk = :a OR NOT sk = :b)"));
  EXPECT_EQ(k + "NOT", Parse("NOT pk = :p"));
  EXPECT_EQ(k + "IN", Parse("pk IN (:p)"));
  EXPECT_EQ(k + "<>", Parse("pk <> :p"));
  EXPECT_EQ(k + "attribute_exists", Parse("pk = :p AND attribute_exists(sk)"));
  EXPECT_EQ(k + "attribute_not_exists", Parse("attribute_not_exists(pk)"));
  EXPECT_EQ(k + "attribute_type", Parse("attribute_type(pk, :tS)"));
  EXPECT_EQ(k + "contains", Parse("contains(pk, :a)"));
  // Operators are checked before the shape of each condition.
  EXPECT_EQ(k + "<>", Parse("size(pk) = :n1 AND sk <> :a"));
}

TEST_F(KeyConditionTest, ConditionShapeErrors) {
  EXPECT_EQ("KeyConditionExpressions cannot contain nested operations", Parse("size(pk) = :n1"));
  EXPECT_EQ("KeyConditionExpressions cannot contain nested operations", Parse("pk = :p AND sk > size(x)"));
  EXPECT_EQ("Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first "
            "operand",
            Parse(":a BETWEEN sk AND :b"));
  EXPECT_EQ("Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its "
            "first operand",
            Parse("pk = :p AND begins_with(:a, sk)"));
  EXPECT_EQ("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition",
            Parse("pk = sk"));
  EXPECT_EQ("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition",
            Parse("pk = :p AND begins_with(sk, pk)"));
  EXPECT_EQ("Invalid condition in KeyConditionExpression: No key attribute specified", Parse(":a = :b"));
  EXPECT_EQ("KeyConditionExpressions cannot have conditions on nested attributes", Parse("pk.x = :p"));
  EXPECT_EQ("KeyConditionExpressions cannot have conditions on nested attributes", Parse("pk = :p AND sk[0] > :a"));
  // Up to eight conditions parse (a multi-attribute GSI key has up to eight attributes); a single-attribute key
  // takes two.
  EXPECT_EQ("Conditions can be of length 1 or 2 only", Query("pk = :p AND sk > :a AND x = :b", HashRange()));
  EXPECT_EQ("Conditions can be of length 1 or 2 only", Query("pk = :p AND (sk > :a AND x = :b)", HashRange()));
  EXPECT_EQ("Conditions can be of length 1 or 2 only",
            Parse("a = :p AND b = :p AND c = :p AND d = :p AND e = :p AND f = :p AND g = :p AND h = :p AND i = :p"));
  EXPECT_EQ("KeyConditionExpressions must only contain one condition per key",
            Parse("a = :p AND b = :p AND c = :p AND b > :a"));
  EXPECT_EQ("KeyConditionExpressions must only contain one condition per key", Parse("pk = :p AND pk = :a"));
  EXPECT_EQ("KeyConditionExpressions must only contain one condition per key", Parse("#p = :p AND pk > :a"));
}

TEST_F(KeyConditionTest, SchemaErrors) {
  EXPECT_EQ("Query condition missed key schema element: pk", Query("sk = :a", HashRange()));
  EXPECT_EQ("Query condition missed key schema element: pk", Query("zz = :a", HashRange()));
  EXPECT_EQ("Query condition missed key schema element: pk", Query("sk = :a AND x = :b", HashRange()));
  EXPECT_EQ("Query condition missed key schema element: sk", Query("pk = :p AND x > :a", HashRange()));
  EXPECT_EQ("Query key condition not supported", Query("pk > :p", HashRange()));
  EXPECT_EQ("Query key condition not supported", Query("begins_with(pk, :p)", HashRange()));
  EXPECT_EQ("Query key condition not supported", Query("pk BETWEEN :a AND :b AND sk = :a", HashRange()));
  EXPECT_EQ("Query key condition not supported", Query("pk = :p AND sk = :a", HashOnly()));
  const std::string mismatch =
      "One or more parameter values were invalid: Condition parameter type does not match schema type";
  EXPECT_EQ(mismatch, Query("pk = :n1", HashRange()));
  EXPECT_EQ(mismatch, Query("pk = :p AND sk > :n1", HashRange()));
  EXPECT_EQ(mismatch, Query("pk = :p AND sk > :a", HashRange(AttrType::kN)));
  EXPECT_EQ(mismatch, Query("pk = :p AND sk = :bool", HashRange()));
  EXPECT_EQ(mismatch, Query("pk = :p AND begins_with(sk, :a)", HashRange(AttrType::kN)));
  EXPECT_EQ(mismatch, Query("pk = :p AND sk BETWEEN :a AND :b", HashRange(AttrType::kB)));
}

TEST_F(KeyConditionTest, LegacyKeyConditions) {
  auto cond = [](const char* attr, const char* op, std::vector<AttributeValue> v) {
    LegacyCondition c;
    c.attribute = attr;
    c.comparison_operator = op;
    c.values = std::move(v);
    c.has_values = true;
    return c;
  };
  ParsedKeyCondition parsed;
  ASSERT_TRUE(ParseLegacyKeyConditions({cond("pk", "EQ", {S("p")}), cond("sk", "BETWEEN", {S("a"), S("b")})}, &parsed)
                  .ok());
  KeyCondition kc;
  ASSERT_TRUE(BindKeyCondition(parsed, HashRange(), &kc).ok());
  EXPECT_EQ(S("p"), kc.partition_value);
  EXPECT_EQ(SortOp::kBetween, kc.sort_op);
  EXPECT_EQ(S("a"), kc.sort_lower);
  EXPECT_EQ(S("b"), kc.sort_upper);

  for (const char* op : {"EQ", "LE", "LT", "GE", "GT", "BEGINS_WITH"}) {
    ASSERT_TRUE(ParseLegacyKeyConditions({cond("pk", "EQ", {S("p")}), cond("sk", op, {S("a")})}, &parsed).ok()) << op;
    ASSERT_TRUE(BindKeyCondition(parsed, HashRange(), &kc).ok()) << op;
    EXPECT_EQ(S("a"), kc.sort_lower);
  }
  for (const char* op : {"NE", "CONTAINS", "NOT_CONTAINS", "IN"}) {
    EXPECT_EQ("Attempted conditional constraint is not an indexable operation",
              ParseLegacyKeyConditions({cond("pk", op, {S("p")})}, &parsed).message())
        << op;
  }
  for (const char* op : {"NULL", "NOT_NULL"}) {
    EXPECT_EQ("Attempted conditional constraint is not an indexable operation",
              ParseLegacyKeyConditions({cond("pk", op, {})}, &parsed).message())
        << op;
  }
  EXPECT_EQ("One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN "
            "ComparisonOperator",
            ParseLegacyKeyConditions({cond("sk", "BETWEEN", {S("a")})}, &parsed).message());
  EXPECT_EQ("One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N "
            "AttributeValue type",
            ParseLegacyKeyConditions({cond("sk", "BEGINS_WITH", {N("1")})}, &parsed).message());
  EXPECT_EQ("The BETWEEN condition was provided a range where the lower bound is greater than the upper bound",
            ParseLegacyKeyConditions({cond("sk", "BETWEEN", {S("b"), S("a")})}, &parsed).message());
  EXPECT_EQ("Conditions can be of length 1 or 2 only", ParseLegacyKeyConditions({}, &parsed).message());
  ASSERT_TRUE(ParseLegacyKeyConditions(
                  {cond("a", "EQ", {S("p")}), cond("b", "EQ", {S("p")}), cond("c", "EQ", {S("p")})}, &parsed)
                  .ok());
  EXPECT_EQ("Conditions can be of length 1 or 2 only", BindKeyCondition(parsed, HashRange(), &kc).message());

  ASSERT_TRUE(ParseLegacyKeyConditions({cond("pk", "GT", {S("p")})}, &parsed).ok());
  EXPECT_EQ("Query key condition not supported", BindKeyCondition(parsed, HashRange(), &kc).message());
  ASSERT_TRUE(ParseLegacyKeyConditions({cond("sk", "EQ", {S("p")})}, &parsed).ok());
  EXPECT_EQ("Query condition missed key schema element: pk", BindKeyCondition(parsed, HashRange(), &kc).message());
  ASSERT_TRUE(ParseLegacyKeyConditions({cond("pk", "EQ", {N("1")})}, &parsed).ok());
  EXPECT_EQ("One or more parameter values were invalid: Condition parameter type does not match schema type",
            BindKeyCondition(parsed, HashRange(), &kc).message());
}

TEST_F(KeyConditionTest, SortKeyMatches) {
  KeyCondition kc;
  kc.partition_value = S("p");
  EXPECT_TRUE(SortKeyMatches(kc, S("anything")));
  kc.sort_op = SortOp::kEq;
  kc.sort_lower = N("10");
  EXPECT_TRUE(SortKeyMatches(kc, N("10")));
  EXPECT_FALSE(SortKeyMatches(kc, N("9")));
  EXPECT_FALSE(SortKeyMatches(kc, S("10")));
  kc.sort_op = SortOp::kLt;
  EXPECT_TRUE(SortKeyMatches(kc, N("9")));
  EXPECT_FALSE(SortKeyMatches(kc, N("10")));
  kc.sort_op = SortOp::kLe;
  EXPECT_TRUE(SortKeyMatches(kc, N("10")));
  EXPECT_FALSE(SortKeyMatches(kc, N("11")));
  kc.sort_op = SortOp::kGt;
  EXPECT_TRUE(SortKeyMatches(kc, N("100")));
  EXPECT_FALSE(SortKeyMatches(kc, N("10")));
  kc.sort_op = SortOp::kGe;
  EXPECT_TRUE(SortKeyMatches(kc, N("10")));
  EXPECT_FALSE(SortKeyMatches(kc, N("-10")));
  kc.sort_op = SortOp::kBetween;
  kc.sort_upper = N("20");
  EXPECT_TRUE(SortKeyMatches(kc, N("10")));
  EXPECT_TRUE(SortKeyMatches(kc, N("15.5")));
  EXPECT_TRUE(SortKeyMatches(kc, N("20")));
  EXPECT_FALSE(SortKeyMatches(kc, N("20.1")));
  EXPECT_FALSE(SortKeyMatches(kc, N("9")));
  kc.sort_op = SortOp::kBeginsWith;
  kc.sort_lower = S("ab");
  EXPECT_TRUE(SortKeyMatches(kc, S("abc")));
  EXPECT_FALSE(SortKeyMatches(kc, S("b")));
  kc.sort_lower = B("\x01");
  EXPECT_TRUE(SortKeyMatches(kc, B("\x01\x02")));
  EXPECT_FALSE(SortKeyMatches(kc, S("\x01")));
}

DocumentPath P(std::initializer_list<PathElement> e) { return DocumentPath(e); }

TEST_F(KeyConditionTest, FilterKeyRules) {
  KeySchema table = HashRange();
  KeySchema index;
  index.hash = KeyAttribute{"gpk", AttrType::kS};
  index.range = KeyAttribute{"gsk", AttrType::kN};
  std::vector<DocumentPath> ok = {P({PathElement::Name("x"), PathElement::Name("y")}), P({PathElement::Name("pk")})};
  EXPECT_TRUE(CheckNestedKeyPaths(ok, table, &index).ok());
  EXPECT_EQ("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: sk",
            CheckNestedKeyPaths({P({PathElement::Name("sk"), PathElement::Name("y")})}, table, nullptr).message());
  EXPECT_EQ("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk",
            CheckNestedKeyPaths({P({PathElement::Name("pk"), PathElement::Index(0)})}, table, &index).message());
  EXPECT_EQ("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: gsk",
            CheckNestedKeyPaths({P({PathElement::Name("gsk"), PathElement::Index(0)})}, table, &index).message());
  EXPECT_TRUE(CheckNestedKeyPaths({P({PathElement::Name("gsk"), PathElement::Index(0)})}, table, nullptr).ok());

  EXPECT_EQ("Filter Expression can only contain non-primary key attributes: Primary key attribute: pk",
            CheckFilterAvoidsKeys(ok, table, "Filter Expression").message());
  EXPECT_EQ("QueryFilter can only contain non-primary key attributes: Primary key attribute: gsk",
            CheckFilterAvoidsKeys({P({PathElement::Name("a")}), P({PathElement::Name("gsk")})}, index, "QueryFilter")
                .message());
  EXPECT_TRUE(CheckFilterAvoidsKeys({P({PathElement::Name("pk")})}, index, "QueryFilter").ok());
}

// A multi-attribute key binds every HASH value, the RANGE equalities before the last condition, and the last
// condition (docs/multi-attribute-keys.md).
TEST_F(KeyConditionTest, MultiAttributeKeyBindsThePrefix) {
  KeyCondition kc;
  ASSERT_EQ("OK", Query("r2 > :n1 AND h2 = :n2 AND (r1 = :a) AND h1 = :p", MultiAttribute(), &kc));
  EXPECT_EQ(S("p"), kc.partition_value);
  EXPECT_EQ(std::vector<AttributeValue>({N("2")}), kc.more_partition_values);
  EXPECT_EQ(std::vector<AttributeValue>({S("a")}), kc.sort_equalities);
  EXPECT_EQ(SortOp::kGt, kc.sort_op);
  EXPECT_EQ(N("1"), kc.sort_lower);
  ASSERT_EQ("OK", Query("h1 = :p AND h2 = :n2", MultiAttribute(), &kc));
  EXPECT_EQ(SortOp::kNone, kc.sort_op);
  EXPECT_TRUE(kc.sort_equalities.empty());
  ASSERT_EQ("OK",
            Query("h1 = :p AND h2 = :n2 AND r1 = :a AND r2 = :n1 AND r3 BETWEEN :x AND :x", MultiAttribute(), &kc));
  EXPECT_EQ(2u, kc.sort_equalities.size());
  EXPECT_EQ(SortOp::kBetween, kc.sort_op);

  EXPECT_EQ("HASH key attributes h1, h2 must have equality conditions specified in the query",
            Query("r1 = :a", MultiAttribute()));
  EXPECT_EQ("HASH key attributes h2 must have equality conditions specified in the query",
            Query("h1 = :p AND h2 > :n1", MultiAttribute()));
  EXPECT_EQ("Query condition missed key schema element", Query("h1 = :p AND h2 = :n2 AND zz = :a", MultiAttribute()));
  EXPECT_EQ(
      "RANGE key attributes r1 must have equality conditions specified in the query because a condition is "
      "present on key attribute r3",
      Query("h1 = :p AND h2 = :n2 AND r3 = :x", MultiAttribute()));
  EXPECT_EQ(
      "RANGE key attributes r2 must have equality conditions specified in the query because a condition is "
      "present on key attribute r3",
      Query("h1 = :p AND h2 = :n2 AND r1 = :a AND r2 < :n1 AND r3 = :x", MultiAttribute()));
  EXPECT_EQ("One or more parameter values were invalid: Condition parameter type does not match schema type",
            Query("h1 = :p AND h2 = :a", MultiAttribute()));
  // Single-attribute schemas keep their messages.
  EXPECT_EQ("Query condition missed key schema element: pk", Query("zz = :a", HashRange()));
}

}  // namespace
}  // namespace dynapage
