// ReturnConsumedCapacity on Query and Scan (docs/behaviour.md §7.3): units = ceil(total size of the evaluated items /
// 4 KB) × (ConsistentRead ? 1 : 0.5), at least 0.5 (eventually consistent) or 1 (consistent) even for an
// empty page; filter, projection and Select=COUNT do not change it; INDEXES adds a per-table and per-index
// breakdown.
//
// Sizes: each item of partition "ten" is about 1,029 bytes by the documented size (§1.1: names + values,
// 1,000 of them in "data"), so ten items are ~10,290 bytes -> 3 units of 4 KB and five are ~5,145 -> 2.
// Both totals sit ~2 KB away from a 4 KB boundary, so small per-item accounting differences cannot move them.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "conformance/environment.h"
#include "conformance/expectations.h"
#include "conformance/page.h"

namespace conformance {
namespace {

double Units(const rapidjson::Value* v) { return v && v->IsNumber() ? v->GetDouble() : -1; }

// ConsumedCapacity.CapacityUnits, -1 when absent.
double TotalUnits(const Response& r) {
  const rapidjson::Value* cc = Member(r.json, "ConsumedCapacity");
  return cc ? Units(Member(*cc, "CapacityUnits")) : -1;
}

// ConsumedCapacity.<group>.<name>.CapacityUnits (group "GlobalSecondaryIndexes"/"LocalSecondaryIndexes"),
// or ConsumedCapacity.Table.CapacityUnits when name is empty.
double PartUnits(const Response& r, const char* group, const std::string& name = "") {
  const rapidjson::Value* cc = Member(r.json, "ConsumedCapacity");
  const rapidjson::Value* g = cc ? Member(*cc, group) : nullptr;
  if (!g) return -1;
  if (name.empty()) return Units(Member(*g, "CapacityUnits"));
  const rapidjson::Value* index = Member(*g, name.c_str());
  return index ? Units(Member(*index, "CapacityUnits")) : -1;
}

std::string ConsumedJson(const Response& r) {
  const rapidjson::Value* cc = Member(r.json, "ConsumedCapacity");
  return cc ? ToJson(*cc) : "<absent>";
}

class Capacity : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    IndexSpec gsi{"gsi", true, {"gpk", "S"}, KeyAttribute{"gsk", "N"}, "ALL"};
    IndexSpec lsi{"lsi", false, {"pk", "S"}, KeyAttribute{"lsk", "N"}, "ALL"};
    table_ = new ScopedTable(&Tables(), "cap", TableSpec{{"pk", "S"}, KeyAttribute{"sk", "N"}, {gsi, lsi}});
    const std::string data(1000, 'd');
    std::vector<std::string> items;
    for (int i = 1; i <= 10; ++i) {
      items.push_back("{\"pk\":" + AttrS("ten") + ",\"sk\":" + AttrN(i) + ",\"gpk\":" + AttrS("ten") +
                      ",\"gsk\":" + AttrN(i) + ",\"lsk\":" + AttrN(i) + ",\"data\":" + AttrS(data) + "}");
    }
    table_->Fill(items) && table_->WaitForIndex("gsi", 10);
    empty_ = new ScopedTable(&Tables(), "cap-empty", TableSpec{{"pk", "S"}, std::nullopt, {}});
  }
  static void TearDownTestSuite() {
    delete table_;
    delete empty_;
    table_ = empty_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(table_->ok()) << table_->error();
    ASSERT_TRUE(empty_->ok()) << empty_->error();
  }

  static Json Query(const std::string& pk, bool consistent, const char* mode = "TOTAL") {
    Json q(R"({"KeyConditionExpression":"pk = :p"})");
    q.Set("TableName", table_->name()).Set("ReturnConsumedCapacity", mode).SetBool("ConsistentRead", consistent);
    q.SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS(pk) + "}");
    return q;
  }

  // An eventually consistent read right after the writes may, on AWS, miss some of them; retry until the
  // page has all `count` items so that the capacity is the one of the full page.
  static Response CallUntilCount(const std::string& op, const Json& request, int count) {
    Response r;
    for (int attempt = 0; attempt < 10; ++attempt) {
      r = TheClient().Call(op, request);
      if (!r.ok() || Count(r) == count) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return r;
  }

  static ScopedTable* table_;
  static ScopedTable* empty_;
};
ScopedTable* Capacity::table_ = nullptr;
ScopedTable* Capacity::empty_ = nullptr;

