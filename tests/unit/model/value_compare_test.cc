#include "engine/model/value_compare.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dynapage {
namespace {

AttributeValue N(const std::string& s) { return AttributeValue::Number(s); }
AttributeValue S(const std::string& s) { return AttributeValue::String(s); }
AttributeValue B(const std::string& s) { return AttributeValue::Binary(s); }

TEST(ValueCompareTest, CanonicalNumbersCompareNumerically) {
  // Ascending.
  std::vector<std::string> sorted = {"-1000", "-100.5", "-100", "-2", "-1.5", "-1", "-0.5", "-0.05", "-0.001", "0",
                                     "0.001", "0.05", "0.5", "0.51", "1", "1.5", "2", "9.99", "10", "100", "1000"};
  for (size_t i = 0; i < sorted.size(); i++) {
    for (size_t j = 0; j < sorted.size(); j++) {
      int c = CompareNumbers(sorted[i], sorted[j]);
      int want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(want, c) << sorted[i] << " vs " << sorted[j];
    }
  }
}

TEST(ValueCompareTest, NonCanonicalNumbersFallBackToDecimal) {
  EXPECT_EQ(0, CompareNumbers("1e3", "1000"));
  EXPECT_EQ(0, CompareNumbers("1.0", "1"));
  EXPECT_EQ(0, CompareNumbers("-0", "0"));
  EXPECT_LT(CompareNumbers(".5", "1"), 0);
  EXPECT_GT(CompareNumbers("2E1", "19.5"), 0);
  EXPECT_EQ(0, CompareNumbers("junk", "1"));  // unreachable for stored values
}

TEST(ValueCompareTest, StringsAndBinaryCompareAsUnsignedBytes) {
  // DynamoDB's documented order: 1, 10, 2, A, B, a, aa, ab, b.
  std::vector<std::string> sorted = {"1", "10", "2", "A", "B", "a", "aa", "ab", "b", "\xC3\xA9", "\xEF\xBF\xBF"};
  for (size_t i = 0; i + 1 < sorted.size(); i++) {
    EXPECT_LT(CompareOrdered(S(sorted[i]), S(sorted[i + 1])), 0) << sorted[i];
    EXPECT_GT(CompareOrdered(S(sorted[i + 1]), S(sorted[i])), 0) << sorted[i];
  }
  EXPECT_EQ(0, CompareOrdered(S("abc"), S("abc")));
  EXPECT_EQ(0, CompareOrdered(S(""), S("")));
  EXPECT_LT(CompareOrdered(S(""), S("a")), 0);
  // Byte 0x00 first, 0x80 after 0x7f (unsigned).
  EXPECT_LT(CompareOrdered(B(std::string("\x00", 1)), B("\x7f")), 0);
  EXPECT_LT(CompareOrdered(B("\x7f"), B("\x80")), 0);
  EXPECT_LT(CompareOrdered(B("\x80"), B("\xff")), 0);
  EXPECT_LT(CompareOrdered(N("9"), N("10")), 0);  // numbers by value, not text
}

TEST(ValueCompareTest, EqualityOfScalars) {
  EXPECT_TRUE(ValuesEqual(S("a"), S("a")));
  EXPECT_FALSE(ValuesEqual(S("a"), S("b")));
  EXPECT_FALSE(ValuesEqual(S("1"), N("1")));
  EXPECT_TRUE(ValuesEqual(N("1.5"), N("1.5")));
  EXPECT_FALSE(ValuesEqual(N("1.5"), N("1.25")));
  EXPECT_FALSE(ValuesEqual(B("a"), S("a")));
  EXPECT_TRUE(ValuesEqual(AttributeValue::Bool(true), AttributeValue::Bool(true)));
  EXPECT_FALSE(ValuesEqual(AttributeValue::Bool(true), AttributeValue::Bool(false)));
  EXPECT_TRUE(ValuesEqual(AttributeValue::Null(), AttributeValue::Null()));
  EXPECT_FALSE(ValuesEqual(AttributeValue::Null(), AttributeValue::Bool(true)));
}

TEST(ValueCompareTest, SetsCompareAsSets) {
  EXPECT_TRUE(ValuesEqual(AttributeValue::Set(AttrType::kSS, {"a", "b", "c"}),
                          AttributeValue::Set(AttrType::kSS, {"c", "a", "b"})));
  EXPECT_FALSE(ValuesEqual(AttributeValue::Set(AttrType::kSS, {"a", "b"}),
                           AttributeValue::Set(AttrType::kSS, {"a", "b", "c"})));
  EXPECT_FALSE(ValuesEqual(AttributeValue::Set(AttrType::kSS, {"a", "b"}),
                           AttributeValue::Set(AttrType::kSS, {"a", "c"})));
  EXPECT_FALSE(ValuesEqual(AttributeValue::Set(AttrType::kSS, {"1"}), AttributeValue::Set(AttrType::kNS, {"1"})));
  EXPECT_TRUE(ValuesEqual(AttributeValue::Set(AttrType::kNS, {"1", "2.5"}),
                          AttributeValue::Set(AttrType::kNS, {"2.5", "1"})));
  // Large sets take the sorting path.
  std::vector<std::string> a, b;
  for (int i = 0; i < 200; i++) {
    a.push_back(std::to_string(i));
    b.push_back(std::to_string(199 - i));
  }
  EXPECT_TRUE(ValuesEqual(AttributeValue::Set(AttrType::kBS, a), AttributeValue::Set(AttrType::kBS, b)));
  b[0] = "x";
  EXPECT_FALSE(ValuesEqual(AttributeValue::Set(AttrType::kBS, a), AttributeValue::Set(AttrType::kBS, b)));
}

TEST(ValueCompareTest, ListsAndMapsCompareDeeply) {
  AttributeValue l1 = AttributeValue::List({S("a"), AttributeValue::Set(AttrType::kSS, {"x", "y"})});
  AttributeValue l2 = AttributeValue::List({S("a"), AttributeValue::Set(AttrType::kSS, {"y", "x"})});
  AttributeValue l3 = AttributeValue::List({AttributeValue::Set(AttrType::kSS, {"y", "x"}), S("a")});
  EXPECT_TRUE(ValuesEqual(l1, l2));
  EXPECT_FALSE(ValuesEqual(l1, l3));  // order matters in a list
  EXPECT_FALSE(ValuesEqual(l1, AttributeValue::List({S("a")})));
  AttributeValue m1 = AttributeValue::Map({{"k", l1}, {"n", N("1")}});
  AttributeValue m2 = AttributeValue::Map({{"n", N("1")}, {"k", l2}});
  EXPECT_TRUE(ValuesEqual(m1, m2));
  EXPECT_FALSE(ValuesEqual(m1, AttributeValue::Map({{"k", l1}, {"m", N("1")}})));
  EXPECT_FALSE(ValuesEqual(m1, AttributeValue::Map({{"k", l1}})));
  EXPECT_FALSE(ValuesEqual(m1, l1));
}

TEST(ValueCompareTest, OrderedTypesAndPrefixes) {
  EXPECT_TRUE(IsOrderedType(AttrType::kS));
  EXPECT_TRUE(IsOrderedType(AttrType::kN));
  EXPECT_TRUE(IsOrderedType(AttrType::kB));
  for (AttrType t : {AttrType::kBool, AttrType::kNull, AttrType::kL, AttrType::kM, AttrType::kSS, AttrType::kNS,
                     AttrType::kBS}) {
    EXPECT_FALSE(IsOrderedType(t));
  }
  EXPECT_TRUE(StartsWith("abc", "ab"));
  EXPECT_TRUE(StartsWith("abc", ""));
  EXPECT_TRUE(StartsWith("abc", "abc"));
  EXPECT_FALSE(StartsWith("abc", "abcd"));
  EXPECT_FALSE(StartsWith("abc", "b"));
}

}  // namespace
}  // namespace dynapage
