// Page chaos and the pagination audit on DynamoDB Streams' GetRecords, through HTTP (docs/testing-pagination.md):
// a reader that follows NextShardIterator still sees every record once, in order, for every seed; a reader that
// takes an empty answer for the end is caught, and the audit names the iterator chain it abandoned and how many
// records it left; a reader that caught up with an open shard abandoned nothing.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/http/streams_test_util.h"

namespace dynapage {
namespace {

constexpr int kSeeds = 40;
constexpr int kItems = 30;

HttpResult Admin(TestServer& server, const std::string& method, const std::string& path) {
  HttpRequest request;
  request.method = method;
  request.path = path;
  request.headers.emplace("Accept-Encoding", "identity");
  return server.Send(request);
}

// Tables "open" (its stream enabled) and "closed" (its stream disabled after the writes: a closed shard), each
// with kItems records, one put each.
void LoadStreams(TestServer& server) {
  for (const char* table : {"open", "closed"}) {
    HttpResult r = server.Call("CreateTable", std::string(R"({"TableName":")") + table + R"(",
        "BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"N"}],
        "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
        "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}})");
    ASSERT_EQ(200, r.status) << r.Describe();
    for (int i = 0; i < kItems; i++) {
      ASSERT_EQ(200, server
                         .Call("PutItem", std::string(R"({"TableName":")") + table + R"(","Item":{"id":{"N":")" +
                                              std::to_string(i) + R"("}}})")
                         .status);
    }
  }
  HttpResult r = server.Call("UpdateTable", R"({"TableName":"closed","StreamSpecification":{"StreamEnabled":false}})");
  ASSERT_EQ(200, r.status) << r.Describe();
}

struct ReadStats {
  int reads = 0, empty_with_iterator = 0, short_reads = 0, final_empty = 0;
};

// A reader by the contract: follows NextShardIterator, whatever the answer holds, until the shard ends (no
// NextShardIterator) or, on an open shard, until it has `expected` records (it would go on polling).
std::vector<std::string> Consume(TestServer& server, const std::string& table, size_t expected, int limit,
                                 ReadStats* stats) {
  std::vector<std::string> keys;
  std::string iterator = Iterator(server, LatestStreamArn(server, table), "TRIM_HORIZON");
  for (int read = 0; read < 5000 && !iterator.empty(); read++) {
    std::string next;
    std::vector<StreamRecordText> records = ReadOnce(server, iterator, &next, limit);
    stats->reads++;
    if (records.empty()) (next.empty() ? stats->final_empty : stats->empty_with_iterator)++;
    if (!records.empty() && records.size() < static_cast<size_t>(limit) && !next.empty()) stats->short_reads++;
    for (const std::string& event : Events(records)) keys.push_back(event);
    iterator = next;
    if (next.empty() || (table == "open" && keys.size() >= expected)) break;
  }
  return keys;
}

TEST(StreamPageChaos, ReadersFollowingNextShardIteratorSeeEveryRecordOnceForManySeeds) {
  TestServer server;
  LoadStreams(server);
  std::vector<std::string> expected;
  for (int i = 0; i < kItems; i++) expected.push_back("INSERT " + std::to_string(i));
  ReadStats plain;
  ASSERT_EQ(expected, Consume(server, "closed", kItems, 1000, &plain));
  EXPECT_EQ(1, plain.reads);  // without chaos, one read takes it all and ends the shard
  ReadStats stats;
  for (int seed = 1; seed <= kSeeds; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    for (const char* table : {"open", "closed"}) {
      for (int limit : {1000, 7}) {
        ASSERT_EQ(expected, Consume(server, table, kItems, limit, &stats)) << "seed " << seed << ", " << table;
      }
    }
  }
  server.bench().ClearChaos(nullptr, "");
  // Chaos cut the answers in each of its legal ways.
  EXPECT_GT(stats.reads, kSeeds * 4 * 3);
  EXPECT_GT(stats.empty_with_iterator, 0);
  EXPECT_GT(stats.short_reads, 0);
  EXPECT_GT(stats.final_empty, 0);  // a closed shard's last records with an iterator: one more, empty, read
}

TEST(StreamPageChaos, PerTableChaosFollowsTheIteratorsTable) {
  TestServer server;
  LoadStreams(server);
  server.bench().SetChaos(nullptr, "closed", 5);
  ReadStats open_stats, closed_stats;
  Consume(server, "open", kItems, 1000, &open_stats);
  EXPECT_EQ(1, open_stats.reads);
  for (int i = 0; i < 5; i++) Consume(server, "closed", kItems, 1000, &closed_stats);
  EXPECT_GT(closed_stats.reads, 5);
}

