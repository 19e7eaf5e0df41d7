// TTL expiry through HTTP (docs/streams-and-ttl.md): which items expire, the sweep (on demand and by the
// sweeper thread), index entries, the REMOVE stream record of the service, and the settable clock.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "engine/write/time_to_live.h"
#include "tests/http/streams_test_util.h"

namespace dynapage {
namespace {

using Strings = std::vector<std::string>;
constexpr int64_t kNow = 1800000000;  // seconds: the clock is set here

class TtlExpiryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(200, CallAdmin(server_, "/_dynapage/clock?scope=all",
                             R"({"set_epoch_ms":)" + std::to_string(kNow * 1000) + "}")
                       .status);
    HttpResult r = server_.Call("CreateTable", R"({"TableName":"tab","BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
        "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
        "GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
                                   "Projection":{"ProjectionType":"ALL"}}],
        "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}})");
    ASSERT_EQ(200, r.status) << r.Describe();
    r = server_.Call("UpdateTimeToLive",
                     R"({"TableName":"tab","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expires"}})");
    ASSERT_EQ(200, r.status) << r.Describe();
  }
  void Put(const std::string& id, const std::string& expires) {
    std::string item = R"({"id":{"S":")" + id + R"("},"g":{"S":"x"})";
    if (!expires.empty()) item += R"(,"expires":)" + expires;
    HttpResult r = server_.Call("PutItem", R"({"TableName":"tab","Item":)" + item + "}}");
    ASSERT_EQ(200, r.status) << r.Describe();
  }
  Strings Ids(const std::string& index = "") {
    std::string body = R"({"TableName":"tab")";
    if (!index.empty()) body += R"(,"IndexName":")" + index + "\"";
    HttpResult r = server_.Call("Scan", body + "}");
    Strings ids;
    for (const auto& item : r.json["Items"].GetArray()) ids.push_back(item["id"]["S"].GetString());
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  std::string N(int64_t seconds) { return R"({"N":")" + std::to_string(seconds) + R"("})"; }

  TestServer server_;
};

TEST_F(TtlExpiryTest, OnlyPastEpochSecondNumbersWithinFiveYearsExpire) {
  const int64_t year = 365 * 86400;
  Put("past", N(kNow - 10));
  Put("past_decimal", R"({"N":")" + std::to_string(kNow - 10) + R"(.5"})");
  Put("four_years", N(kNow - 4 * year));
  Put("future", N(kNow + 3600));
  Put("string", R"({"S":"1000"})");
  Put("missing", "");
  Put("six_years", N(kNow - 6 * year));
  Put("negative", N(-5));
  Put("millis", N(kNow * 1000 - 10000));
  Put("nested", R"({"M":{"expires":{"N":"1000"}}})");
  // Expired items stay readable until a sweep deletes them.
  EXPECT_EQ(10u, Ids().size());
  EXPECT_EQ(3, Sweep(server_));
  Strings kept = {"future", "millis", "missing", "negative", "nested", "six_years", "string"};
  EXPECT_EQ(kept, Ids());
  EXPECT_EQ(kept, Ids("gsi"));  // index entries went with the items
  EXPECT_EQ(0, Sweep(server_));
  HttpResult r = server_.Call("DescribeTable", R"({"TableName":"tab"})");
  EXPECT_EQ(7, r.json["Table"]["ItemCount"].GetInt64());

  // The future item expires once the clock passes it.
  ASSERT_EQ(200, CallAdmin(server_, "/_dynapage/clock?scope=all", R"({"advance_ms":3601000})").status);
  EXPECT_EQ(1, Sweep(server_));
}

