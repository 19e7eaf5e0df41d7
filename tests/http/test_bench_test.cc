// The test bench through HTTP (docs/testing-pagination.md): page chaos keeps every answer legal (a model check
// over many seeds), the loops it must catch are caught, fault rules, the pagination audit, the request log,
// metrics, reset, health, and the admin API's errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

constexpr int kSeeds = 60;

HttpResult Admin(TestServer& server, const std::string& method, const std::string& path, const std::string& body = "") {
  HttpRequest request;
  request.method = method;
  request.path = path;
  request.body = body;
  // As the admin API asks of every state-changing call, and with the credentials the test's requests use.
  if (!body.empty() || method != "GET") request.headers.emplace("Content-Type", "application/json");
  request.headers.emplace("Authorization", kTestAuthorization);
  request.headers.emplace("Accept-Encoding", "identity");  // the test client does not inflate gzip
  return server.Send(request);
}

std::string Pad(int i) {
  char text[16];
  std::snprintf(text, sizeof(text), "%03d", i);
  return text;
}

// A table "tab" (pk S, sk S) with a GSI "by_g" (g S, n N): partitions "a" and "b" of `per_partition` items each,
// and a hash-only table "hsh" of `per_partition` items.
void LoadTables(TestServer& server, int per_partition) {
  ASSERT_EQ(200, server
                     .Call("CreateTable", R"({"TableName":"tab","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},
                              {"AttributeName":"g","AttributeType":"S"},{"AttributeName":"n","AttributeType":"N"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
      "GlobalSecondaryIndexes":[{"IndexName":"by_g","Projection":{"ProjectionType":"ALL"},
          "KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"n","KeyType":"RANGE"}]}]})")
                     .status);
  ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
  for (const char* pk : {"a", "b"}) {
    for (int i = 0; i < per_partition; i++) {
      std::string item = std::string(R"({"pk":{"S":")") + pk + R"("},"sk":{"S":")" + Pad(i) +
                         R"("},"g":{"S":"g"},"n":{"N":")" + std::to_string(i) + R"("}})";
      ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":)" + item + "}").status);
    }
  }
  for (int i = 0; i < per_partition; i++) {
    ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"hsh","Item":{"pk":{"S":"h)" + Pad(i) + R"("}}})").status);
  }
}

struct PageStats {
  int pages = 0, empty_with_key = 0, final_empty = 0;
};

// Follows LastEvaluatedKey as the contract says, collecting each item's text; fails on an error or on a
// LastEvaluatedKey equal to the ExclusiveStartKey sent (SDK paginators refuse that).
std::vector<std::string> ReadAll(TestServer& server, const std::string& operation, const std::string& request,
                                 PageStats* stats) {
  std::vector<std::string> items;
  std::string start;
  for (int page = 0; page < 10000; page++) {
    std::string body = request;
    if (!start.empty()) body.insert(body.size() - 1, R"(,"ExclusiveStartKey":)" + start);
    HttpResult r = server.Call(operation, body);
    EXPECT_EQ(200, r.status) << r.Describe();
    if (r.status != 200) break;
    stats->pages++;
    for (const auto& item : r.json["Items"].GetArray()) items.push_back(JsonText(item));
    bool more = r.Has("LastEvaluatedKey");
    if (r.json["Items"].Empty()) (more ? stats->empty_with_key : stats->final_empty)++;
    if (!more) break;
    std::string next = JsonText(r.json["LastEvaluatedKey"]);
    EXPECT_NE(start, next) << "the same LastEvaluatedKey twice";
    if (next == start) break;
    start = next;
  }
  return items;
}

// What a loop reading without chaos returns: the expected items in order.
std::vector<std::string> Expected(TestServer& server, const std::string& operation, const std::string& request) {
  PageStats stats;
  return ReadAll(server, operation, request, &stats);
}

TEST(PageChaos, EveryItemExactlyOnceForManySeeds) {
  TestServer server;
  LoadTables(server, 30);
  const std::vector<std::pair<std::string, std::string>> reads = {
      {"Query",
       R"({"TableName":"tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})"},
      {"Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p","ScanIndexForward":false,
                    "ExpressionAttributeValues":{":p":{"S":"b"}}})"},
      {"Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p AND sk BETWEEN :lo AND :hi","Limit":4,
                    "ExpressionAttributeValues":{":p":{"S":"a"},":lo":{"S":"005"},":hi":{"S":"020"}}})"},
      {"Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p AND sk BETWEEN :lo AND :hi",
                    "ScanIndexForward":false,
                    "ExpressionAttributeValues":{":p":{"S":"a"},":lo":{"S":"005"},":hi":{"S":"020"}}})"},
      {"Query", R"x({"TableName":"tab","KeyConditionExpression":"pk = :p AND begins_with(sk, :b)",
                    "ScanIndexForward":false,"ExpressionAttributeValues":{":p":{"S":"b"},":b":{"S":"01"}}})x"},
      {"Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p AND sk <= :hi",
                    "ExpressionAttributeValues":{":p":{"S":"b"},":hi":{"S":"017"}}})"},
      {"Query", R"({"TableName":"tab","IndexName":"by_g","KeyConditionExpression":"g = :g",
                    "ExpressionAttributeValues":{":g":{"S":"g"}}})"},
      {"Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p","FilterExpression":"n > :n",
                    "ExpressionAttributeValues":{":p":{"S":"a"},":n":{"N":"20"}}})"},
      {"Scan", R"({"TableName":"tab"})"},
      {"Scan", R"({"TableName":"tab","Limit":7})"},
      {"Scan", R"({"TableName":"hsh"})"},
  };
  std::vector<std::vector<std::string>> expected;
  for (const auto& [operation, request] : reads) expected.push_back(Expected(server, operation, request));
  PageStats stats;
  for (int seed = 1; seed <= kSeeds; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    for (size_t i = 0; i < reads.size(); i++) {
      std::vector<std::string> items = ReadAll(server, reads[i].first, reads[i].second, &stats);
      ASSERT_EQ(expected[i], items) << "seed " << seed << ": " << reads[i].second;
    }
  }
  server.bench().ClearChaos(nullptr, "");
  // Chaos did cut pages, in each of the legal ways.
  EXPECT_GT(stats.pages, static_cast<int>(kSeeds * reads.size() * 2));
  EXPECT_GT(stats.empty_with_key, 0);
  EXPECT_GT(stats.final_empty, 0);
}

TEST(PageChaos, OffWithoutASeed) {
  TestServer server;
  LoadTables(server, 30);
  PageStats stats;
  ReadAll(server, "Scan", R"({"TableName":"tab"})", &stats);
  EXPECT_EQ(1, stats.pages);
}

