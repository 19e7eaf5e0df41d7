#include "engine/transfer/export_lines.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

AttributeMap SampleItem() {
  AttributeMap item;
  item["pk"] = AttributeValue::String("user \"1\"\n");
  item["n"] = AttributeValue::Number("103");
  item["d"] = AttributeValue::Number("-0.25");
  item["bin"] = AttributeValue::Binary("bar");
  item["ok"] = AttributeValue::Bool(false);
  item["none"] = AttributeValue::Null();
  item["ss"] = AttributeValue::Set(AttrType::kSS, {"A", "B"});
  item["ns"] = AttributeValue::Set(AttrType::kNS, {"1", "2.5"});
  item["bs"] = AttributeValue::Set(AttrType::kBS, {"\x01"});
  AttributeMap inner;
  inner["l"] = AttributeValue::List({AttributeValue::Number("7"), AttributeValue::String("x")});
  item["m"] = AttributeValue::Map(inner);
  return item;
}

TEST(ExportLinesTest, DynamoDbJsonLineIsTheWireItemUnderItem) {
  std::string line;
  AppendExportLine(ExportFormat::kDynamoDbJson, SampleItem(), &line);
  EXPECT_EQ(
      line,
      "{\"Item\":{\"bin\":{\"B\":\"YmFy\"},\"bs\":{\"BS\":[\"AQ==\"]},\"d\":{\"N\":\"-0.25\"},"
      "\"m\":{\"M\":{\"l\":{\"L\":[{\"N\":\"7\"},{\"S\":\"x\"}]}}},\"n\":{\"N\":\"103\"},\"none\":{\"NULL\":true},"
      "\"ns\":{\"NS\":[\"1\",\"2.5\"]},\"ok\":{\"BOOL\":false},\"pk\":{\"S\":\"user \\\"1\\\"\\n\"},"
      "\"ss\":{\"SS\":[\"A\",\"B\"]}}}\n");
}

TEST(ExportLinesTest, IonLineMapsEachTypeAsDynamoDbExportsDo) {
  std::string line;
  AppendExportLine(ExportFormat::kIon, SampleItem(), &line);
  EXPECT_EQ(line,
            "$ion_1_0 {Item:{\"bin\":{{YmFy}},\"bs\":$dynamodb_BS::[{{AQ==}}],\"d\":-0.25,"
            "\"m\":{\"l\":[7.,\"x\"]},\"n\":103.,\"none\":null,\"ns\":$dynamodb_NS::[1.,2.5],\"ok\":false,"
            "\"pk\":\"user \\\"1\\\"\\x0a\",\"ss\":$dynamodb_SS::[\"A\",\"B\"]}}\n");
}

}  // namespace
}  // namespace dynapage
