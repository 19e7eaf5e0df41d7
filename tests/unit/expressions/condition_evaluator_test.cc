#include "engine/expressions/condition_evaluator.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/expressions/expression_parser.h"

namespace dynapage {
namespace {

AttributeValue S(const std::string& s) { return AttributeValue::String(s); }
AttributeValue N(const std::string& s) { return AttributeValue::Number(s); }
AttributeValue B(const std::string& s) { return AttributeValue::Binary(s); }

class ConditionEvaluatorTest : public ::testing::Test {
 protected:
  ConditionEvaluatorTest() {
    AttributeMap inner = {{"c", S("deep")}, {"n", N("5")}};
    item_ = {
        {"s", S("hello")},
        {"n", N("10")},
        {"neg", N("-2.5")},
        {"b", B(std::string("\x01\x02\x03", 3))},
        {"t", AttributeValue::Bool(true)},
        {"nul", AttributeValue::Null()},
        {"ss", AttributeValue::Set(AttrType::kSS, {"x", "y"})},
        {"ns", AttributeValue::Set(AttrType::kNS, {"1", "2.5"})},
        {"bs", AttributeValue::Set(AttrType::kBS, {std::string("\xff", 1)})},
        {"l", AttributeValue::List({S("a"), N("1"), AttributeValue::Map(inner)})},
        {"m", AttributeValue::Map({{"k", AttributeValue::Map(inner)}, {"e", S("")}})},
        {"blank", S("")},
        {"s2", S("hello")},
    };
    values_ = {
        {":hello", S("hello")}, {":he", S("he")},       {":ell", S("ell")},         {":z", S("z")},
        {":a", S("a")},         {":x", S("x")},         {":empty", S("")},          {":n10", N("10")},
        {":n9", N("9")},        {":n100", N("100")},    {":n1", N("1")},            {":n2", N("2")},
        {":n3", N("3")},        {":n5", N("5")},        {":n0", N("0")},            {":n25", N("2.5")},
        {":nneg", N("-3")},     {":b12", B(std::string("\x01\x02", 2))},
        {":b2", B(std::string("\x02", 1))},
        {":b123", B(std::string("\x01\x02\x03", 3))},             {":bff", B(std::string("\xff", 1))},
        {":true", AttributeValue::Bool(true)},          {":false", AttributeValue::Bool(false)},
        {":null", AttributeValue::Null()},              {":ssyx", AttributeValue::Set(AttrType::kSS, {"y", "x"})},
        {":ssx", AttributeValue::Set(AttrType::kSS, {"x"})},
        {":tS", S("S")},        {":tN", S("N")},        {":tB", S("B")},            {":tBOOL", S("BOOL")},
        {":tNULL", S("NULL")},  {":tSS", S("SS")},      {":tNS", S("NS")},          {":tBS", S("BS")},
        {":tL", S("L")},        {":tM", S("M")},        {":deep", S("deep")},
        {":inner", AttributeValue::Map({{"c", S("deep")}, {"n", N("5")}})},
        {":list", AttributeValue::List({S("a"), N("1"), AttributeValue::Map({{"n", N("5")}, {"c", S("deep")}})})},
    };
  }

  bool Eval(const std::string& text) {
    ExpressionAttributes attrs(nullptr, &values_);
    std::unique_ptr<ConditionExpr> c;
    Status s = ParseCondition(text, "FilterExpression", &attrs, &c);
    EXPECT_TRUE(s.ok()) << text << ": " << s.message();
    if (!s.ok()) return false;
    return EvaluateCondition(*c, item_);
  }