std::vector<int> PageSizes(TestServer& server) {
  std::vector<int> sizes;
  std::string start;
  while (true) {
    std::string body = R"({"TableName":"tab","KeyConditionExpression":"pk = :p",)"
                       R"("ExpressionAttributeValues":{":p":{"S":"a"}})" +
                       (start.empty() ? "" : R"(,"ExclusiveStartKey":)" + start) + "}";
    HttpResult r = server.Call("Query", body);
    EXPECT_EQ(200, r.status);
    sizes.push_back(static_cast<int>(r.json["Items"].Size()));
    if (!r.Has("LastEvaluatedKey")) break;
    start = JsonText(r.json["LastEvaluatedKey"]);
  }
  return sizes;
}

TEST(PageChaos, SameSeedSamePages) {
  TestServer server;
  LoadTables(server, 30);
  size_t most_pages = 0;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    server.bench().SetChaos(nullptr, "", seed);
    std::vector<int> first = PageSizes(server);
    server.bench().SetChaos(nullptr, "", seed);
    EXPECT_EQ(first, PageSizes(server)) << "seed " << seed;
    most_pages = std::max(most_pages, first.size());
  }
  EXPECT_GT(most_pages, 2u);
}

TEST(PageChaos, PerTableAtRunTime) {
  TestServer server;
  LoadTables(server, 30);
  HttpResult r = Admin(server, "POST", "/_dynapage/chaos", R"({"seed":3,"table":"hsh"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"seed":null,"tables":{"hsh":3},"scope":""})"), r.body);
  PageStats t_stats, h_stats;
  ReadAll(server, "Scan", R"({"TableName":"tab"})", &t_stats);
  EXPECT_EQ(1, t_stats.pages);
  for (int i = 0; i < 5; i++) ReadAll(server, "Scan", R"({"TableName":"hsh"})", &h_stats);
  EXPECT_GT(h_stats.pages, 5);
  ASSERT_EQ(200, Admin(server, "DELETE", "/_dynapage/chaos?table=hsh").status);
  h_stats = PageStats();
  ReadAll(server, "Scan", R"({"TableName":"hsh"})", &h_stats);
  EXPECT_EQ(1, h_stats.pages);
}

// The bug chaos exists to catch: a loop that takes an empty page for the end.
TEST(PageChaos, LoopStoppingAtFirstEmptyPageIsCaughtAndAudited) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  TestServer server(options);
  LoadTables(server, 30);
  const std::string query =
      R"({"TableName":"tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})";
  int seeds_losing_items = 0;
  for (int seed = 1; seed <= 20; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    size_t read = 0;
    std::string start;
    while (true) {
      std::string body = query;
      if (!start.empty()) body.insert(body.size() - 1, R"(,"ExclusiveStartKey":)" + start);
      HttpResult r = server.Call("Query", body);
      ASSERT_EQ(200, r.status);
      if (r.json["Items"].Empty()) break;  // the bug
      read += r.json["Items"].Size();
      if (!r.Has("LastEvaluatedKey")) break;
      start = JsonText(r.json["LastEvaluatedKey"]);
    }
    if (read < 30) seeds_losing_items++;
  }
  EXPECT_GT(seeds_losing_items, 0);
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(200, report.status) << report.Describe();
  ASSERT_TRUE(report.json["abandoned"].IsArray());
  int abandoned = 0;
  for (const auto& a : report.json["abandoned"].GetArray()) abandoned += static_cast<int>(a["times"].GetUint64());
  ASSERT_GE(abandoned, seeds_losing_items);
  ASSERT_GT(report.json["abandoned"].Size(), 0u);
  const rapidjson::Value& first = report.json["abandoned"][0];
  EXPECT_EQ("Query", std::string(first["operation"].GetString()));
  EXPECT_EQ("tab", std::string(first["table"].GetString()));
  EXPECT_EQ("pk = :p", std::string(first["key_condition"].GetString()));
  EXPECT_TRUE(first["continuation"].IsObject());
  EXPECT_GT(report.json["followed"].GetUint64(), 0u);
}

TEST(PaginationAudit, FollowedLoopsLeaveNothingAbandoned) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  options.bench.page_chaos_seed = 11;
  TestServer server(options);
  LoadTables(server, 30);
  PageStats stats;
  ReadAll(server, "Query",
          R"({"TableName":"tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}})",
          &stats);
  ReadAll(server, "Scan", R"({"TableName":"hsh"})", &stats);
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(200, report.status);
  EXPECT_EQ(0u, report.json["abandoned"].Size()) << report.body;
  EXPECT_EQ(report.json["issued"].GetUint64(), report.json["followed"].GetUint64());
  EXPECT_GT(report.json["issued"].GetUint64(), 0u);
}

// The report says what each abandoned chain left: read again (as the same caller, without chaos) for Query, Scan
// and ListTables; one request for a batch.
TEST(PaginationAudit, AbandonedChainsSayHowManyPagesAndItemsWereLeft) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  TestServer server(options);
  LoadTables(server, 30);
  // Two pages of four read, then given up: 22 items left, in pages of 4, 4, 4, 4, 4 and 2.
  std::string start;
  for (int page = 0; page < 2; page++) {
    HttpResult r = server.Call("Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p","Limit":4,)"
                                        R"("ExpressionAttributeValues":{":p":{"S":"a"}})" +
                                            (start.empty() ? "" : R"(,"ExclusiveStartKey":)" + start) + "}");
    ASSERT_EQ(200, r.status) << r.Describe();
    start = JsonText(r.json["LastEvaluatedKey"]);
  }
  // A filtered Scan: what is left counts the items that pass the filter (n >= 25 in each partition: 10).
  HttpResult r = server.Call("Scan", R"({"TableName":"tab","Limit":5,"FilterExpression":"n >= :n",)"
                                     R"("ExpressionAttributeValues":{":n":{"N":"25"}}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  const uint64_t scan_read = r.json["Count"].GetUint64();
  ASSERT_EQ(200, server.Call("ListTables", R"({"Limit":1})").status);
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(200, report.status) << report.Describe();
  ASSERT_EQ(3u, report.json["abandoned"].Size()) << report.body;
  std::map<std::string, const rapidjson::Value*> by_operation;
  for (const auto& a : report.json["abandoned"].GetArray()) by_operation[a["operation"].GetString()] = &a;
  ASSERT_TRUE(by_operation.count("Query") && by_operation.count("Scan") && by_operation.count("ListTables"));
  const rapidjson::Value& query = *by_operation["Query"];
  EXPECT_EQ(2u, query["pages_read"].GetUint64());
  EXPECT_EQ(8u, query["items_read"].GetUint64());
  EXPECT_EQ(6u, query["pages_left"].GetUint64()) << report.body;
  EXPECT_EQ(22u, query["items_left"].GetUint64());
  const rapidjson::Value& scan = *by_operation["Scan"];
  EXPECT_EQ(10u - scan_read, scan["items_left"].GetUint64()) << report.body;
  EXPECT_EQ(12u, scan["pages_left"].GetUint64());  // 55 items in pages of 5, the last one full and then an empty one
  const rapidjson::Value& list = *by_operation["ListTables"];
  EXPECT_EQ(1u, list["items_left"].GetUint64());  // "tab" and "hsh": one name read, one left
  EXPECT_EQ(1u, list["pages_left"].GetUint64());
  // Reading them again did not count as following them, nor issue anything.
  EXPECT_EQ(Canonical(report.body), Canonical(Admin(server, "GET", "/_dynapage/pagination").body));
  EXPECT_NE(std::string::npos, server.bench().AuditSummary().find(
                                   "abandoned: Query tab key condition \"pk = :p\" after 2 page(s), 8 item(s); "
                                   "6 page(s), 22 item(s) left at "))
      << server.bench().AuditSummary();
  // A batch leaves the request it did not process.
  ASSERT_EQ(
      200,
      Admin(server, "POST", "/_dynapage/faults", R"({"operation":"BatchWriteItem","unprocessed":1,"times":1})").status);
  ASSERT_EQ(
      200,
      server.Call("BatchWriteItem", R"({"RequestItems":{"hsh":[{"PutRequest":{"Item":{"pk":{"S":"z"}}}}]}})").status);
  report = Admin(server, "GET", "/_dynapage/pagination");
  for (const auto& a : report.json["abandoned"].GetArray()) {
    if (std::string(a["operation"].GetString()) != "BatchWriteItem") continue;
    EXPECT_EQ(1u, a["pages_left"].GetUint64());
    EXPECT_EQ(1u, a["items_left"].GetUint64());
  }
}

