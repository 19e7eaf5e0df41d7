// The page loop on its own, over a Storage holding hand-made entries: where a page stops (Limit, size, the
// crossing entry), when it reports a last evaluated key, exclusive starts both ways, filter after Limit.

#include "engine/read/page_reader.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/expression_parser.h"
#include "engine/storage/key_codec.h"
#include "engine/storage/stored_item.h"

namespace dynapage {
namespace {

class CollectingSink : public ItemSink {
 public:
  void AddJson(std::string_view json) override { items.emplace_back(json); }
  void AddItem(const AttributeMap& item) override { items.push_back(EncodeStoredItem(item).substr(1)); }
  std::vector<std::string> items;
};

class PageReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Storage::Open("", &storage_).ok());
    Storage::Batch batch;
    // Ten entries of one partition, sort keys 0..9; entry i has a payload of 100·(i+1) bytes and v = i % 2.
    for (int i = 0; i < 10; i++) {
      AttributeMap item = {{"pk", AttributeValue::String("p")},
                           {"sk", AttributeValue::Number(std::to_string(i))},
                           {"v", AttributeValue::Number(std::to_string(i % 2))},
                           {"d", AttributeValue::String(std::string(100 * (i + 1), 'x'))}};
      sizes_.push_back(ItemSize(item));
      AttributeValue sk = item["sk"];
      keys_.push_back(ItemKey(kKeyspace, item["pk"], &sk));
      batch.Put(keys_.back(), EncodeStoredItem(item));
    }
    ASSERT_TRUE(storage_->Write(&batch).ok());
    spec_.lower = KeyspacePrefix(kKeyspace);
    spec_.upper = PrefixSuccessor(spec_.lower);
  }

  PageResult Read() {
    PageResult result;
    sink_.items.clear();
    Status s = ReadPage(*storage_, spec_, &sink_, &result);
    EXPECT_TRUE(s.ok()) << s.message();
    return result;
  }

  static constexpr uint32_t kKeyspace = 7;
  std::unique_ptr<Storage> storage_;
  std::vector<std::string> keys_;
  std::vector<size_t> sizes_;
  PageSpec spec_;
  CollectingSink sink_;
};

TEST_F(PageReaderTest, WholeRangeHasNoLastEvaluatedKey) {
  PageResult r = Read();
  EXPECT_EQ(10u, r.scanned_count);
  EXPECT_EQ(10u, r.count);
  EXPECT_EQ(10u, sink_.items.size());
  EXPECT_FALSE(r.last_evaluated.has_value());
}

TEST_F(PageReaderTest, LimitStopsThePageWithTheLastEvaluatedKey) {
  spec_.limit = 4;
  PageResult r = Read();
  EXPECT_EQ(4u, r.scanned_count);
  ASSERT_TRUE(r.last_evaluated.has_value());
  EXPECT_EQ(keys_[3], *r.last_evaluated);
}

TEST_F(PageReaderTest, LimitReachedOnTheLastEntryStillStopsThePage) {
  spec_.limit = 10;  // no look-ahead: the page cannot know nothing follows
  PageResult r = Read();
  EXPECT_EQ(10u, r.scanned_count);
  ASSERT_TRUE(r.last_evaluated.has_value());
  EXPECT_EQ(keys_[9], *r.last_evaluated);
}

TEST_F(PageReaderTest, SingleItemRangeIsExhaustedByItsItem) {
  spec_.limit = 1;
  spec_.lower = keys_[5];
  spec_.upper = PrefixSuccessor(keys_[5]);
  spec_.single_item_range = true;
  PageResult r = Read();
  EXPECT_EQ(1u, r.scanned_count);
  EXPECT_FALSE(r.last_evaluated.has_value());
}

TEST_F(PageReaderTest, TheEntryThatCrossesTheSizeLimitIsPartOfThePage) {
  // Entries 0..2 are below the limit together; entry 3 crosses it and is still read; entry 4 is not.
  spec_.max_page_bytes = sizes_[0] + sizes_[1] + sizes_[2] + 1;
  PageResult r = Read();
  EXPECT_EQ(4u, r.scanned_count);
  EXPECT_EQ(sizes_[0] + sizes_[1] + sizes_[2] + sizes_[3], r.bytes_read);
  ASSERT_TRUE(r.last_evaluated.has_value());
  EXPECT_EQ(keys_[3], *r.last_evaluated);
}

TEST_F(PageReaderTest, ReachingTheSizeLimitExactlyStopsBeforeTheNextEntry) {
  spec_.max_page_bytes = sizes_[0] + sizes_[1];
  PageResult r = Read();
  EXPECT_EQ(2u, r.scanned_count);
  EXPECT_EQ(keys_[1], *r.last_evaluated);
}

TEST_F(PageReaderTest, ExclusiveStartForwardAndBackward) {
  spec_.exclusive_start = keys_[4];
  PageResult r = Read();
  EXPECT_EQ(5u, r.scanned_count);  // 5..9
  spec_.forward = false;
  r = Read();
  EXPECT_EQ(4u, r.scanned_count);  // 3..0
  spec_.limit = 2;
  r = Read();
  EXPECT_EQ(keys_[2], *r.last_evaluated);
  // A start key that is not stored still positions the page.
  spec_.exclusive_start = keys_[4] + std::string("\x01", 1);
  spec_.forward = true;
  spec_.limit = 0;
  r = Read();
  EXPECT_EQ(5u, r.scanned_count);
}

TEST_F(PageReaderTest, FilterRunsAfterLimitAndCountOnlyEmitsNothing) {
  ExpressionValueMap values = {{":one", AttributeValue::Number("1")}};
  ExpressionAttributes attrs(nullptr, &values);
  std::unique_ptr<ConditionExpr> filter;
  ASSERT_TRUE(ParseCondition("v = :one", "FilterExpression", &attrs, &filter).ok());
  spec_.filter = filter.get();
  spec_.limit = 5;
  PageResult r = Read();
  EXPECT_EQ(5u, r.scanned_count);
  EXPECT_EQ(2u, r.count);  // sk 1 and 3
  EXPECT_EQ(2u, sink_.items.size());
  EXPECT_EQ(keys_[4], *r.last_evaluated);

  spec_.count_only = true;
  r = Read();
  EXPECT_EQ(2u, r.count);
  EXPECT_TRUE(sink_.items.empty());
}

TEST_F(PageReaderTest, AnUnfilteredPageCopiesTheStoredJson) {
  spec_.limit = 1;
  Read();
  ASSERT_EQ(1u, sink_.items.size());
  StoredItemView view;
  std::string value;
  bool found = false;
  ASSERT_TRUE(storage_->Get(keys_[0], &value, &found).ok());
  ASSERT_TRUE(ParseStoredItem(value, &view));
  EXPECT_EQ(std::string(view.json), sink_.items[0]);
}

}  // namespace
}  // namespace dynapage