TEST_F(Capacity, EmptyQueryPageCostsTheMinimum) {
  // "a minimum read capacity unit (0.5 with default eventually consistent, 1.0 with strongly consistent)";
  // dynalite says 0 here and moto always 1.0, both wrong.
  Response eventual = TheClient().Call("Query", Query("nothing", false));
  ASSERT_TRUE(WellFormedPage(eventual));
  EXPECT_EQ(TotalUnits(eventual), 0.5) << ConsumedJson(eventual);
  const rapidjson::Value* cc = Member(eventual.json, "ConsumedCapacity");
  ASSERT_NE(cc, nullptr);
  const rapidjson::Value* name = Member(*cc, "TableName");
  ASSERT_TRUE(name && name->IsString()) << ConsumedJson(eventual);
  EXPECT_EQ(std::string(name->GetString()), table_->name());

  Response consistent = TheClient().Call("Query", Query("nothing", true));
  ASSERT_TRUE(WellFormedPage(consistent));
  EXPECT_EQ(TotalUnits(consistent), 1.0) << ConsumedJson(consistent);
}

TEST_F(Capacity, EmptyScanPageIsObserved) {
  // The minimum is documented "for each partition involved in servicing the request - this includes
  // partitions which do not contain any items". A Scan of an empty table may involve every physical
  // partition of it, and how many a fresh on-demand table has is not knowable from outside: the value is
  // recorded, and only the per-partition minimum is asserted.
  for (bool consistent : {false, true}) {
    Json s;
    s.Set("TableName", empty_->name()).Set("ReturnConsumedCapacity", "TOTAL").SetBool("ConsistentRead", consistent);
    Response r = TheClient().Call("Scan", s);
    ASSERT_TRUE(WellFormedPage(r));
    EXPECT_EQ(Count(r), 0);
    const double minimum = consistent ? 1.0 : 0.5;
    EXPECT_GE(TotalUnits(r), minimum) << ConsumedJson(r);
    Observe(std::string("empty-table Scan CapacityUnits, ") + (consistent ? "consistent" : "eventually consistent"),
            ConsumedJson(r));
  }
}

TEST_F(Capacity, QueryRoundsTheTotalSizeUpTo4KB) {
  Response consistent = TheClient().Call("Query", Query("ten", true));
  ASSERT_TRUE(WellFormedPage(consistent));
  ASSERT_EQ(Count(consistent), 10);
  EXPECT_EQ(TotalUnits(consistent), 3.0) << ConsumedJson(consistent);

  Response eventual = CallUntilCount("Query", Query("ten", false), 10);
  ASSERT_TRUE(WellFormedPage(eventual));
  EXPECT_EQ(TotalUnits(eventual), 1.5) << ConsumedJson(eventual);

  Json limited = Query("ten", true);
  limited.Set("Limit", 5);
  Response five = TheClient().Call("Query", limited);
  ASSERT_TRUE(WellFormedPage(five));
  EXPECT_EQ(TotalUnits(five), 2.0) << ConsumedJson(five);
}

TEST_F(Capacity, FilterProjectionAndCountDoNotChangeIt) {
  // Capacity is for the evaluated items, before the filter and the projection (§7.3).
  Json filtered = Query("ten", true);
  filtered.Set("FilterExpression", "gsk > :big");
  filtered.SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS("ten") + ",\":big\":" + AttrN(100) + "}");
  Response f = TheClient().Call("Query", filtered);
  ASSERT_TRUE(WellFormedPage(f));
  EXPECT_EQ(Count(f), 0);
  EXPECT_EQ(TotalUnits(f), 3.0) << ConsumedJson(f);

  Json projected = Query("ten", true);
  projected.Set("ProjectionExpression", "sk");
  Response p = TheClient().Call("Query", projected);
  ASSERT_TRUE(WellFormedPage(p));
  EXPECT_EQ(TotalUnits(p), 3.0) << ConsumedJson(p);

  Json counted = Query("ten", true);
  counted.Set("Select", "COUNT");
  Response c = TheClient().Call("Query", counted);
  ASSERT_TRUE(WellFormedPage(c, ItemsMember::kAbsent));
  EXPECT_EQ(TotalUnits(c), 3.0) << ConsumedJson(c);
}