// Empty pages need a key strictly between two entries. Chaos also makes them where the last key part is a number
// (the number just above) and in a Scan of a hash-only table (a partition key whose hash falls between, like the
// key of a deleted item), and a reader by the contract still sees every item once.
TEST(PageChaos, EmptyPagesOnNumericSortKeysAndHashOnlyScans) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("num", "pk", "S", "sk", "N").status);
  ASSERT_EQ(200, server.CreateTable("hnum", "pk", "N").status);
  const char* numbers[] = {"-1",
                           "-0.5",
                           "0",
                           "1E-130",
                           "0.001",
                           "1",
                           "1.5",
                           "2",
                           "10",
                           "99999999999999999999999999999999999999",
                           "9.9999999999999999999999999999999999999E+125"};
  for (const char* n : numbers) {
    ASSERT_EQ(
        200,
        server.Call("PutItem", std::string(R"({"TableName":"num","Item":{"pk":{"S":"a"},"sk":{"N":")") + n + R"("}}})")
            .status);
  }
  for (int i = 0; i < 30; i++) {
    ASSERT_EQ(200,
              server.Call("PutItem", R"({"TableName":"hnum","Item":{"pk":{"N":")" + std::to_string(i * 7) + R"("}}})")
                  .status);
  }
  const std::vector<std::pair<std::string, std::string>> reads = {
      {"Query", R"({"TableName":"num","KeyConditionExpression":"pk = :p",
                    "ExpressionAttributeValues":{":p":{"S":"a"}}})"},
      {"Query", R"({"TableName":"num","KeyConditionExpression":"pk = :p","ScanIndexForward":false,
                    "ExpressionAttributeValues":{":p":{"S":"a"}}})"},
      {"Scan", R"({"TableName":"hnum"})"},
      {"Scan", R"({"TableName":"hsh"})"},
  };
  LoadTables(server, 30);
  for (const auto& [operation, request] : reads) {
    std::vector<std::string> expected = Expected(server, operation, request);
    PageStats stats;
    for (int seed = 1; seed <= kSeeds; seed++) {
      server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
      ASSERT_EQ(expected, ReadAll(server, operation, request, &stats)) << "seed " << seed << ": " << request;
    }
    server.bench().ClearChaos(nullptr, "");
    EXPECT_GT(stats.empty_with_key, 0) << request;
  }
}

std::string BatchOf(int from, int count) {
  std::string requests;
  for (int i = from; i < from + count; i++) {
    if (!requests.empty()) requests += ",";
    requests += R"({"PutRequest":{"Item":{"pk":{"S":"w)" + Pad(i) + R"("}}}})";
  }
  return R"({"RequestItems":{"hsh":[)" + requests + "]}}";
}

int64_t ItemCount(TestServer& server, const std::string& table) {
  HttpResult r = server.Call("Scan", R"({"TableName":")" + table + R"(","Select":"COUNT"})");
  return r.json["Count"].GetInt64();
}

TEST(PageChaos, BatchWriteLoopsThatResendUnprocessedItemsApplyEverything) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
  int unprocessed_seen = 0;
  for (int seed = 1; seed <= 20; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    std::string body = BatchOf(seed * 25, 25);
    for (int attempt = 0; attempt < 100; attempt++) {
      HttpResult r = server.Call("BatchWriteItem", body);
      ASSERT_EQ(200, r.status) << r.Describe();
      if (r.json["UnprocessedItems"].ObjectEmpty()) break;
      unprocessed_seen++;
      body = R"({"RequestItems":)" + JsonText(r.json["UnprocessedItems"]) + "}";
    }
  }
  server.bench().ClearChaos(nullptr, "");
  EXPECT_GT(unprocessed_seen, 0);
  EXPECT_EQ(20 * 25, ItemCount(server, "hsh"));
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  EXPECT_EQ(0u, report.json["abandoned"].Size()) << report.body;
}

TEST(PageChaos, BatchWriteLoopsThatIgnoreUnprocessedItemsAreCaught) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
  for (int seed = 1; seed <= 20; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    ASSERT_EQ(200, server.Call("BatchWriteItem", BatchOf(seed * 25, 25)).status);  // the bug: no retry
  }
  server.bench().ClearChaos(nullptr, "");
  int64_t written = ItemCount(server, "hsh");
  EXPECT_LT(written, 20 * 25);
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(static_cast<size_t>(20 * 25 - written), report.json["abandoned"].Size());
  ASSERT_GT(written, 0);
  ASSERT_LT(written, 20 * 25);
  EXPECT_EQ("BatchWriteItem", std::string(report.json["abandoned"][0]["operation"].GetString()));
  EXPECT_EQ("hsh", std::string(report.json["abandoned"][0]["table"].GetString()));
}

