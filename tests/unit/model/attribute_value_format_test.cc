#include "engine/model/attribute_value_format.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

TEST(AttributeValueFormatTest, Scalars) {
  EXPECT_EQ("AttributeValue: {N:1}", FormatAttributeValue(AttributeValue::Number("1")));
  EXPECT_EQ("AttributeValue: {S:a}", FormatAttributeValue(AttributeValue::String("a")));
  EXPECT_EQ("AttributeValue: {B:AQI=}", FormatAttributeValue(AttributeValue::Binary(std::string("\x01\x02", 2))));
  EXPECT_EQ("{BOOL:true}", FormatValueBody(AttributeValue::Bool(true)));
  EXPECT_EQ("{BOOL:false}", FormatValueBody(AttributeValue::Bool(false)));
  EXPECT_EQ("{NULL:true}", FormatValueBody(AttributeValue::Null()));
  EXPECT_EQ("{S:}", FormatValueBody(AttributeValue::String("")));
}

TEST(AttributeValueFormatTest, Collections) {
  EXPECT_EQ("{SS:[a, b]}", FormatValueBody(AttributeValue::Set(AttrType::kSS, {"a", "b"})));
  EXPECT_EQ("{NS:[1, 2.5]}", FormatValueBody(AttributeValue::Set(AttrType::kNS, {"1", "2.5"})));
  EXPECT_EQ("{BS:[AQ==]}", FormatValueBody(AttributeValue::Set(AttrType::kBS, {std::string("\x01", 1)})));
  EXPECT_EQ("{L:[{S:a}, {N:1}]}",
            FormatValueBody(AttributeValue::List({AttributeValue::String("a"), AttributeValue::Number("1")})));
  EXPECT_EQ(
      "{M:{a={S:b}, c={L:[]}}}",
      FormatValueBody(AttributeValue::Map({{"a", AttributeValue::String("b")}, {"c", AttributeValue::List({})}})));
}

}  // namespace
}  // namespace dynapage
