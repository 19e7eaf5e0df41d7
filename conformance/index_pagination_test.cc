// Paging through secondary indexes (docs/behaviour.md §3.1): the LastEvaluatedKey of an index read holds the index key
// attributes plus the table key attributes ({gpk, gsk, pk, sk} for a GSI, {pk, sk, lsk} for an LSI), and
// resuming from it must visit every item exactly once even when hundreds of items share one index key
// value: the order among ties is unspecified (live DynamoDB does not sort them by table key), so only
// "each item once" is asserted, never the order among ties.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "conformance/environment.h"
#include "conformance/expectations.h"
#include "conformance/page.h"

namespace conformance {
namespace {

constexpr int kTies = 300;    // items of partition "t": all share gpk "tie", gsk 7 and lsk 1
constexpr int kOrdered = 20;  // items of partition "u": gpk "ord", gsk = 19 - sk, lsk = sk % 3

// Table (pk S, sk N) with GSI "gsi" (gpk, gsk; ALL), GSI "gsi_h" (gpk only; KEYS_ONLY), LSI "lsi" (pk, lsk;
// KEYS_ONLY).
class IndexPages : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    IndexSpec gsi{"gsi", true, {"gpk", "S"}, KeyAttribute{"gsk", "N"}, "ALL"};
    IndexSpec gsi_h{"gsi_h", true, {"gpk", "S"}, std::nullopt, "KEYS_ONLY"};
    IndexSpec lsi{"lsi", false, {"pk", "S"}, KeyAttribute{"lsk", "N"}, "KEYS_ONLY"};
    table_ = new ScopedTable(&Tables(), "idx", TableSpec{{"pk", "S"}, KeyAttribute{"sk", "N"}, {gsi, gsi_h, lsi}});
    std::vector<std::string> items;
    for (int i = 0; i < kTies; ++i) {
      items.push_back("{\"pk\":" + AttrS("t") + ",\"sk\":" + AttrN(i) + ",\"gpk\":" + AttrS("tie") +
                      ",\"gsk\":" + AttrN(7) + ",\"lsk\":" + AttrN(1) + "}");
    }
    for (int i = 0; i < kOrdered; ++i) {
      items.push_back("{\"pk\":" + AttrS("u") + ",\"sk\":" + AttrN(i) + ",\"gpk\":" + AttrS("ord") +
                      ",\"gsk\":" + AttrN(kOrdered - 1 - i) + ",\"lsk\":" + AttrN(i % 3) + "}");
    }
    table_->Fill(items) && table_->WaitForIndex("gsi", kTies + kOrdered) &&
        table_->WaitForIndex("gsi_h", kTies + kOrdered);
  }
  static void TearDownTestSuite() {
    delete table_;
    table_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(table_->ok()) << table_->error(); }

  static Json IndexQuery(const std::string& index, const std::string& key_attr, const std::string& value) {
    Json q;
    q.Set("TableName", table_->name()).Set("IndexName", index).Set("KeyConditionExpression", key_attr + " = :v");
    q.SetRaw("ExpressionAttributeValues", "{\":v\":" + AttrS(value) + "}");
    return q;
  }
  static Json IndexScan(const std::string& index) {
    Json s;
    s.Set("TableName", table_->name()).Set("IndexName", index);
    return s;
  }

  static ScopedTable* table_;
};
ScopedTable* IndexPages::table_ = nullptr;

// Checks that `read` saw every (pk, sk) of `want_pk` (sk 0..n-1) exactly once, and that every page but the
// last was full and carried a LEK of `lek_names`.
void ExpectEachItemOnce(const PagedRead& read, const std::string& want_pk, int n, int limit,
                        const std::vector<std::string>& lek_names) {
  ASSERT_EQ(read.failure, "");
  std::map<std::string, int> seen;
  std::vector<std::string> pks = read.Column("pk"), sks = read.Column("sk");
  ASSERT_EQ(pks.size(), sks.size());
  for (size_t i = 0; i < pks.size(); ++i) {
    if (pks[i] == want_pk) ++seen[sks[i]];
  }
  int missing = 0, repeated = 0;
  for (int i = 0; i < n; ++i) {
    int c = seen.count(std::to_string(i)) ? seen[std::to_string(i)] : 0;
    if (c == 0) ++missing;
    if (c > 1) ++repeated;
  }
  EXPECT_EQ(missing, 0) << "items never returned";
  EXPECT_EQ(repeated, 0) << "items returned more than once";
  for (size_t p = 0; p + 1 < read.pages.size(); ++p) {
    EXPECT_EQ(ScannedCount(read.pages[p]), limit) << "page " << p + 1;
    EXPECT_EQ(LekNames(read.pages[p]), lek_names) << "page " << p + 1;
  }
}