TEST(PageChaos, BatchGetLoopsThatResendUnprocessedKeysReadEverythingOnce) {
  TestServer server;
  LoadTables(server, 30);
  std::string keys;
  for (int i = 0; i < 30; i++) keys += std::string(i ? "," : "") + R"({"pk":{"S":"h)" + Pad(i) + R"("}})";
  int unprocessed_seen = 0;
  for (int seed = 1; seed <= 20; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    std::string body = R"({"RequestItems":{"hsh":{"Keys":[)" + keys + "]}}}";
    std::multiset<std::string> read;
    for (int attempt = 0; attempt < 100; attempt++) {
      HttpResult r = server.Call("BatchGetItem", body);
      ASSERT_EQ(200, r.status) << r.Describe();
      for (const auto& item : r.json["Responses"]["hsh"].GetArray()) read.insert(item["pk"]["S"].GetString());
      if (r.json["UnprocessedKeys"].ObjectEmpty()) break;
      unprocessed_seen++;
      body = R"({"RequestItems":)" + JsonText(r.json["UnprocessedKeys"]) + "}";
    }
    ASSERT_EQ(30u, read.size()) << "seed " << seed;
    ASSERT_EQ(30u, std::set<std::string>(read.begin(), read.end()).size()) << "seed " << seed;
  }
  EXPECT_GT(unprocessed_seen, 0);
}

TEST(PageChaos, ListTablesLoopsReadEveryNameOnce) {
  TestServer server;
  std::vector<std::string> expected;
  for (int i = 0; i < 7; i++) {
    expected.push_back("tab" + Pad(i));
    ASSERT_EQ(200, server.CreateTable(expected.back(), "pk", "S").status);
  }
  int pages = 0;
  for (int seed = 1; seed <= 20; seed++) {
    server.bench().SetChaos(nullptr, "", static_cast<uint64_t>(seed));
    std::vector<std::string> names;
    std::string start;
    while (true) {
      HttpResult r =
          server.Call("ListTables", start.empty() ? "{}" : R"({"ExclusiveStartTableName":")" + start + "\"}");
      ASSERT_EQ(200, r.status) << r.Describe();
      pages++;
      for (const auto& name : r.json["TableNames"].GetArray()) names.push_back(name.GetString());
      if (!r.Has("LastEvaluatedTableName")) break;
      start = r.json["LastEvaluatedTableName"].GetString();
    }
    ASSERT_EQ(expected, names) << "seed " << seed;
  }
  EXPECT_GT(pages, 40);
}

TEST(FaultRules, ErrorTimesThenSuccess) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("orders", "pk", "S").status);
  HttpResult added =
      Admin(server, "POST", "/_dynapage/faults",
            R"({"operation":"GetItem","table":"orders","error":"ProvisionedThroughputExceededException",)"
            R"("times":2})");
  ASSERT_EQ(200, added.status) << added.Describe();
  const std::string get = R"({"TableName":"orders","Key":{"pk":{"S":"a"}}})";
  for (int i = 0; i < 2; i++) {
    HttpResult r = server.Call("GetItem", get);
    EXPECT_EQ(400, r.status);
    EXPECT_EQ("com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", r.ErrorType());
    EXPECT_EQ(
        "The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
        "provisioning level with the UpdateTable API.",
        r.Message());
  }
  EXPECT_EQ(200, server.Call("GetItem", get).status);
  EXPECT_EQ(200, server.Call("PutItem", R"({"TableName":"orders","Item":{"pk":{"S":"a"}}})").status);
  HttpResult listed = Admin(server, "GET", "/_dynapage/faults");
  ASSERT_EQ(200, listed.status);
  EXPECT_EQ(3u, listed.json["rules"][0]["matched"].GetUint64());
  EXPECT_EQ(2u, listed.json["rules"][0]["fired"].GetUint64());
  ASSERT_EQ(200, Admin(server, "DELETE", "/_dynapage/faults").status);
  EXPECT_EQ(0u, Admin(server, "GET", "/_dynapage/faults").json["rules"].Size());
}

TEST(FaultRules, NthEveryAndOtherTablesUntouched) {
  TestServerOptions options;
  options.bench.faults = {};
  FaultRule every;
  every.operation = "PutItem";
  every.every = 3;
  every.error = "ThrottlingException";
  options.bench.faults.push_back(every);
  FaultRule nth;
  nth.table = "other";
  nth.nth = 2;
  nth.error = "InternalServerError";
  options.bench.faults.push_back(nth);
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("tab", "pk", "S").status);
  std::vector<int> statuses;
  for (int i = 0; i < 6; i++) {
    statuses.push_back(server.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"a"}}})").status);
  }
  EXPECT_EQ((std::vector<int>{200, 200, 400, 200, 200, 400}), statuses);
  HttpResult r = server.Call("GetItem", R"({"TableName":"other","Key":{"pk":{"S":"a"}}})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  r = server.Call("GetItem", R"({"TableName":"other","Key":{"pk":{"S":"a"}}})");
  EXPECT_EQ(500, r.status);
  EXPECT_EQ("InternalServerError", r.ErrorName());
}

// PartiQL (docs/partiql.md): the table of an ExecuteStatement is the one its statement names.
std::vector<std::string> ReadAllByStatement(TestServer& server, const std::string& statement, int* pages) {
  std::vector<std::string> items;
  std::string token;
  for (*pages = 0; *pages < 10000;) {
    std::string body = R"({"Statement":)" + statement + (token.empty() ? "" : R"(,"NextToken":)" + token) + "}";
    HttpResult r = server.Call("ExecuteStatement", body);
    EXPECT_EQ(200, r.status) << r.Describe();
    if (r.status != 200) break;
    ++*pages;
    for (const auto& item : r.json["Items"].GetArray()) items.push_back(JsonText(item));
    if (!r.Has("NextToken")) break;
    token = JsonText(r.json["NextToken"]);
  }
  return items;
}

