#include "engine/transfer/ion_reader.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tests/unit/transfer/item_outcomes.h"

#include "engine/base/messages.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/number.h"
#include "engine/transfer/export_lines.h"

namespace dynapage {
namespace {

using Outcome = ItemOutcome;

std::vector<Outcome> Read(const std::string& text) {
  std::vector<Outcome> out;
  ReadIonItems(text, CollectOutcomes(&out));
  return out;
}

AttributeMap ReadOne(const std::string& text) {
  auto out = Read(text);
  EXPECT_EQ(out.size(), 1u) << text;
  if (out.empty()) return {};
  EXPECT_TRUE(out[0].ok) << out[0].message << " in " << text;
  return out[0].item;
}

TEST(IonReaderTest, ReadsEveryTypeAsDynamoDbsExportWritesIt) {
  AttributeMap item = ReadOne(
      "$ion_1_0 {Item:{Id:103.,PageCount:6d2,Price:-0.1e3,Small:1.50,Int:1_000,Hex:0x1f,Bin:-0b101,"
      "Title:\"t\",'quoted name':true,\"string name\":false,bin:{{ YmFy }},none:null,typed:null.string,"
      "Authors:$dynamodb_SS::[\"A\",\"B\"],nums:$dynamodb_NS::[1.,2.5],bins:$dynamodb_BS::[{{AQ==}}],"
      "list:[1.,\"x\",[]],map:{inner:{}},other:annotated::\"kept\"}}");
  EXPECT_EQ(item.at("Id"), AttributeValue::Number("103"));
  EXPECT_EQ(item.at("PageCount"), AttributeValue::Number("600"));
  EXPECT_EQ(item.at("Price"), AttributeValue::Number("-100"));
  EXPECT_EQ(item.at("Small"), AttributeValue::Number("1.5"));
  EXPECT_EQ(item.at("Int"), AttributeValue::Number("1000"));
  EXPECT_EQ(item.at("Hex"), AttributeValue::Number("31"));
  EXPECT_EQ(item.at("Bin"), AttributeValue::Number("-5"));
  EXPECT_EQ(item.at("Title"), AttributeValue::String("t"));
  EXPECT_EQ(item.at("quoted name"), AttributeValue::Bool(true));
  EXPECT_EQ(item.at("string name"), AttributeValue::Bool(false));
  EXPECT_EQ(item.at("bin"), AttributeValue::Binary("bar"));
  EXPECT_EQ(item.at("none"), AttributeValue::Null());
  EXPECT_EQ(item.at("typed"), AttributeValue::Null());
  EXPECT_EQ(item.at("Authors"), AttributeValue::Set(AttrType::kSS, {"A", "B"}));
  EXPECT_EQ(item.at("nums"), AttributeValue::Set(AttrType::kNS, {"1", "2.5"}));
  EXPECT_EQ(item.at("bins"), AttributeValue::Set(AttrType::kBS, {"\x01"}));
  EXPECT_EQ(item.at("list"),
            AttributeValue::List({AttributeValue::Number("1"), AttributeValue::String("x"), AttributeValue::List({})}));
  AttributeMap inner;
  inner["inner"] = AttributeValue::Map({});
  EXPECT_EQ(item.at("map"), AttributeValue::Map(inner));
  EXPECT_EQ(item.at("other"), AttributeValue::String("kept"));  // annotations other than $dynamodb_ are ignored
}

TEST(IonReaderTest, ReadsEscapesLongStringsAndComments) {
  AttributeMap item = ReadOne(
      "/* block */ {Item:{a:\"q\\\"b\\\\s\\n\\t\\x41\\u00e9\\U0001F600\\ud83d\\ude00\\/\\0\", // line\n"
      "long:'''one ''' /* between */ '''two\nthree''', cont:\"x\\\ny\"}}");
  EXPECT_EQ(item.at("a").scalar, std::string("q\"b\\s\n\tA\xc3\xa9\xf0\x9f\x98\x80\xf0\x9f\x98\x80/\0", 20));
  EXPECT_EQ(item.at("long").scalar, "one two\nthree");
  EXPECT_EQ(item.at("cont").scalar, "xy");
}

TEST(IonReaderTest, CountsItemsPerLineAndSkipsTheVersionMarker) {
  auto out = Read("$ion_1_0 {Item:{a:1.}}\n$ion_1_0 {Item:{a:2.}}\n\n{Item:{a:3.}} {Item:{a:4.}}\n");
  ASSERT_EQ(out.size(), 4u);
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_TRUE(out[i].ok);
    EXPECT_EQ(out[i].index, i);
    EXPECT_EQ(out[i].item.at("a").scalar, std::to_string(i + 1));
  }
}

TEST(IonReaderTest, ValuesThatAreNoDynamoDbItemAreErrorsForThatItemOnly) {
  auto out = Read(
      "{NotItem:{a:1.}}\n"
      "\"just a string\"\n"
      "{Item:{a:2020-01-01T00:00Z}}\n"
      "{Item:{a:sym}}\n"
      "{Item:{a:+inf}}\n"
      "{Item:{a:$dynamodb_SS::[\"x\",1.]}}\n"
      "{Item:{a:$dynamodb_SS::\"x\"}}\n"
      "{Item:{a:$dynamodb_NS::[]}}\n"
      "{Item:{a:1e400}}\n"
      "{Item:{b:{{AQ=}}}}\n"
      "{Item:{a:\"fine\"}}\n");
  ASSERT_EQ(out.size(), 11u);
  for (size_t i = 0; i + 1 < out.size(); ++i) EXPECT_FALSE(out[i].ok) << i;
  EXPECT_NE(out[0].message.find("without an Item"), std::string::npos) << out[0].message;
  EXPECT_NE(out[2].message.find("timestamp"), std::string::npos) << out[2].message;
  EXPECT_NE(out[3].message.find("symbol sym"), std::string::npos) << out[3].message;
  EXPECT_NE(out[5].message.find("another type"), std::string::npos) << out[5].message;
  EXPECT_NE(out[6].message.find("not a list"), std::string::npos) << out[6].message;
  EXPECT_NE(out[8].message.find("overflow"), std::string::npos) << out[8].message;
  EXPECT_TRUE(out[10].ok) << out[10].message;
  EXPECT_EQ(out[10].index, 10u);
}

TEST(IonReaderTest, UnparsableTextIsOneErrorAndTheRestIsSkipped) {
  for (const char* bad :
       {"{Item:{a:\"open}}\n{Item:{a:1.}}\n", "{Item:{a 1.}}\n{Item:{a:1.}}\n", "{Item:{a:1.]}\n{Item:{a:1.}}\n",
        "{Item:{a:(1 2)}}\n{Item:{a:1.}}\n", "{Item:{a:{{\"clob\"}}}}\n{Item:{a:1.}}\n", "/* open\n{Item:{a:1.}}\n",
        "{Item:{a:\"\\q\"}}\n{Item:{a:1.}}\n", "{Item:{a:1.}\n"}) {
    auto out = Read(std::string("{Item:{ok:1.}}\n") + bad);
    ASSERT_EQ(out.size(), 2u) << bad;
    EXPECT_TRUE(out[0].ok);
    EXPECT_FALSE(out[1].ok) << bad;
    EXPECT_EQ(out[1].message.rfind("Unexpected data: ", 0), 0u) << out[1].message;
  }
}

TEST(IonReaderTest, DeepNestingIsRefusedWithoutRecursionAndReadingGoesOn) {
  // Refused exactly where the DYNAMODB_JSON reader refuses the same item (DecodeAttributeMap's limit).
  for (int depth = kMaxNestingDepth - 4; depth <= kMaxNestingDepth + 6; ++depth) {
    std::string ion = "{Item:{a:" + std::string(depth, '[') + std::string(depth, ']') + "}}";
    std::string json = "{\"Item\":{\"a\":";
    for (int i = 0; i < depth; ++i) json += "{\"L\":[";
    json += "{\"NULL\":true}";
    for (int i = 0; i < depth; ++i) json += "]}";
    json += "}}";
    Status json_status;
    ReadDynamoDbJsonItems(json, [&](size_t, const Status& s, AttributeMap*) { json_status = s; });
    auto out = Read(ion.insert(ion.size() - 2 - depth, "null"));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].ok, json_status.ok()) << depth;
    if (!out[0].ok) {
      EXPECT_EQ(out[0].message, kNestingTooDeep) << depth;
    }
  }
  // A million levels: refused at the limit (a recursive reader would overflow its stack), the next line read.
  std::string deep = "{Item:{a:" + std::string(1000000, '[') + "\n{Item:{a:\"after\"}}\n";
  auto out = Read(deep);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].message, kNestingTooDeep);
  EXPECT_TRUE(out[1].ok);
  EXPECT_EQ(out[1].item.at("a").scalar, "after");
}