TEST_F(Capacity, ScanChargesTheEvaluatedItems) {
  Json s;
  s.Set("TableName", table_->name()).Set("ReturnConsumedCapacity", "TOTAL").SetBool("ConsistentRead", true);
  s.Set("FilterExpression", "gsk = :one").SetRaw("ExpressionAttributeValues", "{\":one\":" + AttrN(1) + "}");
  Response r = TheClient().Call("Scan", s);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(Count(r), 1);
  EXPECT_EQ(ScannedCount(r), 10);
  EXPECT_EQ(TotalUnits(r), 3.0) << ConsumedJson(r);
}

TEST_F(Capacity, IndexesModeBreaksDownTableAndIndexes) {
  Response table = TheClient().Call("Query", Query("ten", true, "INDEXES"));
  ASSERT_TRUE(WellFormedPage(table));
  EXPECT_EQ(TotalUnits(table), 3.0) << ConsumedJson(table);
  EXPECT_EQ(PartUnits(table, "Table"), 3.0) << ConsumedJson(table);

  // A GSI read is charged to the index (§7.3).
  Json gsi(R"({"IndexName":"gsi","KeyConditionExpression":"gpk = :p","ReturnConsumedCapacity":"INDEXES"})");
  gsi.Set("TableName", table_->name()).SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS("ten") + "}");
  Response g = CallUntilCount("Query", gsi, 10);
  ASSERT_TRUE(WellFormedPage(g));
  EXPECT_EQ(TotalUnits(g), 1.5) << ConsumedJson(g);
  EXPECT_EQ(PartUnits(g, "GlobalSecondaryIndexes", "gsi"), 1.5) << ConsumedJson(g);
  // Whether a GSI read also reports "Table": {"CapacityUnits": 0} is not pinned by docs/behaviour.md.
  Observe("INDEXES ConsumedCapacity of a GSI Query", ConsumedJson(g));

  // An LSI read is charged to the table's capacity but reported per LSI; with an ALL projection there is no
  // fetch from the table, so the table part is 0 (§7.3).
  Json lsi(R"({"IndexName":"lsi","KeyConditionExpression":"pk = :p","ReturnConsumedCapacity":"INDEXES",
               "ConsistentRead":true})");
  lsi.Set("TableName", table_->name()).SetRaw("ExpressionAttributeValues", "{\":p\":" + AttrS("ten") + "}");
  Response l = TheClient().Call("Query", lsi);
  ASSERT_TRUE(WellFormedPage(l));
  EXPECT_EQ(TotalUnits(l), 3.0) << ConsumedJson(l);
  EXPECT_EQ(PartUnits(l, "LocalSecondaryIndexes", "lsi"), 3.0) << ConsumedJson(l);
  EXPECT_EQ(PartUnits(l, "Table"), 0.0) << ConsumedJson(l);
}

TEST_F(Capacity, NoneOrAbsentMeansNoConsumedCapacity) {
  Response none = TheClient().Call("Query", Query("ten", true, "NONE"));
  ASSERT_TRUE(WellFormedPage(none));
  EXPECT_EQ(Member(none.json, "ConsumedCapacity"), nullptr) << none.body.substr(0, 200);
  Json absent = Query("ten", true);
  absent.Remove("ReturnConsumedCapacity");
  Response r = TheClient().Call("Query", absent);
  ASSERT_TRUE(WellFormedPage(r));
  EXPECT_EQ(Member(r.json, "ConsumedCapacity"), nullptr);
}

TEST_F(Capacity, UnknownModeIsRejected) {
  EXPECT_TRUE(IsValidation(TheClient().Call("Query", Query("ten", true, "hi")),
                           "1 validation error detected: Value 'hi' at 'returnConsumedCapacity' failed to satisfy "
                           "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"));
}

}  // namespace
}  // namespace conformance