TEST(PageChaos, PerTableReachesExecuteStatement) {
  TestServer server;
  LoadTables(server, 30);
  ASSERT_EQ(200, Admin(server, "POST", "/_dynapage/chaos", R"({"seed":3,"table":"hsh"})").status);
  int pages = 0;
  EXPECT_EQ(60u, ReadAllByStatement(server, R"("SELECT * FROM \"tab\"")", &pages).size());
  EXPECT_EQ(1, pages);
  int hsh_pages = 0;
  for (int i = 0; i < 5; i++) {
    std::vector<std::string> items = ReadAllByStatement(server, R"("SELECT * FROM \"hsh\"")", &pages);
    EXPECT_EQ(30u, std::set<std::string>(items.begin(), items.end()).size());
    EXPECT_EQ(30u, items.size());
    hsh_pages += pages;
  }
  EXPECT_GT(hsh_pages, 5);
}

TEST(FaultRules, TableRuleFiresOnPartiqlStatements) {
  TestServer server;
  LoadTables(server, 2);
  ASSERT_EQ(200, Admin(server, "POST", "/_dynapage/faults", R"({"table":"hsh","error":"ThrottlingException"})").status);
  const std::string hsh = R"("SELECT * FROM \"hsh\" WHERE pk = 'h000'")";
  HttpResult r = server.Call("ExecuteStatement", R"({"Statement":)" + hsh + "}");
  EXPECT_EQ("ThrottlingException", r.ErrorName()) << r.Describe();
  r = server.Call("ExecuteStatement", R"({"Statement":"UPDATE \"hsh\" SET v = 1 WHERE pk = 'h000'"})");
  EXPECT_EQ("ThrottlingException", r.ErrorName()) << r.Describe();
  r = server.Call("BatchExecuteStatement", R"({"Statements":[{"Statement":"SELECT * FROM \"tab\" WHERE pk = 'a' )"
                                           R"(AND sk = '000'"},{"Statement":)" +
                                               hsh + "}]}");
  EXPECT_EQ("ThrottlingException", r.ErrorName()) << r.Describe();
  r = server.Call("ExecuteTransaction",
                  R"({"TransactStatements":[{"Statement":"DELETE FROM \"hsh\" WHERE pk = 'x'"}]})");
  EXPECT_EQ("ThrottlingException", r.ErrorName()) << r.Describe();
  // Other tables, and a statement that does not parse (it names no table), are untouched.
  EXPECT_EQ(200, server.Call("ExecuteStatement", R"({"Statement":"SELECT * FROM \"tab\" WHERE pk = 'a'"})").status);
  r = server.Call("ExecuteStatement", R"({"Statement":"SELEC * FROM \"hsh\""})");
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
}

TEST(FaultRules, IndexRuleFiresOnPartiqlStatementsReadingTheIndex) {
  TestServer server;
  LoadTables(server, 2);
  ASSERT_EQ(200,
            Admin(server, "POST", "/_dynapage/faults", R"({"index":"by_g","error":"ThrottlingException"})").status);
  const std::string on_index = R"({"Statement":"SELECT * FROM \"tab\".\"by_g\" WHERE g = 'g'"})";
  const std::string on_table = R"({"Statement":"SELECT * FROM \"tab\" WHERE pk = 'a' AND sk = '000'"})";
  HttpResult r = server.Call("ExecuteStatement", on_index);
  EXPECT_EQ("ThrottlingException", r.ErrorName()) << r.Describe();
  // Any statement of a batch or transaction that reads the index, wherever it stands.
  r = server.Call("BatchExecuteStatement", R"({"Statements":[)" + on_table + "," + on_index + "]}");
  EXPECT_EQ("ThrottlingException", r.ErrorName()) << r.Describe();
  r = server.Call("ExecuteTransaction", R"({"TransactStatements":[)" + on_table + "," + on_index + "]}");
  EXPECT_EQ("ThrottlingException", r.ErrorName()) << r.Describe();
  // Statements on the table only are untouched.
  EXPECT_EQ(200, server.Call("ExecuteStatement", on_table).status);
  EXPECT_EQ(200, server.Call("BatchExecuteStatement", R"({"Statements":[)" + on_table + "]}").status);
  EXPECT_EQ(200, server.Call("ExecuteTransaction", R"({"TransactStatements":[)" + on_table + "]}").status);
}

TEST(PaginationAudit, ExecuteStatementNextTokensAbandonedAndFollowed) {
  TestServerOptions options;
  options.bench.audit_pagination = true;
  TestServer server(options);
  LoadTables(server, 30);
  // Followed to the end: nothing abandoned.
  int pages = 0;
  EXPECT_EQ(30u, ReadAllByStatement(server, R"("SELECT * FROM \"hsh\"","Limit":7)", &pages).size());
  EXPECT_EQ(5, pages);
  // Two pages of four read, then given up: 22 items left.
  const std::string statement = R"("SELECT * FROM \"tab\" WHERE pk = 'a'","Limit":4)";
  std::string token;
  for (int page = 0; page < 2; page++) {
    HttpResult r = server.Call(
        "ExecuteStatement", R"({"Statement":)" + statement + (token.empty() ? "" : R"(,"NextToken":)" + token) + "}");
    ASSERT_EQ(200, r.status) << r.Describe();
    ASSERT_TRUE(r.Has("NextToken"));
    token = JsonText(r.json["NextToken"]);
  }
  HttpResult report = Admin(server, "GET", "/_dynapage/pagination");
  ASSERT_EQ(200, report.status) << report.Describe();
  ASSERT_EQ(1u, report.json["abandoned"].Size()) << report.body;
  EXPECT_EQ(report.json["issued"].GetUint64(), report.json["followed"].GetUint64() + 1);
  const rapidjson::Value& a = report.json["abandoned"][0];
  EXPECT_EQ("ExecuteStatement", std::string(a["operation"].GetString()));
  EXPECT_EQ("tab", std::string(a["table"].GetString()));
  EXPECT_EQ("SELECT * FROM \"tab\" WHERE pk = 'a'", std::string(a["statement"].GetString()));
  EXPECT_EQ(2u, a["pages_read"].GetUint64());
  EXPECT_EQ(8u, a["items_read"].GetUint64());
  EXPECT_EQ(22u, a["items_left"].GetUint64()) << report.body;
  EXPECT_GE(a["pages_left"].GetUint64(), 6u);
  EXPECT_EQ(token, JsonText(a["continuation"]));
}

TEST(FaultRules, TransactionCanceledHasAReasonPerAction) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tab", "pk", "S").status);
  ASSERT_EQ(200, Admin(server, "POST", "/_dynapage/faults",
                       R"({"operation":"TransactWriteItems","error":"TransactionCanceledException"})")
                     .status);
  HttpResult r = server.Call("TransactWriteItems", R"({"TransactItems":[
      {"Put":{"TableName":"tab","Item":{"pk":{"S":"a"}}}},{"Put":{"TableName":"tab","Item":{"pk":{"S":"b"}}}}]})");
  EXPECT_EQ("TransactionCanceledException", r.ErrorName());
  EXPECT_EQ(
      "Transaction cancelled, please refer cancellation reasons for specific reasons "
      "[TransactionConflict, TransactionConflict]",
      r.Message());
  ASSERT_TRUE(r.Has("CancellationReasons"));
  ASSERT_EQ(2u, r.json["CancellationReasons"].Size());
  EXPECT_EQ("TransactionConflict", std::string(r.json["CancellationReasons"][1]["Code"].GetString()));
  EXPECT_EQ(0, ItemCount(server, "tab"));
}