  AttributeMap item_;
  ExpressionValueMap values_;
};

TEST_F(ConditionEvaluatorTest, EqualityOnEveryType) {
  EXPECT_TRUE(Eval("s = :hello"));
  EXPECT_FALSE(Eval("s = :he"));
  EXPECT_TRUE(Eval("n = :n10"));
  EXPECT_TRUE(Eval("b = :b123"));
  EXPECT_FALSE(Eval("b = :b12"));
  EXPECT_TRUE(Eval("t = :true"));
  EXPECT_FALSE(Eval("t = :false"));
  EXPECT_TRUE(Eval("nul = :null"));
  EXPECT_TRUE(Eval("ss = :ssyx"));  // sets compare as sets
  EXPECT_FALSE(Eval("ss = :ssx"));
  EXPECT_TRUE(Eval("l = :list"));   // deep, with map member order irrelevant
  EXPECT_TRUE(Eval("m.k = :inner"));
  EXPECT_TRUE(Eval("s = s2"));
}

TEST_F(ConditionEvaluatorTest, DifferentTypesAreUnequal) {
  EXPECT_FALSE(Eval("n = :hello"));
  EXPECT_TRUE(Eval("n <> :hello"));
  EXPECT_FALSE(Eval("s = :n10"));
  EXPECT_FALSE(Eval("t = :n1"));
  EXPECT_FALSE(Eval("nul = :false"));
  EXPECT_TRUE(Eval("nul <> :false"));
  EXPECT_FALSE(Eval("n < :hello"));
  EXPECT_FALSE(Eval("n > :hello"));
  EXPECT_FALSE(Eval("s >= :n1"));
  EXPECT_FALSE(Eval("n BETWEEN :a AND :z"));
}

TEST_F(ConditionEvaluatorTest, MissingAttributes) {
  EXPECT_FALSE(Eval("gone = :hello"));
  EXPECT_TRUE(Eval("gone <> :hello"));  // "not equal" holds for a gone attribute
  EXPECT_FALSE(Eval("gone < :hello"));
  EXPECT_FALSE(Eval("gone >= :hello"));
  EXPECT_FALSE(Eval("gone BETWEEN :a AND :z"));
  EXPECT_FALSE(Eval("gone IN (:hello, :a)"));
  EXPECT_FALSE(Eval("begins_with(gone, :a)"));
  EXPECT_FALSE(Eval("contains(gone, :a)"));
  EXPECT_TRUE(Eval("NOT contains(gone, :a)"));
  EXPECT_FALSE(Eval("gone = gone2"));
  EXPECT_TRUE(Eval("gone <> gone2"));
  EXPECT_FALSE(Eval("s = gone"));
  EXPECT_FALSE(Eval("s BETWEEN gone AND :z"));
  EXPECT_FALSE(Eval("attribute_type(gone, :tS)"));
}

TEST_F(ConditionEvaluatorTest, OrderingOnStringsNumbersBinary) {
  EXPECT_TRUE(Eval("s < :z"));
  EXPECT_FALSE(Eval("s > :z"));
  EXPECT_TRUE(Eval("s > :a"));
  EXPECT_TRUE(Eval("s <= :hello AND s >= :hello"));
  EXPECT_FALSE(Eval("s < :hello"));
  EXPECT_TRUE(Eval("s > :he"));  // a proper prefix sorts first
  EXPECT_TRUE(Eval("n > :n9"));  // numeric, not textual ("10" < "9" as text)
  EXPECT_TRUE(Eval("n < :n100"));
  EXPECT_TRUE(Eval("neg < :n0 AND neg > :nneg"));
  EXPECT_TRUE(Eval("b < :b2"));
  EXPECT_TRUE(Eval("b > :b12"));
  EXPECT_TRUE(Eval("bs <> :bff"));
  EXPECT_FALSE(Eval("t < t2"));
}

TEST_F(ConditionEvaluatorTest, Between) {
  EXPECT_TRUE(Eval("n BETWEEN :n9 AND :n100"));
  EXPECT_TRUE(Eval("n BETWEEN :n10 AND :n10"));
  EXPECT_FALSE(Eval("n BETWEEN :n1 AND :n9"));
  EXPECT_TRUE(Eval("s BETWEEN :a AND :z"));
  EXPECT_FALSE(Eval("s BETWEEN :x AND :z"));
  EXPECT_TRUE(Eval("b BETWEEN :b12 AND :b2"));
  // Bounds from the item, in the wrong order: no error, just false.
  item_["hi"] = N("1");
  EXPECT_FALSE(Eval("n BETWEEN :n100 AND hi"));
  item_["hi"] = N("50");
  EXPECT_TRUE(Eval("n BETWEEN :n1 AND hi"));
}

TEST_F(ConditionEvaluatorTest, In) {
  EXPECT_TRUE(Eval("s IN (:a, :hello)"));
  EXPECT_FALSE(Eval("s IN (:a, :z)"));
  EXPECT_TRUE(Eval("n IN (:hello, :n10)"));
  EXPECT_TRUE(Eval("ss IN (:ssx, :ssyx)"));
  EXPECT_TRUE(Eval("s IN (gone, s2)"));
}

TEST_F(ConditionEvaluatorTest, AttributeExistsAndType) {
  EXPECT_TRUE(Eval("attribute_exists(s)"));
  EXPECT_TRUE(Eval("attribute_exists(nul)"));
  EXPECT_FALSE(Eval("attribute_exists(gone)"));
  EXPECT_TRUE(Eval("attribute_not_exists(gone)"));
  EXPECT_FALSE(Eval("attribute_not_exists(s)"));
  EXPECT_TRUE(Eval("attribute_exists(m.k.c) AND attribute_not_exists(m.k.x)"));
  EXPECT_TRUE(Eval("attribute_exists(l[2].n) AND attribute_not_exists(l[3])"));
  EXPECT_TRUE(Eval("attribute_type(s, :tS) AND attribute_type(n, :tN) AND attribute_type(b, :tB)"));
  EXPECT_TRUE(Eval("attribute_type(t, :tBOOL) AND attribute_type(nul, :tNULL) AND attribute_type(l, :tL)"));
  EXPECT_TRUE(Eval("attribute_type(m, :tM) AND attribute_type(ss, :tSS) AND attribute_type(ns, :tNS)"));
  EXPECT_TRUE(Eval("attribute_type(bs, :tBS)"));
  EXPECT_FALSE(Eval("attribute_type(s, :tN)"));
  EXPECT_FALSE(Eval("attribute_type(ss, :tS)"));
}

TEST_F(ConditionEvaluatorTest, BeginsWith) {
  EXPECT_TRUE(Eval("begins_with(s, :he)"));
  EXPECT_TRUE(Eval("begins_with(s, :hello)"));
  EXPECT_TRUE(Eval("begins_with(s, :empty)"));
  EXPECT_FALSE(Eval("begins_with(s, :ell)"));
  EXPECT_TRUE(Eval("begins_with(b, :b12)"));
  EXPECT_FALSE(Eval("begins_with(b, :b2)"));
  EXPECT_FALSE(Eval("begins_with(ss, :x)"));  // sets are not strings
  EXPECT_FALSE(Eval("begins_with(b, :he)"));  // B and S do not mix
  EXPECT_FALSE(Eval("begins_with(l, :a)"));
}

TEST_F(ConditionEvaluatorTest, Contains) {
  EXPECT_TRUE(Eval("contains(s, :ell)"));
  EXPECT_TRUE(Eval("contains(s, :empty)"));
  EXPECT_FALSE(Eval("contains(s, :z)"));
  EXPECT_TRUE(Eval("contains(b, :b2)"));  // byte subsequence
  EXPECT_FALSE(Eval("contains(b, :bff)"));
  EXPECT_TRUE(Eval("contains(ss, :x)"));
  EXPECT_FALSE(Eval("contains(ss, :z)"));
  EXPECT_TRUE(Eval("contains(ns, :n25)"));
  EXPECT_FALSE(Eval("contains(ns, :n2)"));
  EXPECT_FALSE(Eval("contains(ns, :x)"));  // wrong element type
  EXPECT_TRUE(Eval("contains(bs, :bff)"));
  EXPECT_TRUE(Eval("contains(l, :a)"));
  EXPECT_TRUE(Eval("contains(l, :n1)"));
  EXPECT_TRUE(Eval("contains(l, :inner)"));  // deep equality of an element
  EXPECT_FALSE(Eval("contains(l, :z)"));
  EXPECT_FALSE(Eval("contains(m, :deep)"));  // maps are not searched
  EXPECT_FALSE(Eval("contains(n, :n1)"));
  EXPECT_FALSE(Eval("contains(s, :n1)"));
  EXPECT_TRUE(Eval("contains(s, s2)"));  // both operands from the item
}

TEST_F(ConditionEvaluatorTest, Size) {
  EXPECT_TRUE(Eval("size(s) = :n5"));                       // bytes of a string
  EXPECT_TRUE(Eval("size(blank) = :n0"));
  EXPECT_TRUE(Eval("size(b) = :n3"));                       // bytes of a binary
  EXPECT_TRUE(Eval("size(ss) = :n2 AND size(ns) = :n2"));   // set elements
  EXPECT_TRUE(Eval("size(bs) = :n1"));
  EXPECT_TRUE(Eval("size(l) = :n3"));                       // list elements
  EXPECT_TRUE(Eval("size(m) = :n2 AND size(m.k) = :n2"));   // map members
  EXPECT_TRUE(Eval("size(s) > :n2 AND size(s) < :n10"));
  EXPECT_TRUE(Eval("size(s) BETWEEN :n1 AND :n9"));
  EXPECT_TRUE(Eval("size(s) IN (:n1, :n5)"));
  EXPECT_TRUE(Eval("size(s) = size(s2)"));
  EXPECT_TRUE(Eval("size(:hello) = :n5"));
  // No size for N, BOOL, NULL or a gone attribute: every comparison is false, "<>" included.
  for (const char* a : {"n", "t", "nul", "gone"}) {
    std::string p = std::string("size(") + a + ")";
    EXPECT_FALSE(Eval(p + " = :n1")) << a;
    EXPECT_FALSE(Eval(p + " <> :n1")) << a;
    EXPECT_FALSE(Eval(p + " > :n0")) << a;
    EXPECT_FALSE(Eval(p + " BETWEEN :n0 AND :n100")) << a;
    EXPECT_FALSE(Eval(p + " IN (:n0, :n1, :n2)")) << a;
    EXPECT_TRUE(Eval("NOT " + p + " = :n1")) << a;
  }
  // A multi-byte character counts its UTF-8 bytes.
  item_["u"] = S("\xC3\xA9");
  EXPECT_TRUE(Eval("size(u) = :n2"));
}

TEST_F(ConditionEvaluatorTest, NestedPaths) {
  EXPECT_TRUE(Eval("m.k.c = :deep"));
  EXPECT_TRUE(Eval("l[2].c = :deep"));
  EXPECT_TRUE(Eval("l[0] = :a AND l[1] = :n1"));
  EXPECT_FALSE(Eval("l[3] = :a"));
  EXPECT_FALSE(Eval("m[0] = :a"));
  EXPECT_FALSE(Eval("l.a = :a"));
  EXPECT_FALSE(Eval("s.x = :a"));
  EXPECT_TRUE(Eval("m.k.n BETWEEN :n1 AND :n9"));
}

TEST_F(ConditionEvaluatorTest, LogicalOperators) {
  EXPECT_TRUE(Eval("s = :hello AND n = :n10"));
  EXPECT_FALSE(Eval("s = :hello AND n = :n9"));
  EXPECT_TRUE(Eval("s = :z OR n = :n10"));
  EXPECT_FALSE(Eval("s = :z OR n = :n9"));
  EXPECT_FALSE(Eval("NOT s = :hello"));
  EXPECT_TRUE(Eval("NOT NOT s = :hello"));
  // AND binds tighter than OR: true OR (false AND false).
  EXPECT_TRUE(Eval("s = :hello OR s = :z AND n = :n9"));
  EXPECT_FALSE(Eval("(s = :hello OR s = :z) AND n = :n9"));
  // NOT binds tighter than AND: (NOT false) AND true.
  EXPECT_TRUE(Eval("NOT s = :z AND n = :n10"));
  EXPECT_FALSE(Eval("NOT (s = :hello AND n = :n10)"));
}

TEST_F(ConditionEvaluatorTest, ConstantOnlyConditions) {
  EXPECT_TRUE(Eval(":a = :a"));
  EXPECT_FALSE(Eval(":a = :z"));
  EXPECT_TRUE(Eval(":a < :z"));
}

TEST_F(ConditionEvaluatorTest, TreeIsReusableAcrossItems) {
  ExpressionAttributes attrs(nullptr, &values_);
  std::unique_ptr<ConditionExpr> c;
  ASSERT_TRUE(ParseCondition("n > :n9", "FilterExpression", &attrs, &c).ok());
  AttributeMap small = {{"n", N("1")}};
  AttributeMap big = {{"n", N("99")}};
  EXPECT_FALSE(EvaluateCondition(*c, small));
  EXPECT_TRUE(EvaluateCondition(*c, big));
  EXPECT_FALSE(EvaluateCondition(*c, AttributeMap()));
}

}  // namespace
}  // namespace dynapage