TEST_F(IndexPages, GsiLekHoldsIndexAndTableKeys) {
  Json q = IndexQuery("gsi", "gpk", "tie");
  q.Set("Limit", 1);
  Response r = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(r));
  ASSERT_EQ(Count(r), 1);
  EXPECT_EQ(LekNames(r), (std::vector<std::string>{"gpk", "gsk", "pk", "sk"})) << r.body;
  EXPECT_EQ(LekAttr(r, "gpk"), "tie");
  EXPECT_EQ(LekAttr(r, "gsk"), "7");
  EXPECT_EQ(LekAttr(r, "pk"), "t");
  // Copied from the item the page stopped on.
  EXPECT_EQ(LekAttr(r, "sk"), Column(r, "sk")[0]);

  Response scan = TheClient().Call("Scan", IndexScan("gsi").Set("Limit", 1));
  ASSERT_TRUE(WellFormedPage(scan));
  EXPECT_EQ(LekNames(scan), (std::vector<std::string>{"gpk", "gsk", "pk", "sk"})) << scan.body;
}

TEST_F(IndexPages, HashOnlyGsiLekHoldsIndexAndTableKeys) {
  Json q = IndexQuery("gsi_h", "gpk", "tie");
  q.Set("Limit", 1);
  Response r = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(LekNames(r), (std::vector<std::string>{"gpk", "pk", "sk"})) << r.body;
}

TEST_F(IndexPages, LsiLekHoldsTableKeysAndIndexSortKey) {
  Json q = IndexQuery("lsi", "pk", "t");
  q.Set("Limit", 1).SetBool("ConsistentRead", true);
  Response r = TheClient().Call("Query", q);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(LekNames(r), (std::vector<std::string>{"lsk", "pk", "sk"})) << r.body;
  EXPECT_EQ(LekAttr(r, "lsk"), "1");

  Response scan = TheClient().Call("Scan", IndexScan("lsi").Set("Limit", 1));
  ASSERT_TRUE(WellFormedPage(scan));
  EXPECT_EQ(LekNames(scan), (std::vector<std::string>{"lsk", "pk", "sk"})) << scan.body;
}

TEST_F(IndexPages, GsiQueryThroughTies) {
  Json q = IndexQuery("gsi", "gpk", "tie");
  q.Set("Limit", 7);
  PagedRead read = ReadAllPages(TheClient(), "Query", q, 100);
  ExpectEachItemOnce(read, "t", kTies, 7, {"gpk", "gsk", "pk", "sk"});
  EXPECT_EQ(read.TotalCount(), kTies);
}

TEST_F(IndexPages, GsiQueryThroughTiesReversed) {
  Json q = IndexQuery("gsi", "gpk", "tie");
  q.Set("Limit", 7).SetBool("ScanIndexForward", false);
  PagedRead read = ReadAllPages(TheClient(), "Query", q, 100);
  ExpectEachItemOnce(read, "t", kTies, 7, {"gpk", "gsk", "pk", "sk"});
  EXPECT_EQ(read.TotalCount(), kTies);
}

TEST_F(IndexPages, HashOnlyGsiQueryThroughTies) {
  Json q = IndexQuery("gsi_h", "gpk", "tie");
  q.Set("Limit", 7);
  PagedRead read = ReadAllPages(TheClient(), "Query", q, 100);
  ExpectEachItemOnce(read, "t", kTies, 7, {"gpk", "pk", "sk"});
  EXPECT_EQ(read.TotalCount(), kTies);
}