TEST(FaultRules, UnprocessedShareOfABatch) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
  ASSERT_EQ(200,
            Admin(server, "POST", "/_dynapage/faults", R"({"operation":"BatchWriteItem","unprocessed":0.5})").status);
  HttpResult r = server.Call("BatchWriteItem", BatchOf(0, 10));
  ASSERT_EQ(200, r.status);
  EXPECT_EQ(5u, r.json["UnprocessedItems"]["hsh"].Size());
  EXPECT_EQ(5, ItemCount(server, "hsh"));
}

// A rule's unprocessed without `every` would leave a one-item batch unprocessed forever (a retrying client would spin):
// after kMaxWhollyUnprocessedInARow batches in a row, the next is served whole.
TEST(FaultRules, UnprocessedAlwaysLetsABatchProgress) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
  ASSERT_EQ(200,
            Admin(server, "POST", "/_dynapage/faults", R"({"operation":"BatchWriteItem","unprocessed":0.5})").status);
  std::string outcomes;
  for (int attempt = 0; attempt < 8; attempt++) {
    HttpResult r = server.Call("BatchWriteItem", BatchOf(0, 1));
    ASSERT_EQ(200, r.status) << r.Describe();
    outcomes += r.Has("UnprocessedItems") && r.json["UnprocessedItems"].MemberCount() > 0 ? 'u' : 'w';
  }
  EXPECT_EQ("uuuwuuuw", outcomes);
  EXPECT_EQ(1, ItemCount(server, "hsh"));
}

TEST(FaultRules, LatencyAndDroppedConnection) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tab", "pk", "S").status);
  ASSERT_EQ(200, Admin(server, "POST", "/_dynapage/faults",
                       R"([{"operation":"GetItem","latency_ms":150,"times":1},
                           {"operation":"DeleteItem","drop_connection":true,"times":1}])")
                     .status);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(200, server.Call("GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"}}})").status);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150));
  EXPECT_EQ(0, server.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"}}})").status);
  EXPECT_EQ(200, server.Call("DeleteItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"}}})").status);
}

TEST(FaultRules, ProbabilityIsSeeded) {
  auto run = [] {
    TestServer server;
    EXPECT_EQ(200, server.CreateTable("tab", "pk", "S").status);
    EXPECT_EQ(200, Admin(server, "POST", "/_dynapage/faults",
                         R"({"operation":"GetItem","probability":0.5,"seed":9,"error":"ThrottlingException"})")
                       .status);
    std::string statuses;
    for (int i = 0; i < 30; i++) {
      statuses += server.Call("GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"}}})").status == 200 ? '.' : 'x';
    }
    return statuses;
  };
  std::string first = run();
  EXPECT_EQ(first, run());
  EXPECT_NE(std::string::npos, first.find('x'));
  EXPECT_NE(std::string::npos, first.find('.'));
}

TEST(AdminApi, ErrorsAreJsonAndClear) {
  TestServer server;
  struct Case {
    std::string method, path, body;
    int status;
    std::string error, message;
  };
  const std::vector<Case> cases = {
      {"GET", "/_dynapage/nope", "", 404, "NotFound",
       "no admin route GET /_dynapage/nope (see docs/testing-pagination.md)"},
      {"GET", "/_dynapage/reset", "", 405, "MethodNotAllowed",
       "GET /_dynapage/reset is not allowed; /_dynapage/reset takes POST"},
      {"POST", "/_dynapage/faults", "{", 400, "BadRequest", "the body is not valid JSON"},
      {"POST", "/_dynapage/faults", R"({"operation":"GetItem"})", 400, "BadRequest",
       "a fault rule needs an action: error, latency_ms, unprocessed or drop_connection"},
      {"POST", "/_dynapage/faults", R"({"operation":"GetItem","eror":"ThrottlingException"})", 400, "BadRequest",
       "unknown field 'eror' (match: operation, table, index, access_key, nth, every, probability, seed, times; "
       "actions: error, latency_ms, unprocessed, drop_connection)"},
      {"POST", "/_dynapage/faults", R"({"error":"ConditionalCheckFailedException"})", 400, "BadRequest",
       "ConditionalCheckFailedException is not a fault: it depends on the data (write a condition that fails)"},
      {"POST", "/_dynapage/faults", R"({"error":"Boom"})", 400, "BadRequest",
       "unknown error 'Boom' (one of: ProvisionedThroughputExceededException, ThrottlingException, "
       "RequestLimitExceeded, InternalServerError, ServiceUnavailable, TransactionCanceledException)"},
      {"POST", "/_dynapage/faults",
       R"([{"error":"ThrottlingException"},{"probability":2,"error":"ThrottlingException"}])", 400, "BadRequest",
       "fault rule 2: 'probability' must be a number in (0, 1]"},
      {"POST", "/_dynapage/faults", R"({"every":0,"error":"ThrottlingException"})", 400, "BadRequest",
       "'every' must be a whole number >= 1"},
      {"POST", "/_dynapage/faults", R"({"unprocessed":0.5})", 400, "BadRequest",
       "'unprocessed' needs 'operation' BatchWriteItem or BatchGetItem"},
      {"POST", "/_dynapage/faults", R"({"operation":"Qurey","error":"ThrottlingException"})", 400, "BadRequest",
       "unknown operation 'Qurey' in 'operation' (one of: BatchExecuteStatement, BatchGetItem, "
       "BatchWriteItem, CancelBulkOperation, CreateBackup, CreateGlobalTable, CreateTable, DeleteBackup, "
       "DeleteItem, DeleteResourcePolicy, DeleteTable, DescribeBackup, DescribeBulkOperation, "
       "DescribeContinuousBackups, DescribeContributorInsights, DescribeEndpoints, DescribeExport, "
       "DescribeGlobalTable, DescribeGlobalTableSettings, DescribeImport, "
       "DescribeKinesisStreamingDestination, DescribeLimits, DescribeTable, DescribeTableReplicaAutoScaling, "
       "DescribeTimeToLive, DisableKinesisStreamingDestination, EnableKinesisStreamingDestination, "
       "ExecuteStatement, ExecuteTransaction, ExportTableToPointInTime, GetItem, GetResourcePolicy, "
       "ImportTable, ListBackups, ListBulkOperations, ListContributorInsights, ListExports, "
       "ListGlobalTables, ListImports, ListTables, ListTagsOfResource, PutItem, PutResourcePolicy, Query, "
       "RestoreTableFromBackup, RestoreTableToPointInTime, Scan, SearchVectors, StartBulkPutItems, "
       "TagResource, TransactGetItems, TransactWriteItems, UntagResource, UpdateContinuousBackups, "
       "UpdateContributorInsights, UpdateGlobalTable, UpdateGlobalTableSettings, UpdateItem, "
       "UpdateKinesisStreamingDestination, UpdateTable, UpdateTableReplicaAutoScaling, UpdateTimeToLive, "
       "DescribeStream, GetRecords, GetShardIterator, ListStreams)"},
      {"POST", "/_dynapage/faults", R"({"error":"ThrottlingException","drop_connection":true})", 400, "BadRequest",
       "'error' and 'drop_connection' cannot be combined: a dropped connection answers nothing"},
      {"POST", "/_dynapage/faults", R"({"operation":"BatchWriteItem","unprocessed":0.5,"error":"ThrottlingException"})",
       400, "BadRequest",
       "'unprocessed' cannot be combined with 'error' or 'drop_connection': the batch would not run"},
      {"POST", "/_dynapage/faults?scope=mine", R"({"error":"ThrottlingException"})", 400, "BadRequest",
       "scope must be 'all' (every namespace), not \"mine\"; without it a route acts on the namespace of the "
       "request's credentials"},
      {"POST", "/_dynapage/clock", R"({"advance_ms":1000})", 400, "BadRequest",
       "the clock is the server's, shared by every namespace: change it with POST /_dynapage/clock?scope=all"},
      {"POST", "/_dynapage/chaos", R"({"table":"t"})", 400, "BadRequest", "'seed' is required"},
      {"POST", "/_dynapage/chaos", R"({"seed":-1})", 400, "BadRequest",
       "'seed' must be a whole number >= 0 and 'table' a non-empty string"},
      {"GET", "/_dynapage/pagination", "", 409, "FeatureOff",
       "the pagination audit is off: start dynapage with --audit-pagination"},
      {"GET", "/_dynapage/requests", "", 409, "FeatureOff",
       "the request log is off: start dynapage with --request-log FILE (or - for stdout)"},
      {"POST", "/_dynapage/reset?table=nope", "", 404, "TableNotFound", "no table named \"nope\""},
      {"POST", "/_dynapage/reset?tabel=tab", "", 400, "BadRequest",
       "unknown query parameter 'tabel' for POST /_dynapage/reset"},
      // The streams and TTL calls are admin routes too (their bad bodies are DynamoDB's ValidationException).
      {"GET", "/_dynapage/clock", "", 405, "MethodNotAllowed",
       "GET /_dynapage/clock is not allowed; /_dynapage/clock takes POST"},
      {"POST", "/_dynapage/ttl/sweep?table=tab", "{}", 400, "BadRequest",
       "unknown query parameter 'table' for POST /_dynapage/ttl/sweep"},
  };
  for (const Case& c : cases) {
    HttpResult r = Admin(server, c.method, c.path, c.body);
    EXPECT_EQ(c.status, r.status) << c.method << " " << c.path << " " << c.body;
    EXPECT_EQ("application/json", r.Header("Content-Type")) << c.path;
    ASSERT_TRUE(r.json.IsObject()) << r.Describe();
    EXPECT_EQ(c.error, std::string(r.json["error"].GetString())) << c.path << " " << c.body;
    EXPECT_EQ(c.message, std::string(r.json["message"].GetString())) << c.path << " " << c.body;
  }
  // Nothing was added by the refused rules.
  EXPECT_EQ(0u, Admin(server, "GET", "/_dynapage/faults").json["rules"].Size());
}

