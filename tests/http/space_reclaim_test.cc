// Deleted items are given back (docs/architecture.md, "Space given back"): emptying a table item by item, deleting
// a table, or dropping an index makes the store compact the deleted keys away in the background, so that what
// the store holds (its memtables and table files: RSS, in memory) falls back to almost nothing.

#include <gtest/gtest.h>

#include <string>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

// 2,500 items of ~1 KB: more than SpaceReclaimPolicy::kMinBytes.
constexpr int kItems = 2500;

class SpaceReclaimTest : public ::testing::Test {
 protected:
  // Puts (or deletes) every item with BatchWriteItem, 25 at a time.
  void WriteAll(const std::string& table, bool put) {
    const std::string filler(1000, 'x');
    for (int start = 0; start < kItems; start += 25) {
      std::string requests;
      for (int i = start; i < start + 25; i++) {
        std::string key = R"({"id":{"S":"item)" + std::to_string(i) + R"("}})";
        if (!requests.empty()) requests += ",";
        requests += put ? R"({"PutRequest":{"Item":{"id":{"S":"item)" + std::to_string(i) +
                              R"("},"g":{"S":"g)" + std::to_string(i % 7) + R"("},"v":{"S":")" + filler + R"("}}}})"
                        : R"({"DeleteRequest":{"Key":)" + key + "}}";
      }
      HttpResult r = server_.Call("BatchWriteItem", R"({"RequestItems":{")" + table + R"(":[)" + requests + "]}}");
      ASSERT_EQ(200, r.status) << r.Describe();
      ASSERT_EQ("{}", JsonText(r.json["UnprocessedItems"]));
    }
  }

  uint64_t Held() {
    server_.db().storage().WaitForReclaim();
    Storage::Usage usage = server_.db().storage().GetUsage();
    return usage.table_file_bytes + usage.memtable_bytes;
  }

  TestServer server_;
};

TEST_F(SpaceReclaimTest, ATableEmptiedItemByItemIsGivenBack) {
  ASSERT_EQ(200, server_.CreateTable("reclaimed", "id", "S").status);
  WriteAll("reclaimed", true);
  EXPECT_GT(Held(), 2u << 20);
  WriteAll("reclaimed", false);
  EXPECT_LT(Held(), 256u << 10);
  // The table is still there, empty, and takes writes.
  HttpResult r = server_.Call("PutItem", R"({"TableName":"reclaimed","Item":{"id":{"S":"again"}}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  r = server_.Call("Scan", R"({"TableName":"reclaimed"})");
  EXPECT_EQ(1, r.json["Count"].GetInt()) << r.Describe();
}

TEST_F(SpaceReclaimTest, ADeletedTableIsGivenBackAndOthersKept) {
  ASSERT_EQ(200, server_.CreateTable("reclaimed", "id", "S").status);
  ASSERT_EQ(200, server_.CreateTable("kept", "id", "S").status);
  ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"kept","Item":{"id":{"S":"k"}}})").status);
  WriteAll("reclaimed", true);
  EXPECT_GT(Held(), 2u << 20);
  ASSERT_EQ(200, server_.Call("DeleteTable", R"({"TableName":"reclaimed"})").status);
  EXPECT_LT(Held(), 256u << 10);
  HttpResult r = server_.Call("GetItem", R"({"TableName":"kept","Key":{"id":{"S":"k"}}})");
  EXPECT_TRUE(r.Has("Item")) << r.Describe();
}

TEST_F(SpaceReclaimTest, ADroppedIndexIsGivenBack) {
  HttpResult r = server_.Call("CreateTable", R"({"TableName":"indexed","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
      "GlobalSecondaryIndexes":[{"IndexName":"by_g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
                                 "Projection":{"ProjectionType":"ALL"}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  WriteAll("indexed", true);
  const uint64_t with_index = Held();
  r = server_.Call("UpdateTable", R"({"TableName":"indexed","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"by_g"}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  // The table's items stay; the index's copy of them goes.
  EXPECT_LT(Held(), with_index * 2 / 3);
}

}  // namespace
}  // namespace dynapage