TEST_F(TtlExpiryTest, DeletionsWriteServiceRemoveRecords) {
  const std::string uuid = "0d8f6d1e-6c0a-4b57-9c55-7b8a1b2e3f40";
  HttpResult r = server_.Call("PutItem", R"({"TableName":"tab","Item":{"id":{"S":")" + uuid +
                                             R"("},"expired_at":{"N":"1723213300"}}})");
  ASSERT_EQ(200, r.status);
  Put("ttl", N(1723213000));
  r = server_.Call("UpdateTimeToLive",
                   R"({"TableName":"tab","TimeToLiveSpecification":{"Enabled":false,"AttributeName":"expires"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_EQ(200, server_.Call("UpdateTimeToLive", R"({"TableName":"tab","TimeToLiveSpecification":)"
                                                  R"({"Enabled":true,"AttributeName":"expired_at"}})")
                     .status);
  ASSERT_EQ(200, CallAdmin(server_, "/_dynapage/clock?scope=all", R"({"set_epoch_ms":1723213200000})").status);
  EXPECT_EQ(0, Sweep(server_));  // "expires" (past) no longer counts; expired_at is still ahead
  ASSERT_EQ(200, server_.Call("DeleteItem", R"({"TableName":"tab","Key":{"id":{"S":"ttl"}}})").status);
  ASSERT_EQ(200, CallAdmin(server_, "/_dynapage/clock?scope=all", R"({"set_epoch_ms":1723213301000})").status);
  EXPECT_EQ(1, Sweep(server_));
  std::vector<StreamRecordText> records = ReadAll(server_, LatestStreamArn(server_, "tab"));
  ASSERT_EQ(Strings({"INSERT " + uuid, "INSERT ttl", "REMOVE ttl", "REMOVE " + uuid}), Events(records));
  EXPECT_EQ("", records[2].user_identity);  // a user's delete names no one
  EXPECT_EQ(Canonical(R"({"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"})"), records[3].user_identity);
  EXPECT_EQ(91, records[3].size_bytes);  // AWS's vector for this record
  EXPECT_EQ(Canonical(R"({"expired_at":{"N":"1723213300"},"id":{"S":")" + uuid + R"("}})"), records[3].old_image);
}

TEST_F(TtlExpiryTest, ItemUpdatedToALaterTimeSurvives) {
  Put("a", N(kNow - 5));
  HttpResult r = server_.Call("UpdateItem", R"({"TableName":"tab","Key":{"id":{"S":"a"}},)"
                                            R"("UpdateExpression":"SET expires = :t","ExpressionAttributeValues":)"
                                            R"({":t":)" + N(kNow + 60) + "}}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(0, Sweep(server_));
  EXPECT_EQ(Strings({"a"}), Ids());
}

// A clock that runs a hook when it is read for the n-th time. The sweep reads it once per item it scans, before it
// takes the writer lock for the deletes: a hook there is a write that lands between the scan and the delete.
class HookedClock : public Clock {
 public:
  HookedClock(int64_t millis, int nth, std::function<void()> hook) : millis_(millis), nth_(nth), hook_(hook) {}
  int64_t NowMillis() const override {
    if (++reads_ == nth_) hook_();
    return millis_;
  }

 private:
  const int64_t millis_;
  const int nth_;
  const std::function<void()> hook_;
  mutable std::atomic<int> reads_{0};
};

// The delete is conditional on the item still being expired when it is deleted, not when it was scanned.
TEST_F(TtlExpiryTest, ItemUpdatedBetweenTheScanAndTheDeleteSurvives) {
  for (const char* id : {"a", "b", "c"}) Put(id, N(kNow - 5));
  // The first two items are read and found expired; then, before anything is deleted, every item gets a later
  // time ("c" too, so that whatever the scan order, two were read expired and changed since).
  HookedClock clock(kNow * 1000, 2, [&] {
    for (const char* id : {"a", "b", "c"}) {
      HttpResult r = server_.Call("UpdateItem", std::string(R"({"TableName":"tab","Key":{"id":{"S":")") + id +
                                                    R"("}},"UpdateExpression":"SET expires = :t",)"
                                                    R"("ExpressionAttributeValues":{":t":)" +
                                                    N(kNow + 60) + "}}");
      EXPECT_EQ(200, r.status) << r.Describe();
    }
  });
  RequestContext context;
  context.clock = &clock;
  uint64_t deleted = 99;
  Status s = ExpireItems(server_.db().writes(), context, "tab", &deleted);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(0u, deleted);
  EXPECT_EQ(Strings({"a", "b", "c"}), Ids());
  EXPECT_EQ(Strings({"a", "b", "c"}), Ids("gsi"));
  // No REMOVE record either: the stream has the puts and the updates only.
  for (const std::string& event : Events(ReadAll(server_, LatestStreamArn(server_, "tab")))) {
    EXPECT_NE("REMOVE", event.substr(0, 6)) << event;
  }
}

