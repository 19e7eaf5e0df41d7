// Item size by DynamoDB's rules, to the byte (docs/behaviour.md §1.1-1.3), and AttributeValue equality.

#include "engine/model/attribute_value.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/model/number.h"

namespace dynapage {
namespace {

AttributeValue N(const std::string& text) {
  Decimal d;
  Status s = Decimal::Parse(text, &d);
  EXPECT_TRUE(s.ok()) << text << ": " << s.message();
  return AttributeValue::Number(d.ToString());
}

AttributeValue S(const std::string& s) { return AttributeValue::String(s); }

// §1.1: the ServiceQuotas example {"shirt-color":"R","shirt-size":"M"} is 23 bytes.
TEST(ItemSize, ServiceQuotasExampleIs23Bytes) {
  AttributeMap item = {{"shirt-color", S("R")}, {"shirt-size", S("M")}};
  EXPECT_EQ(23u, ItemSize(item));
}

TEST(ItemSize, NamesAndStringsCountUtf8Bytes) {
  EXPECT_EQ(0u, ItemSize({}));
  EXPECT_EQ(1u + 0u, ItemSize({{"a", S("")}}));
  // "ä" is 2 UTF-8 bytes (1 UTF-16 unit: dynalite's bug, docs/behaviour.md §1.3, must not be copied).
  EXPECT_EQ(2u + 8u, ItemSize({{"\xc3\xa4", S("\xc3\xa4\xc3\xa1\xc3\xb6\xc3\xbc")}}));
  // A 4-byte UTF-8 character (2 UTF-16 units).
  EXPECT_EQ(1u + 4u, ItemSize({{"e", S("\xf0\x9f\x98\x80")}}));
}

TEST(ItemSize, BinaryCountsDecodedBytes) {
  EXPECT_EQ(1u + 3u, ItemSize({{"b", AttributeValue::Binary(std::string("\x00\x01\xff", 3))}}));
}

TEST(ItemSize, BoolAndNullAreOneByte) {
  EXPECT_EQ(1u, ValueSize(AttributeValue::Bool(true)));
  EXPECT_EQ(1u, ValueSize(AttributeValue::Bool(false)));
  EXPECT_EQ(1u, ValueSize(AttributeValue::Null()));
  EXPECT_EQ(3u + 2u, ItemSize({{"ok", AttributeValue::Bool(false)}, {"z", AttributeValue::Null()}}));
}

// §1.2: size = 1 + ceil(d/2) + (d even && e even ? 1 : 0) + (negative ? 1 : 0); zero is 1.
TEST(ItemSize, NumbersBySpecFormula) {
  struct Case {
    const char* text;
    size_t size;
  } cases[] = {
      {"0", 1},
      {"-0.000", 1},
      {"1", 2},
      {"-1", 3},
      {"10", 2},
      {"100", 2},
      {"12", 2},           // d=2, e=1
      {"1.2", 3},          // d=2, e=0: both even
      {"12.3456", 4},      // §1.2 (DYN-T ConsumedCapacity item)
      {"-12.3456", 5},
      {"0.5", 2},
      {"0.05", 2},         // d=1, e=-2
      {"0.012345", 4},     // d=5, e=-2 -> 1+3
      {"1e125", 2},        // §1.2 DYN-T boundaries
      {"11e124", 2},
      {"11111e121", 4},
      {"111111e120", 4},
      {"1111111e119", 5},
      {"11111111111111111111111111111111111111e88", 20},  // 38 ones × 10^88
      {"-11111111111111111111111111111111111111", 21},
      {"1e-130", 2},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.size, ValueSize(N(c.text))) << c.text;
  }
  // As an attribute: the name's bytes are added.
  EXPECT_EQ(3u + 4u, ItemSize({{"num", N("12.3456")}}));
}

// §1.1: L and M are 3 bytes + Σ(1 + element size); a map element also counts its name. Empty L/M are 3.
TEST(ItemSize, ListAndMapOverhead) {
  EXPECT_EQ(3u, ValueSize(AttributeValue::List({})));
  EXPECT_EQ(3u, ValueSize(AttributeValue::Map({})));
  EXPECT_EQ(3u + (1 + 2) + (1 + 2), ValueSize(AttributeValue::List({S("ab"), N("1")})));
  EXPECT_EQ(3u + (1 + 1 + 1), ValueSize(AttributeValue::Map({{"k", S("v")}})));
  EXPECT_EQ(3u + (1 + 3 + 1) + (1 + 2 + 2), ValueSize(AttributeValue::Map({{"key", S("v")}, {"\xc3\xa4", N("5")}})));
  // Nested: M{a: L[BOOL, M{}]} = 3 + (1 + 1 + (3 + (1+1) + (1+3))) = 14
  AttributeValue nested = AttributeValue::Map(
      {{"a", AttributeValue::List({AttributeValue::Bool(true), AttributeValue::Map({})})}});
  EXPECT_EQ(14u, ValueSize(nested));
  EXPECT_EQ(4u + 14u, ItemSize({{"attr", nested}}));
}

// §1.1-1.2: sets are Σ element sizes with no per-element overhead (DYN-T: BS ["AQI=","Ag==","AQ=="] is 4 bytes).
TEST(ItemSize, SetsHaveNoPerElementOverhead) {
  EXPECT_EQ(4u, ValueSize(AttributeValue::Set(AttrType::kBS, {std::string("\x01\x02"), "\x02", "\x01"})));
  EXPECT_EQ(1u + 2u + 3u, ValueSize(AttributeValue::Set(AttrType::kSS, {"a", "bc", "def"})));
  EXPECT_EQ(2u + 2u + 4u, ValueSize(AttributeValue::Set(AttrType::kNS, {"1", "100", "12.3456"})));
  EXPECT_EQ(2u + 1u, ItemSize({{"ss", AttributeValue::Set(AttrType::kSS, {"x"})}}));
}

// DYN-T "ConsumedCapacity for small item": an item of exactly 1024 bytes containing N "12.3456" (4 bytes) and
// BS ["AQI=","Ag==","AQ=="] (4 bytes).
TEST(ItemSize, DynaliteConsumedCapacityItemIs1024Bytes) {
  AttributeMap item = {
      {"a", S("a")},
      {"b", N("12.3456")},
      {"c", AttributeValue::Set(AttrType::kBS, {std::string("\x01\x02"), "\x02", "\x01"})},
      {"d", S(std::string(1024 - (1 + 1) - (1 + 4) - (1 + 4) - 1, 'x'))},
  };
  EXPECT_EQ(1024u, ItemSize(item));
}

TEST(ItemSize, LimitIs400KiB) { EXPECT_EQ(409600u, kMaxItemSize); }

TEST(AttributeValueEquality, SetsCompareAsSetsNumbersByCanonicalText) {
  EXPECT_EQ(AttributeValue::Set(AttrType::kSS, {"a", "b"}), AttributeValue::Set(AttrType::kSS, {"b", "a"}));
  EXPECT_NE(AttributeValue::Set(AttrType::kSS, {"a", "b"}), AttributeValue::Set(AttrType::kSS, {"a", "c"}));
  EXPECT_NE(AttributeValue::Set(AttrType::kSS, {"a"}), AttributeValue::Set(AttrType::kBS, {"a"}));
  EXPECT_EQ(N("1e3"), N("1000"));
  EXPECT_NE(N("1"), S("1"));
  EXPECT_NE(AttributeValue::List({S("a"), S("b")}), AttributeValue::List({S("b"), S("a")}));
  EXPECT_EQ(AttributeValue::Map({{"x", N("1")}}), AttributeValue::Map({{"x", N("1.0")}}));
  EXPECT_NE(AttributeValue::Bool(true), AttributeValue::Bool(false));
}

TEST(AttrTypeNames, RoundTrip) {
  for (const char* name : {"S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"}) {
    AttrType t;
    ASSERT_TRUE(AttrTypeFromName(name, &t)) << name;
    EXPECT_STREQ(name, AttrTypeName(t));
  }
  AttrType t;
  EXPECT_FALSE(AttrTypeFromName("s", &t));
  EXPECT_FALSE(AttrTypeFromName("", &t));
  EXPECT_EQ(AttrType::kSS, SetElementType(AttrType::kS));
  EXPECT_EQ(AttrType::kN, SetElementType(AttrType::kNS));
}

}  // namespace
}  // namespace dynapage