// The request log says what chaos did to each GetRecords answer, and how many records it held.
TEST(StreamPageChaos, RequestLogNamesTheCutAndCountsTheRecords) {
  TestServerOptions options;
  options.bench.request_log = testing::TempDir() + "dynapage_stream_chaos_log.jsonl";
  TestServer server(options);
  LoadStreams(server);
  server.bench().SetChaos(nullptr, "closed", 2);
  ReadStats stats;
  ASSERT_EQ(static_cast<size_t>(kItems), Consume(server, "closed", kItems, 1000, &stats).size());
  HttpResult log = Admin(server, "GET", "/_dynapage/requests?limit=1000");
  ASSERT_EQ(200, log.status) << log.Describe();
  uint64_t records = 0;
  int reads = 0, cut = 0;
  for (const auto& line : log.json["requests"].GetArray()) {
    if (std::string(line["operation"].GetString()) != "GetRecords") continue;
    reads++;
    EXPECT_EQ("closed", std::string(line["table"].GetString()));
    records += line["items_returned"].GetUint64();
    if (line["injected"].IsString()) {
      EXPECT_EQ(0u, std::string(line["injected"].GetString()).find("page chaos: ")) << JsonText(line);
      cut++;
    }
  }
  EXPECT_EQ(stats.reads, reads);
  EXPECT_EQ(static_cast<uint64_t>(kItems), records);
  EXPECT_GT(cut, 0);
}

// The bug chaos is there to catch: a reader that stops at the first empty answer of a shard that has more.
TEST(StreamPageChaos, ReaderStoppingAtFirstEmptyAnswerIsCaughtAndAudited) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  TestServer server(options);
  LoadStreams(server);
  const std::string arn = LatestStreamArn(server, "closed");
  int seeds_losing_records = 0;
  for (int seed = 1; seed <= 20; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    std::string iterator = Iterator(server, arn, "TRIM_HORIZON");
    size_t read = 0;
    while (!iterator.empty()) {
      std::string next;
      std::vector<StreamRecordText> records = ReadOnce(server, iterator, &next);
      if (records.empty()) break;  // the bug
      read += records.size();
      iterator = next;
    }
    if (read < static_cast<size_t>(kItems)) seeds_losing_records++;
  }
  server.bench().ClearChaos(nullptr, "");
  EXPECT_GT(seeds_losing_records, 0);
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(200, report.status) << report.Describe();
  int abandoned = 0;
  for (const auto& a : report.json["abandoned"].GetArray()) {
    EXPECT_EQ("GetRecords", std::string(a["operation"].GetString()));
    EXPECT_EQ("closed", std::string(a["table"].GetString()));
    ASSERT_TRUE(a["continuation"].IsString());
    EXPECT_EQ(0u, std::string(a["continuation"].GetString()).find(arn + "|1|"));
    // What it read and what it left add up to the shard.
    EXPECT_EQ(static_cast<uint64_t>(kItems), a["items_read"].GetUint64() + a["items_left"].GetUint64()) << report.body;
    EXPECT_GT(a["items_left"].GetUint64(), 0u);
    EXPECT_GE(a["pages_read"].GetUint64(), 1u);
    abandoned += static_cast<int>(a["times"].GetUint64());
  }
  // Each losing seed left its chain; but an iterator is a position token (stream, position, millisecond), and one
  // left at a position may be the very iterator a later seed gets there within the same millisecond, and follows.
  EXPECT_GT(abandoned, 0);
  EXPECT_LE(abandoned, seeds_losing_records) << report.body;
  EXPECT_NE(std::string::npos, server.bench().AuditSummary().find("abandoned: GetRecords closed after "));
}

// A reader at the end of an open shard stops polling there: that is no abandoned chain, whatever is written later.
TEST(StreamPaginationAudit, ReaderThatCaughtUpAbandonedNothing) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  TestServer server(options);
  LoadStreams(server);
  ReadStats stats;
  ASSERT_EQ(static_cast<size_t>(kItems), Consume(server, "open", kItems, 7, &stats).size());
  ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"open","Item":{"id":{"N":"99"}}})").status);
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(200, report.status);
  EXPECT_EQ(0u, report.json["abandoned"].Size()) << report.body;
  EXPECT_EQ(5u, report.json["issued"].GetUint64());  // five reads of 7, 7, 7, 7 and 2 records
  EXPECT_EQ(4u, report.json["followed"].GetUint64());
  // A reader that stopped with records behind its iterator did abandon the chain.
  std::string next;
  ReadOnce(server, Iterator(server, LatestStreamArn(server, "open"), "TRIM_HORIZON"), &next, 10);
  report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(1u, report.json["abandoned"].Size()) << report.body;
  EXPECT_EQ(21u, report.json["abandoned"][0]["items_left"].GetUint64());
  EXPECT_TRUE(report.json["abandoned"][0]["pages_left"].IsNull());
}

}  // namespace
}  // namespace dynapage