TEST_F(TtlExpiryTest, SweepOfOneTableAndAdminErrors) {
  Put("a", N(kNow - 5));
  HttpResult r = CallAdmin(server_, "/_dynapage/ttl/sweep", R"({"TableName":"other"})");
  EXPECT_EQ(Canonical(R"({"ExpiredItems":0})"), r.body);
  r = CallAdmin(server_, "/_dynapage/ttl/sweep", R"({"TableName":"tab"})");
  EXPECT_EQ(Canonical(R"({"ExpiredItems":1})"), r.body);
  r = CallAdmin(server_, "/_dynapage/ttl/sweep", "[1]");
  EXPECT_EQ(400, r.status);
  EXPECT_EQ("ValidationException", r.ErrorName());
  r = CallAdmin(server_, "/_dynapage/clock?scope=all", R"({"advance_ms":"soon"})");
  EXPECT_EQ(400, r.status);
  r = CallAdmin(server_, "/_dynapage/clock", "{}");
  ASSERT_EQ(200, r.status);
  EXPECT_NEAR(static_cast<double>(kNow * 1000), static_cast<double>(r.json["epoch_ms"].GetInt64()), 60000);
  r = CallAdmin(server_, "/_dynapage/clock?scope=all", R"({"reset":true})");
  EXPECT_LT(r.json["epoch_ms"].GetInt64(), kNow * 1000 - 60000);  // this machine's clock is before 2027
}

// The sweep acts as the caller of its request: its REMOVE records carry the region of its Authorization header.
TEST_F(TtlExpiryTest, SweepRecordsCarryTheRegionOfItsRequest) {
  Put("a", N(kNow - 5));
  HttpRequest request;
  request.path = "/_dynapage/ttl/sweep";
  request.headers.emplace("Content-Type", "application/json");
  request.headers.emplace("Authorization",
                          "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-2/dynamodb/aws4_request, "
                          "SignedHeaders=host;x-amz-date, Signature=abc");
  request.body = "{}";
  HttpResult r = server_.Send(request);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"ExpiredItems":1})"), r.body);
  std::vector<StreamRecordText> records = ReadAll(server_, LatestStreamArn(server_, "tab"));
  ASSERT_EQ(2u, records.size());
  EXPECT_EQ("REMOVE", records[1].event_name);
  EXPECT_NE(std::string::npos, records[1].json.find(R"("awsRegion":"eu-west-2")")) << records[1].json;
}

TEST(TtlSweeperTest, TheSweeperThreadDeletesExpiredItems) {
  TestServerOptions options;
  options.ttl_interval_ms = 20;
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("tab", "id", "S").status);
  ASSERT_EQ(200, server.Call("UpdateTimeToLive", R"({"TableName":"tab","TimeToLiveSpecification":)"
                                                 R"({"Enabled":true,"AttributeName":"ttl"}})")
                     .status);
  ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"a"},"ttl":{"N":"1000"}}})").status);
  ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"b"},"ttl":{"N":"1"}}})").status);
  // Both are more than five years old by the real clock: the sweeper needs the clock set near them.
  ASSERT_EQ(200, CallAdmin(server, "/_dynapage/clock?scope=all", R"({"set_epoch_ms":500000})").status);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int64_t count = -1;
  while (std::chrono::steady_clock::now() < deadline) {
    count = server.Call("Scan", R"({"TableName":"tab","Select":"COUNT"})").json["Count"].GetInt64();
    if (count == 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(1, count);  // b (1 s) has expired at 500 s; a (1000 s) has not
  EXPECT_EQ(200, server.Call("GetItem", R"({"TableName":"tab","Key":{"id":{"S":"a"}}})").status);
}

}  // namespace
}  // namespace dynapage
