// WireItem: a flat item taken straight from request JSON must be exactly what DecodeAttributeMap would make of
// it (value, size, stored form), and every other item must be left to DecodeAttributeMap.

#include "engine/model/wire_item.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/model/attribute_value_json.h"
#include "engine/storage/stored_item.h"

namespace dynapage {
namespace {

// Parses text in place, as the server parses a request; the document's strings live in *buffer.
rapidjson::Document Parse(const std::string& text, std::string* buffer) {
  *buffer = text;
  rapidjson::Document doc;
  doc.ParseInsitu(&(*buffer)[0]);
  EXPECT_FALSE(doc.HasParseError()) << text;
  return doc;
}

std::string Written(const WireItem& item) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  item.Write(&writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// Checks that text is taken and agrees with DecodeAttributeMap in every respect.
void ExpectSameAsDecoded(const std::string& text) {
  SCOPED_TRACE(text);
  std::string buffer;
  rapidjson::Document doc = Parse(text, &buffer);
  WireItem wire;
  ASSERT_TRUE(WireItem::FromJson(doc, &wire));
  AttributeMap decoded;
  ASSERT_TRUE(DecodeAttributeMap(doc, &decoded).ok());
  EXPECT_EQ(decoded, wire.ToAttributeMap());
  EXPECT_EQ(ItemSize(decoded), wire.size());
  EXPECT_EQ(EncodeAttributeMap(decoded), Written(wire));
  StoredItemEncoder encoder;
  std::string from_wire(encoder.Encode(wire));
  EXPECT_EQ(EncodeStoredItem(decoded), from_wire);
  for (const auto& [name, value] : decoded) {
    AttributeValue found;
    ASSERT_TRUE(wire.Find(name, &found)) << name;
    EXPECT_EQ(value, found) << name;
    EXPECT_EQ(value.type, found.type) << name;
    EXPECT_EQ(value.boolean, found.boolean) << name;
  }
  AttributeValue absent;
  EXPECT_FALSE(wire.Find("no such attribute", &absent));
}

TEST(WireItem, FlatItemsAreStoredAsDecodeAttributeMapWouldStoreThem) {
  ExpectSameAsDecoded(R"({})");
  ExpectSameAsDecoded(R"({"pk":{"S":"p000001"},"sk":{"N":"17"},"bucket":{"N":"3"},"payload":{"S":"xxxx"}})");
  // Numbers in other forms than the canonical one; names out of order, escaped, non-ASCII; an empty value.
  ExpectSameAsDecoded(R"({"z":{"N":"1.50"},"a":{"N":"-0"},"m":{"N":"1e3"},"b":{"N":"00012.000"},"c":{"N":"-.5E-2"}})");
  ExpectSameAsDecoded(R"({"e":{"S":""},"\u00e9t\u00e9":{"S":"\u00fcber"},"q\"uote":{"S":"line\nbreak\ttab\\"}})");
  ExpectSameAsDecoded(R"({"yes":{"BOOL":true},"no":{"BOOL":false},"nothing":{"NULL":true}})");
  // An empty name, which DynamoDB refuses, is left to the full decoding and its checks.
  std::string buffer;
  rapidjson::Document empty_name = Parse(R"({"":{"S":"x"}})", &buffer);
  WireItem wire;
  EXPECT_FALSE(WireItem::FromJson(empty_name, &wire));
  // Names that compare by unsigned bytes: "\u00ff" sorts after "z", "A" before "a".
  ExpectSameAsDecoded(R"({"\u00ff":{"S":"1"},"z":{"S":"2"},"a":{"S":"3"},"A":{"S":"4"},"aa":{"S":"5"}})");
  // Names alike in their first 8 bytes (the sort compares those as one number first), a name that is another's
  // prefix, and names that differ only by a NUL byte.
  ExpectSameAsDecoded(
      R"({"customer_name":{"S":"1"},"customer_id":{"S":"2"},"customer":{"S":"3"},"customer_":{"S":"4"},)"
      R"("custom":{"S":"5"},"a\u0000":{"S":"6"},"a":{"S":"7"},"a\u0000\u0000b":{"S":"8"},"a\u0001":{"S":"9"}})");
}

TEST(WireItem, RandomFlatItemsAgreeWithDecodeAttributeMap) {
  std::mt19937 rng(20261122);
  const char* numbers[] = {"0", "1", "-1", "10", "1.0", "0.001", "1e10", "-3.25e-3", "123456789012345678901234567890",
                           "+7", "7.", ".7", "9.99E+99"};
  const char* strings[] = {"", "a", "abc", "\\u0000x", "\\\"q\\\"", "\\u00e9\\u4e2d", "\\ud83d\\ude00", "sp ace"};
  for (int round = 0; round < 500; round++) {
    std::string text = "{";
    int attributes = static_cast<int>(rng() % 20);  // held in the item itself up to 8, in an array beyond
    for (int i = 0; i < attributes; i++) {
      if (i) text += ",";
      text += "\"a" + std::to_string(rng() % 1000) + "_" + std::to_string(i) + "\":";
      switch (rng() % 4) {
        case 0: text += std::string("{\"S\":\"") + strings[rng() % 8] + "\"}"; break;
        case 1: text += std::string("{\"N\":\"") + numbers[rng() % 13] + "\"}"; break;
        case 2: text += rng() % 2 ? "{\"BOOL\":true}" : "{\"BOOL\":false}"; break;
        default: text += "{\"NULL\":true}"; break;
      }
    }
    ExpectSameAsDecoded(text + "}");
  }
}

// Every item outside the flat kind is refused, so that DecodeAttributeMap decides (and words any error).
TEST(WireItem, LeavesEverythingElseToDecodeAttributeMap) {
  const char* refused[] = {
      R"([])",                                         // not an object
      R"({"a":{"B":"AAEC"}})",                         // binary
      R"({"a":{"SS":["x"]}})",                         // sets
      R"({"a":{"NS":["1"]}})",
      R"({"a":{"L":[{"S":"x"}]}})",                    // documents
      R"({"a":{"M":{"b":{"S":"x"}}}})",
      R"({"a":null})",                                 // a null attribute (DecodeAttributeMap skips it)
      R"({"a":{"S":"x","N":"1"}})",                    // two types (an error)
      R"({"a":{"S":"x","Other":1}})",                  // a member DynamoDB ignores
      R"({"a":{}})",                                   // no type (an error)
      R"({"a":{"S":null}})",
      R"({"a":{"S":1}})",                              // JSON of the wrong type (SerializationException)
      R"({"a":{"N":1}})",
      R"({"a":{"BOOL":"true"}})",
      R"({"a":{"NULL":false}})",                       // NULL must be true
      R"({"a":{"N":"one"}})",                          // not a number
      R"({"a":{"N":"1e126"}})",                        // out of DynamoDB's range
      R"({"a":{"N":"12345678901234567890123456789012345678901"}})",  // 41 digits
      R"({"a":{"S":"x"},"a":{"S":"y"}})",              // a name twice (the last wins)
      R"({"customer_id":{"S":"x"},"customer_name":{"S":"z"},"customer_id":{"S":"y"}})",
      R"({"a":"x"})",
  };
  for (const char* text : refused) {
    std::string buffer;
    rapidjson::Document doc = Parse(text, &buffer);
    WireItem wire;
    EXPECT_FALSE(WireItem::FromJson(doc, &wire)) << text;
  }
}

// A WireItem reused for another item describes only the new one.
TEST(WireItem, ReusedForAnotherItem) {
  std::string first_buffer, second_buffer;
  rapidjson::Document first = Parse(R"({"a":{"S":"1"},"b":{"N":"2"}})", &first_buffer);
  rapidjson::Document second = Parse(R"({"c":{"BOOL":true}})", &second_buffer);
  WireItem wire;
  ASSERT_TRUE(WireItem::FromJson(first, &wire));
  ASSERT_TRUE(WireItem::FromJson(second, &wire));
  EXPECT_EQ((AttributeMap{{"c", AttributeValue::Bool(true)}}), wire.ToAttributeMap());
  EXPECT_EQ(2u, wire.size());
}

// Items of 8 attributes and fewer are held in the WireItem itself, larger ones in an array: one WireItem reused
// across the boundary both ways, and moved from either kind, describes each item whole.
TEST(WireItem, ItemsOnEitherSideOfTheInlineRoom) {
  auto item_of = [](int attributes) {
    std::string text = "{";
    for (int i = attributes; i > 0; i--) {  // out of order, so that the sort moves them
      if (i != attributes) text += ",";
      text += "\"a" + std::to_string(i) + "\":{\"N\":\"" + std::to_string(i * 10) + "\"}";
    }
    return text + "}";
  };
  WireItem wire;
  for (int attributes : {8, 9, 2, 20, 8, 0, 9}) {
    SCOPED_TRACE(attributes);
    std::string buffer;
    rapidjson::Document doc = Parse(item_of(attributes), &buffer);
    AttributeMap decoded;
    ASSERT_TRUE(DecodeAttributeMap(doc, &decoded).ok());
    ASSERT_TRUE(WireItem::FromJson(doc, &wire));
    EXPECT_EQ(decoded, wire.ToAttributeMap());
    EXPECT_EQ(EncodeAttributeMap(decoded), Written(wire));
    EXPECT_EQ(ItemSize(decoded), wire.size());
    WireItem moved = std::move(wire);
    EXPECT_EQ(decoded, moved.ToAttributeMap());
    AttributeValue last;
    EXPECT_EQ(attributes > 0, moved.Find("a" + std::to_string(attributes), &last));
    wire = std::move(moved);
  }
}

// Numbers whose canonical form differs from the request's text are kept by the item: they survive its moves,
// the end of the item moved from, and a vector of items growing.
TEST(WireItem, MovedItemKeepsItsCanonicalNumbers) {
  const std::string text = R"({"b":{"N":"00012.5000"},"a":{"N":"1.50"},"c":{"N":"7"},"d":{"S":"x"}})";
  std::string buffer;
  rapidjson::Document doc = Parse(text, &buffer);
  AttributeMap decoded;
  ASSERT_TRUE(DecodeAttributeMap(doc, &decoded).ok());
  std::vector<WireItem> items;
  for (int i = 0; i < 20; i++) {
    WireItem wire;
    ASSERT_TRUE(WireItem::FromJson(doc, &wire));
    items.push_back(std::move(wire));
    std::vector<std::string> reuse_freed_memory(8, std::string(32, 'z'));
  }
  WireItem moved = std::move(items[0]);
  items.erase(items.begin());
  for (const WireItem* wire : {&moved, &items.back()}) {
    EXPECT_EQ(decoded, wire->ToAttributeMap());
    EXPECT_EQ(EncodeAttributeMap(decoded), Written(*wire));
    AttributeValue a;
    ASSERT_TRUE(wire->Find("a", &a));
    EXPECT_EQ("1.5", a.scalar);
  }
}

}  // namespace
}  // namespace dynapage