// Random items of every type, nested, with names and strings that need quoting and escapes.
AttributeValue RandomValue(std::mt19937& rng, int depth);

std::string RandomText(std::mt19937& rng) {
  static const std::vector<std::string> kPieces = {"a", "Z", " ", "\"", "\\", "\n", "\t", "\x01",     "\x7f",
                                                   "'", "é", "😀", "{",  "}",  "::", ",",  "$ion_1_0", "''"};
  std::string text;
  int n = static_cast<int>(rng() % 6);
  for (int i = 0; i < n; ++i) text += kPieces[rng() % kPieces.size()];
  return text;
}

std::string RandomNumber(std::mt19937& rng) {
  static const std::vector<std::string> kNumbers = {
      "0", "7", "-1", "103", "2.5", "-0.001", "12345678901234567890", "1E+10", "-9.99e-20", "0.1"};
  std::string canonical;
  EXPECT_TRUE(Decimal::Canonicalize(kNumbers[rng() % kNumbers.size()], &canonical).ok());
  return canonical;
}

AttributeValue RandomValue(std::mt19937& rng, int depth) {
  int kind = static_cast<int>(rng() % (depth < 6 ? 10 : 8));
  switch (kind) {
    case 0:
      return AttributeValue::String(RandomText(rng));
    case 1:
      return AttributeValue::Number(RandomNumber(rng));
    case 2:
      return AttributeValue::Binary(RandomText(rng));
    case 3:
      return AttributeValue::Bool(rng() % 2 == 0);
    case 4:
      return AttributeValue::Null();
    case 5:
      return AttributeValue::Set(AttrType::kSS, {"x" + RandomText(rng), "y" + RandomText(rng)});
    case 6:
      return AttributeValue::Set(AttrType::kNS, {"1", RandomNumber(rng) == "1" ? "2" : "1.5"});
    case 7:
      return AttributeValue::Set(AttrType::kBS, {std::string("\x00\xff", 2), "b" + RandomText(rng)});
    case 8: {
      std::vector<AttributeValue> list;
      int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) list.push_back(RandomValue(rng, depth + 1));
      return AttributeValue::List(std::move(list));
    }
    default: {
      AttributeMap map;
      int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) map["m" + RandomText(rng)] = RandomValue(rng, depth + 1);
      return AttributeValue::Map(std::move(map));
    }
  }
}

TEST(IonReaderTest, EveryItemTheExportWritesReadsBackTheSame) {
  std::mt19937 rng(30);
  std::string object;
  std::vector<AttributeMap> items;
  for (int i = 0; i < 2000; ++i) {
    AttributeMap item;
    item["pk"] = AttributeValue::String("k" + std::to_string(i) + RandomText(rng));
    int n = static_cast<int>(rng() % 8);
    for (int j = 0; j < n; ++j) item[RandomText(rng) + "n" + std::to_string(j)] = RandomValue(rng, 1);
    AppendExportLine(ExportFormat::kIon, item, &object);
    items.push_back(std::move(item));
  }
  auto out = Read(object);
  ASSERT_EQ(out.size(), items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    ASSERT_TRUE(out[i].ok) << out[i].message;
    ASSERT_EQ(out[i].item, items[i]) << "item " << i;
  }
}

}  // namespace
}  // namespace dynapage