TEST(AdminApi, HealthReadyAndReset) {
  TestServer server;
  HttpResult r = Admin(server, "GET", "/_dynapage/health");
  EXPECT_EQ(200, r.status);
  EXPECT_EQ(R"({"status":"ok"})", r.body);
  r = Admin(server, "GET", "/_dynapage/ready");
  EXPECT_EQ(200, r.status);
  EXPECT_EQ(R"({"ready":true})", r.body);
  LoadTables(server, 5);
  r = Admin(server, "POST", "/_dynapage/reset?table=tab");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("tab", std::string(r.json["emptied"][0].GetString()));
  EXPECT_EQ(0, ItemCount(server, "tab"));
  EXPECT_EQ(5, ItemCount(server, "hsh"));
  // The table keeps its definition: its index is there, and it takes items again.
  r = server.Call("DescribeTable", R"({"TableName":"tab"})");
  EXPECT_EQ("by_g", std::string(r.json["Table"]["GlobalSecondaryIndexes"][0]["IndexName"].GetString()));
  EXPECT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"x"},"sk":{"S":"y"}}})").status);
  r = Admin(server, "POST", "/_dynapage/reset");
  ASSERT_EQ(200, r.status);
  EXPECT_EQ(2u, r.json["deleted"].Size());
  EXPECT_EQ(0u, server.Call("ListTables", "{}").json["TableNames"].Size());
}

// Each line tells a person what happened: who asked (access key, region), the error's message, why a page ended.
TEST(RequestLog, LinesNameTheCallerTheMessageAndWhyAPageEnded) {
  TestServerOptions options;
  options.bench.request_log = testing::TempDir() + "dynapage_request_log_fields.jsonl";
  options.max_page_bytes = 50;
  TestServer server(options);
  LoadTables(server, 10);
  ASSERT_EQ(200, server
                     .Call("Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p",
      "ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":2})")
                     .status);
  ASSERT_EQ(200, server
                     .Call("Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p",
      "ExpressionAttributeValues":{":p":{"S":"a"}}})")
                     .status);
  ASSERT_EQ(200, server
                     .Call("Query", R"({"TableName":"tab","KeyConditionExpression":"pk = :p",
      "ExpressionAttributeValues":{":p":{"S":"none"}}})")
                     .status);
  ASSERT_EQ(400, server.Call("GetItem", R"({"TableName":"nope","Key":{"pk":{"S":"a"}}})").status);
  HttpResult r = Admin(server, "GET", "/_dynapage/requests?limit=4");
  ASSERT_EQ(4u, r.json["requests"].Size()) << r.Describe();
  const rapidjson::Value& lines = r.json["requests"];
  EXPECT_EQ("AKID", std::string(lines[0]["access_key"].GetString()));
  EXPECT_EQ("us-east-1", std::string(lines[0]["region"].GetString()));
  EXPECT_EQ("limit", std::string(lines[0]["page_end"].GetString()));
  EXPECT_EQ("max-page-bytes", std::string(lines[1]["page_end"].GetString()));
  EXPECT_EQ("end", std::string(lines[2]["page_end"].GetString()));
  EXPECT_TRUE(lines[3]["page_end"].IsNull());
  EXPECT_EQ("ResourceNotFoundException", std::string(lines[3]["error"].GetString()));
  EXPECT_EQ("Requested resource not found", std::string(lines[3]["message"].GetString()));
}

