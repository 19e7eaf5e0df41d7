#include "engine/transfer/import_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/transfer/item_outcomes.h"

namespace dynapage {
namespace {

using Outcome = ItemOutcome;

std::vector<Outcome> Read(const std::string& text) {
  std::vector<Outcome> out;
  ReadDynamoDbJsonItems(text, CollectOutcomes(&out));
  return out;
}

TEST(ImportReaderTest, ReadsLinesAndConcatenatedObjects) {
  auto out = Read(
      "{\"Item\":{\"a\":{\"S\":\"1\"}}}{\"Item\":{\"a\":{\"N\":\"2.50\"}}}\n\n {\"Item\":{\"b\":{\"B\":\"YmFy\"}}}\n");
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].ok && out[1].ok && out[2].ok);
  EXPECT_EQ(out[0].item.at("a").scalar, "1");
  EXPECT_EQ(out[1].item.at("a").scalar, "2.5");  // canonical
  EXPECT_EQ(out[2].item.at("b").scalar, "bar");
  EXPECT_EQ(out[2].index, 2u);
}

TEST(ImportReaderTest, AnObjectWithoutItemIsAnErrorAndUnparsableTextEndsTheObject) {
  auto out =
      Read("{\"NotItem\":{}}\n{\"Item\":{\"a\":{\"S\":\"ok\"}}}\n{\"Item\": nope}\n{\"Item\":{\"a\":{\"S\":\"x\"}}}\n");
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FALSE(out[0].ok);
  EXPECT_TRUE(out[1].ok);
  EXPECT_FALSE(out[2].ok);
  EXPECT_EQ(out[2].index, 2u);
}

TEST(ImportReaderTest, DeepNestingIsRefusedWithoutRecursion) {
  std::string deep = "{\"Item\":{\"a\":";
  for (int i = 0; i < 200000; ++i) deep += "{\"L\":[";
  auto out = Read(deep);  // cut short: a parse error, reached iteratively
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].ok);
  std::string nested = "{\"Item\":{\"a\":";
  for (int i = 0; i < 40; ++i) nested += "{\"L\":[";
  nested += "{\"S\":\"x\"}";
  for (int i = 0; i < 40; ++i) nested += "]}";
  nested += "}}";
  out = Read(nested);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].ok);  // deeper than DynamoDB's 32 levels
}

}  // namespace
}  // namespace dynapage
