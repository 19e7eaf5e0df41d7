#include "engine/transfer/csv_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/transfer/item_outcomes.h"

namespace dynapage {
namespace {

using Outcome = ItemOutcome;

std::vector<Outcome> Read(const CsvOptions& options, const std::string& text) {
  std::vector<Outcome> out;
  ReadCsvItems(options, text, CollectOutcomes(&out));
  return out;
}

CsvOptions Keys() {
  CsvOptions options;
  options.key_types = {{"pk", AttrType::kS}, {"n", AttrType::kN}, {"bin", AttrType::kB}};
  return options;
}

TEST(CsvReaderTest, TypesKeyColumnsFromTheDefinitionsAndEveryOtherColumnAsS) {
  auto out = Read(Keys(), "pk,n,bin,other,Pk\nu1,1.50,YmFy,42,x\n");
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].ok) << out[0].message;
  const AttributeMap& item = out[0].item;
  EXPECT_EQ(item.at("pk").type, AttrType::kS);
  EXPECT_EQ(item.at("n").type, AttrType::kN);
  EXPECT_EQ(item.at("n").scalar, "1.5");
  EXPECT_EQ(item.at("bin").type, AttrType::kB);
  EXPECT_EQ(item.at("bin").scalar, "bar");
  EXPECT_EQ(item.at("other").type, AttrType::kS);  // a number, but not a key column: S
  EXPECT_EQ(item.at("other").scalar, "42");
  EXPECT_EQ(item.at("Pk").type, AttrType::kS);  // header names are case-sensitive
}

TEST(CsvReaderTest, QuotedCellsHoldDelimitersLineBreaksAndDoubledQuotes) {
  auto out = Read(Keys(), "pk,text\r\n\"a,b\",\"say \"\"hi\"\"\r\nline two\"\r\n\"\",x\nc,\"\"\n\n");
  ASSERT_EQ(out.size(), 3u);
  ASSERT_TRUE(out[0].ok) << out[0].message;
  EXPECT_EQ(out[0].item.at("pk").scalar, "a,b");
  EXPECT_EQ(out[0].item.at("text").scalar, "say \"hi\"\r\nline two");
  ASSERT_TRUE(out[1].ok);
  EXPECT_EQ(out[1].item.count("pk"), 0u);  // an empty cell, quoted or not, is no attribute
  EXPECT_EQ(out[1].item.at("text").scalar, "x");
  EXPECT_EQ(out[2].item.count("text"), 0u);
}

TEST(CsvReaderTest, DelimiterAndHeaderListMakeTheFirstLineData) {
  CsvOptions options = Keys();
  options.delimiter = '\t';
  options.header_list = {"pk", "n"};
  auto out = Read(options, "first\t1\nsecond,x\t2\n");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].item.at("pk").scalar, "first");
  EXPECT_EQ(out[1].item.at("pk").scalar, "second,x");
  options.delimiter = ' ';
  out = Read(options, "\xEF\xBB\xBFk 7\n");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].item.at("pk").scalar, "k");  // the byte order mark is not part of the cell
  EXPECT_EQ(out[0].item.at("n").scalar, "7");
}

TEST(CsvReaderTest, ABadRecordIsAnErrorForThatRecordOnly) {
  auto out = Read(Keys(), "pk,n\na,1\nb\nc,not-a-number\nd,1,extra\ne,2\n");
  ASSERT_EQ(out.size(), 5u);
  EXPECT_TRUE(out[0].ok);
  EXPECT_FALSE(out[1].ok);
  EXPECT_NE(out[1].message.find("has 1 cells where the header has 2"), std::string::npos) << out[1].message;
  EXPECT_FALSE(out[2].ok);
  EXPECT_NE(out[2].message.find("numeric"), std::string::npos) << out[2].message;
  EXPECT_FALSE(out[3].ok);
  EXPECT_TRUE(out[4].ok);
  EXPECT_EQ(out[4].index, 4u);
  EXPECT_EQ(out[4].item.at("n").scalar, "2");
}

TEST(CsvReaderTest, UnparsableTextEndsTheObject) {
  auto out = Read(Keys(), "pk\na\n\"b\"x\nc\n");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].ok);
  EXPECT_FALSE(out[1].ok);
  EXPECT_NE(out[1].message.find("after the closing quote"), std::string::npos) << out[1].message;
  out = Read(Keys(), "pk\na\n\"open\nc\n");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NE(out[1].message.find("not closed"), std::string::npos) << out[1].message;
  out = Read(Keys(), "pk,pk\na,b\n");
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].message.find("twice"), std::string::npos) << out[0].message;
  EXPECT_TRUE(Read(Keys(), "").empty());
  EXPECT_TRUE(Read(Keys(), "pk,n\n").empty());
}

}  // namespace
}  // namespace dynapage