TEST_F(IndexPages, LsiQueryThroughTiesBothWays) {
  for (bool forward : {true, false}) {
    SCOPED_TRACE(forward ? "forward" : "reversed");
    Json q = IndexQuery("lsi", "pk", "t");
    q.Set("Limit", 7).SetBool("ConsistentRead", true).SetBool("ScanIndexForward", forward);
    PagedRead read = ReadAllPages(TheClient(), "Query", q, 100);
    ExpectEachItemOnce(read, "t", kTies, 7, {"lsk", "pk", "sk"});
    EXPECT_EQ(read.TotalCount(), kTies);
  }
}

TEST_F(IndexPages, IndexScansThroughTies) {
  PagedRead gsi = ReadAllPages(TheClient(), "Scan", IndexScan("gsi").Set("Limit", 7), 100);
  ExpectEachItemOnce(gsi, "t", kTies, 7, {"gpk", "gsk", "pk", "sk"});
  ExpectEachItemOnce(gsi, "u", kOrdered, 7, {"gpk", "gsk", "pk", "sk"});
  EXPECT_EQ(gsi.TotalCount(), kTies + kOrdered);

  PagedRead lsi =
      ReadAllPages(TheClient(), "Scan", IndexScan("lsi").Set("Limit", 7).SetBool("ConsistentRead", true), 100);
  ExpectEachItemOnce(lsi, "t", kTies, 7, {"lsk", "pk", "sk"});
  ExpectEachItemOnce(lsi, "u", kOrdered, 7, {"lsk", "pk", "sk"});
  EXPECT_EQ(lsi.TotalCount(), kTies + kOrdered);
}

TEST_F(IndexPages, GsiQueryPagesInIndexSortKeyOrderBothWays) {
  // gsk = 19 - sk, so ascending gsk is descending sk.
  std::vector<std::string> ascending, descending;
  for (int i = 0; i < kOrdered; ++i) ascending.push_back(std::to_string(i));
  descending.assign(ascending.rbegin(), ascending.rend());

  Json q = IndexQuery("gsi", "gpk", "ord");
  q.Set("Limit", 6);
  PagedRead forward = ReadAllPages(TheClient(), "Query", q, 10);
  ASSERT_EQ(forward.failure, "");
  EXPECT_EQ(forward.Column("gsk"), ascending);
  EXPECT_EQ(forward.Column("sk"), descending);
  EXPECT_EQ(LekAttr(forward.pages[0], "gsk"), "5");
  EXPECT_EQ(LekAttr(forward.pages[0], "sk"), "14");

  q.SetBool("ScanIndexForward", false);
  PagedRead reversed = ReadAllPages(TheClient(), "Query", q, 10);
  ASSERT_EQ(reversed.failure, "");
  EXPECT_EQ(reversed.Column("gsk"), descending);
}

TEST_F(IndexPages, LsiQueryOrdersByIndexSortKey) {
  // lsk = sk % 3: ascending lsk, ties among equal lsk in any order.
  Json q = IndexQuery("lsi", "pk", "u");
  q.Set("Limit", 4).SetBool("ConsistentRead", true);
  PagedRead read = ReadAllPages(TheClient(), "Query", q, 10);
  ASSERT_EQ(read.failure, "");
  std::vector<std::string> lsk = read.Column("lsk");
  ASSERT_EQ(lsk.size(), static_cast<size_t>(kOrdered));
  EXPECT_TRUE(std::is_sorted(lsk.begin(), lsk.end())) << "lsk values are single digits, so text order is numeric";
  ExpectEachItemOnce(read, "u", kOrdered, 4, {"lsk", "pk", "sk"});
}

TEST_F(IndexPages, ConsistentReadIsRejectedOnAGsi) {
  Json q = IndexQuery("gsi", "gpk", "tie");
  q.SetBool("ConsistentRead", true);
  EXPECT_TRUE(
      IsValidation(TheClient().Call("Query", q), "Consistent reads are not supported on global secondary indexes"));
  EXPECT_TRUE(IsValidation(TheClient().Call("Scan", IndexScan("gsi").SetBool("ConsistentRead", true)),
                           "Consistent reads are not supported on global secondary indexes"));
}

}  // namespace
}  // namespace conformance