// --log-format text: one line a person reads per request in the file; the admin view stays JSON.
TEST(RequestLog, TextFormat) {
  std::string path = testing::TempDir() + "dynapage_request_log_text.log";
  std::remove(path.c_str());
  TestServerOptions options;
  options.bench.request_log = path;
  options.bench.log_text = true;
  {
    TestServer server(options);
    ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
    ASSERT_EQ(400, server.Call("GetItem", R"({"TableName":"nope","Key":{"pk":{"S":"a"}}})").status);
    EXPECT_EQ(2u, Admin(server, "GET", "/_dynapage/requests").json["requests"].Size());
  }
  std::ifstream file(path);
  std::string create, get, more;
  ASSERT_TRUE(std::getline(file, create) && std::getline(file, get));
  EXPECT_FALSE(std::getline(file, more));
  EXPECT_NE(std::string::npos, create.find("Z AKID/us-east-1 CreateTable hsh -> 200 in ")) << create;
  EXPECT_NE(std::string::npos, get.find(" AKID/us-east-1 GetItem nope -> 400 in ")) << get;
  EXPECT_NE(std::string::npos, get.find(" ms: ResourceNotFoundException: Requested resource not found")) << get;
}

// The log's memory is bounded in bytes: a long field is cut with a marker, and the recent lines are bounded.
TEST(RequestLog, MemoryIsBoundedInBytes) {
  TestServerOptions options;
  options.bench.request_log = testing::TempDir() + "dynapage_request_log_bound.jsonl";
  TestServer server(options);
  const std::string long_name(2 * 1024 * 1024, 'n');
  for (int i = 0; i < 8; i++) {
    HttpResult r = server.Call("GetItem", R"({"TableName":")" + long_name + R"(","Key":{"pk":{"S":"a"}}})");
    ASSERT_EQ(400, r.status);
  }
  HttpResult r = Admin(server, "GET", "/_dynapage/requests?limit=1000");
  ASSERT_EQ(8u, r.json["requests"].Size()) << r.status;
  EXPECT_LT(r.body.size(), 8u * 4096) << "each line holds at most a few KB";
  std::string table = r.json["requests"][0]["table"].GetString();
  EXPECT_EQ(std::string(1024, 'n') + "\u2026[2097152 bytes]", table);
}

TEST(RequestLog, OneLinePerRequestAndTheRecentOnes) {
  std::string path = testing::TempDir() + "dynapage_request_log_test.jsonl";
  std::remove(path.c_str());
  TestServerOptions options;
  options.bench.request_log = path;
  options.bench.page_chaos_seed = 5;
  {
    TestServer server(options);
    ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
    for (int i = 0; i < 3; i++) {
      ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"hsh","Item":{"pk":{"S":"k)" + Pad(i) + R"("}}})").status);
    }
    EXPECT_EQ("ValidationException", server.Call("Scan", R"({"TableName":"hsh","Limit":0})").ErrorName());
    HttpResult scan = server.Call("Scan", R"({"TableName":"hsh","Limit":2})");
    HttpResult r = Admin(server, "GET", "/_dynapage/requests?limit=2");
    ASSERT_EQ(200, r.status) << r.Describe();
    ASSERT_EQ(2u, r.json["requests"].Size());
    const rapidjson::Value& failed = r.json["requests"][0];
    EXPECT_EQ("Scan", std::string(failed["operation"].GetString()));
    EXPECT_EQ(400, failed["status"].GetInt());
    EXPECT_EQ("ValidationException", std::string(failed["error"].GetString()));
    const rapidjson::Value& last = r.json["requests"][1];
    EXPECT_EQ(scan.Header("x-amzn-RequestId"), std::string(last["request_id"].GetString()));
    EXPECT_EQ("hsh", std::string(last["table"].GetString()));
    EXPECT_EQ(200, last["status"].GetInt());
    EXPECT_TRUE(last["error"].IsNull());
    EXPECT_EQ(scan.json["Count"].GetUint64(), last["items_returned"].GetUint64());
    EXPECT_EQ(scan.json["ScannedCount"].GetUint64(), last["items_evaluated"].GetUint64());
    EXPECT_EQ(scan.Has("LastEvaluatedKey"), last["last_evaluated_key"].GetBool());
    EXPECT_FALSE(last["exclusive_start_key"].GetBool());
    EXPECT_TRUE(last["latency_ms"].IsNumber());
    EXPECT_EQ(400, Admin(server, "GET", "/_dynapage/requests?limit=0").status);
  }
  std::ifstream file(path);
  std::string line;
  int lines = 0;
  while (std::getline(file, line)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    EXPECT_TRUE(d.IsObject()) << line;
    lines++;
  }
  EXPECT_EQ(6, lines);  // CreateTable, 3 PutItem, 2 Scan
}

TEST(Metrics, CountWhatWasSent) {
  TestServerOptions options;
  options.bench.metrics = true;
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
  for (int i = 0; i < 4; i++) {
    ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"hsh","Item":{"pk":{"S":"k)" + Pad(i) + R"("}}})").status);
  }
  EXPECT_EQ(400, server.Call("GetItem", R"({"TableName":"hsh"})").status);
  ASSERT_EQ(200, server.Call("Scan", R"({"TableName":"hsh","Limit":3})").status);
  HttpResult r = Admin(server, "GET", "/metrics");
  ASSERT_EQ(200, r.status);
  EXPECT_EQ("text/plain; version=0.0.4", r.Header("Content-Type"));
  for (const char* line :
       {"dynapage_requests_total{operation=\"PutItem\",status=\"200\"} 4\n",
        "dynapage_requests_total{operation=\"GetItem\",status=\"400\"} 1\n",
        "dynapage_requests_total{operation=\"Scan\",status=\"200\"} 1\n", "dynapage_request_duration_seconds_count 7\n",
        "dynapage_items_written_total 4\n", "dynapage_items_read_total 3\n", "dynapage_pages_total 1\n",
        "dynapage_continuations_issued_total 1\n", "dynapage_tables 1\n", "dynapage_items 4\n"}) {
    EXPECT_NE(std::string::npos, r.body.find(line)) << line << " in\n" << r.body;
  }
}

TEST(Metrics, GaugesWithoutCounting) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("hsh", "pk", "S").status);
  HttpResult r = Admin(server, "GET", "/metrics");
  ASSERT_EQ(200, r.status);
  EXPECT_EQ(std::string::npos, r.body.find("dynapage_requests_total"));
  EXPECT_NE(std::string::npos, r.body.find("dynapage_tables 1\n"));
  EXPECT_NE(std::string::npos, r.body.find("process_resident_memory_bytes "));
}

}  // namespace
}  // namespace dynapage
