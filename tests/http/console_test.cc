// The console's routes (server/console/console_routes.h, docs/console.md): its files with their content types,
// caching headers and a strict Content-Security-Policy, nothing but GET, 404 for what it does not have; no state
// change from another origin, while dynapage's own page may use the admin API; the read-only views; and the request
// log the console reads: kept in memory only while the console watches, each line naming its continuations.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "server/admin/browser_guard.h"
#include "server/admin/logged_continuation.h"
#include "server/console/console_routes.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

HttpRequest Get(const std::string& path) {
  HttpRequest request;
  request.method = "GET";
  request.path = path;
  request.headers.emplace("Accept-Encoding", "identity");
  return request;
}

HttpRequest JsonRequest(const std::string& method, const std::string& path, const std::string& body) {
  HttpRequest request = Get(path);
  request.method = method;
  request.headers.emplace("Content-Type", "application/json");
  request.body = body;
  return request;
}

std::string OwnOrigin(TestServer& server) { return "http://127.0.0.1:" + std::to_string(server.port()); }

TEST(Console, ServesItsFilesWithTypesCachingAndAStrictPolicy) {
  TestServer server;
  struct Expected {
    const char* path;
    const char* content_type;
    const char* contains;
  };
  for (const Expected& e : {Expected{"/_dynapage/console/", "text/html; charset=utf-8", "<main id=\"main\""},
                            Expected{"/_dynapage/console", "text/html; charset=utf-8", "<main id=\"main\""},
                            Expected{"/_dynapage/console/?access_key=AKID&region=eu-west-1", "text/html; charset=utf-8",
                                     "<main id=\"main\""},
                            Expected{"/_dynapage/console/index.html", "text/html; charset=utf-8", "<nav"},
                            Expected{"/_dynapage/console/console.js", "text/javascript; charset=utf-8", "'use strict'"},
                            Expected{"/_dynapage/console/console.css", "text/css; charset=utf-8", ".chain-page"}}) {
    HttpResult r = server.Send(Get(e.path));
    ASSERT_EQ(200, r.status) << e.path << r.Describe();
    EXPECT_EQ(e.content_type, r.Header("Content-Type")) << e.path;
    EXPECT_NE(std::string::npos, r.body.find(e.contains)) << e.path;
    EXPECT_EQ(kConsoleSecurityPolicy, r.Header("Content-Security-Policy")) << e.path;
    EXPECT_NE(std::string::npos, r.Header("Content-Security-Policy").find("default-src 'self'"));
    EXPECT_EQ("no-cache", r.Header("Cache-Control")) << e.path;
    EXPECT_EQ("nosniff", r.Header("X-Content-Type-Options")) << e.path;
    EXPECT_EQ("DENY", r.Header("X-Frame-Options")) << e.path;
    // No request leaves for elsewhere: no absolute URL in any file, no inline script or style for the policy to
    // refuse.
    EXPECT_EQ(std::string::npos, r.body.find("https://")) << e.path;
    EXPECT_EQ(std::string::npos, r.body.find("http://")) << e.path;
    EXPECT_EQ(std::string::npos, r.body.find("<script>")) << e.path;
    EXPECT_EQ(std::string::npos, r.body.find("style=")) << e.path;
  }
  // The JSON views are never kept.
  HttpResult r = server.Send(Get("/_dynapage/console/namespaces"));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("application/json", r.Header("Content-Type"));
  EXPECT_EQ("no-store", r.Header("Cache-Control"));
  EXPECT_EQ(kConsoleSecurityPolicy, r.Header("Content-Security-Policy"));
}

TEST(Console, ContentTypesByExtension) {
  EXPECT_EQ("text/html; charset=utf-8", ConsoleContentType("index.html"));
  EXPECT_EQ("text/javascript; charset=utf-8", ConsoleContentType("console.js"));
  EXPECT_EQ("text/css; charset=utf-8", ConsoleContentType("console.css"));
  EXPECT_EQ("image/png", ConsoleContentType("a.png"));
  EXPECT_EQ("application/octet-stream", ConsoleContentType("README"));
}

TEST(Console, OnlyGetAndNothingElse) {
  TestServer server;
  HttpResult r = server.Send(Get("/_dynapage/console/missing.js"));
  EXPECT_EQ(404, r.status) << r.Describe();
  EXPECT_EQ("NotFound", std::string(r.json["error"].GetString()));
  r = server.Send(Get("/_dynapage/console/?debug=1"));
  EXPECT_EQ(400, r.status) << r.Describe();
  for (const char* method : {"POST", "DELETE"}) {
    for (const char* path : {"/_dynapage/console/", "/_dynapage/console/console.js", "/_dynapage/console/namespaces",
                             "/_dynapage/console/requests"}) {
      r = server.Send(JsonRequest(method, path, "{}"));
      EXPECT_EQ(405, r.status) << method << " " << path << r.Describe();
      EXPECT_EQ("MethodNotAllowed", std::string(r.json["error"].GetString()));
    }
  }
  r = server.Send(Get("/_dynapage/console/requests?limit=0"));
  EXPECT_EQ(400, r.status) << r.Describe();
}

TEST(Console, AnotherOriginChangesNothingAndReadsNothing) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tab", "pk", "S").status);
  for (const char* path : {"/_dynapage/console/", "/_dynapage/console/namespaces", "/_dynapage/console/requests"}) {
    HttpRequest foreign = Get(path);
    foreign.headers.emplace("Origin", "http://evil.example");
    HttpResult r = server.Send(foreign);
    EXPECT_EQ(403, r.status) << path << r.Describe();
    EXPECT_EQ("ForbiddenOrigin", std::string(r.json["error"].GetString()));
  }
  // The admin calls the console makes, from another origin (also one that differs only in the port or scheme).
  const std::vector<std::string> origins = {"http://evil.example", "http://127.0.0.1:1",
                                            "https://127.0.0.1:" + std::to_string(server.port()), "null"};
  for (const std::string& origin : origins) {
    HttpRequest chaos = JsonRequest("POST", "/_dynapage/chaos", R"({"seed":1})");
    chaos.headers.emplace("Origin", origin);
    EXPECT_EQ(403, server.Send(chaos).status) << origin;
    HttpRequest reset = JsonRequest("POST", "/_dynapage/reset", "{}");
    reset.headers.emplace("Origin", origin);
    EXPECT_EQ(403, server.Send(reset).status) << origin;
  }
  EXPECT_EQ(R"({"seed":null,"tables":{},"scope":"all"})", server.Send(Get("/_dynapage/chaos")).body);
  EXPECT_EQ(200, server.Call("DescribeTable", R"({"TableName":"tab"})").status);
}

TEST(Console, ItsOwnPageUsesTheAdminApiUnderTheSameRules) {
  TestServer server;
  HttpRequest chaos = JsonRequest("POST", "/_dynapage/chaos", R"({"seed":5})");
  chaos.headers.emplace("Origin", OwnOrigin(server));
  HttpResult r = server.Send(chaos);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(5, r.json["seed"].GetInt());
  // Still JSON only: a form from its own origin changes nothing either.
  HttpRequest form = Get("/_dynapage/chaos");
  form.method = "DELETE";
  form.headers.emplace("Content-Type", "text/plain");
  form.headers.emplace("Origin", OwnOrigin(server));
  EXPECT_EQ(415, server.Send(form).status);
  EXPECT_EQ(5, server.Send(Get("/_dynapage/chaos")).json["seed"].GetInt());
}

TEST(Console, OwnOriginIsAThisMachineNameOnly) {
  BrowserGuardOptions options;
  GuardedRequest request;
  request.method = "POST";
  request.path = "/_dynapage/chaos";
  request.content_type = "application/json";
  struct Case {
    const char* host;
    const char* origin;
    bool own;
  };
  for (const Case& c : {Case{"localhost:8000", "http://localhost:8000", true},
                        Case{"127.0.0.1:8000", "http://127.0.0.1:8000", true},
                        Case{"[::1]:8000", "http://[::1]:8000", true},
                        Case{"LOCALHOST:8000", "http://localhost:8000", true},
                        Case{"localhost:8000", "http://localhost:8001", false},
                        Case{"localhost:8000", "https://localhost:8000", false},
                        Case{"localhost:8000", "http://localhost:8000/", false},
                        Case{"localhost:8000", "", false},
                        Case{"", "http://", false},
                        // DNS rebinding: the page's own name is both Host and Origin. Refused even when bound to
                        // 0.0.0.0, where the Host check does not apply.
                        Case{"evil.example:8000", "http://evil.example:8000", false},
                        Case{"dev.test:8000", "http://dev.test:8000", false}}) {
    request.host = c.host;
    request.origin = c.origin;
    request.loopback_only = false;
    EXPECT_EQ(c.own, IsOwnOrigin(request, options)) << c.host << " " << c.origin;
    WireResponse refusal;
    EXPECT_EQ(!c.own && *c.origin, RefuseBrowserRequest(request, options, &refusal)) << c.host << " " << c.origin;
  }
  options.allowed_hosts = {"dev.test"};  // --allow-host dev.test
  request.host = "dev.test:8000";
  request.origin = "http://dev.test:8000";
  EXPECT_TRUE(IsOwnOrigin(request, options));
}

TEST(Console, NamespacesView) {
  TestServerOptions options;
  options.max_page_bytes = 4096;
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("one", "pk", "S").status);
  ASSERT_EQ(200, server.CreateTable("two", "pk", "S").status);
  HttpResult r = server.Send(Get("/_dynapage/console/namespaces"));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("shared", std::string(r.json["mode"].GetString()));
  EXPECT_EQ(4096, r.json["max_page_bytes"].GetInt());
  EXPECT_EQ("us-east-1", std::string(r.json["caller"]["region"].GetString()));
  ASSERT_EQ(1u, r.json["namespaces"].Size());
  EXPECT_EQ(2, r.json["namespaces"][0]["tables"].GetInt());
}

// A table "pages" of 5 items under one partition key, read with Limit 2: 3 pages.
void LoadPages(TestServer& server) {
  ASSERT_EQ(200, server.CreateTable("pages", "pk", "S", "sk", "N").status);
  for (int i = 0; i < 5; i++) {
    ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"pages","Item":{"pk":{"S":"p"},"sk":{"N":")" +
                                              std::to_string(i) + R"("}}})")
                       .status);
  }
}

HttpResult QueryPage(TestServer& server, const std::string& start) {
  std::string body = R"({"TableName":"pages","KeyConditionExpression":"pk = :p","Limit":2,)"
                     R"("ExpressionAttributeValues":{":p":{"S":"p"}})";
  if (!start.empty()) body += R"(,"ExclusiveStartKey":)" + start;
  return server.Call("Query", body + "}");
}

TEST(Console, RequestLogLinksThePagesOfAChain) {
  TestServer server;
  LoadPages(server);
  // Without --request-log the admin API's log is off until the console asks for it.
  EXPECT_EQ(409, server.Send(Get("/_dynapage/requests")).status);
  HttpResult watch = server.Send(Get("/_dynapage/console/requests"));
  ASSERT_EQ(200, watch.status) << watch.Describe();
  EXPECT_EQ("memory", std::string(watch.json["recording"].GetString()));
  EXPECT_EQ(0u, watch.json["requests"].Size());
  std::string start;
  std::vector<std::string> handed_out;
  do {
    HttpResult page = QueryPage(server, start);
    ASSERT_EQ(200, page.status) << page.Describe();
    start = page.Has("LastEvaluatedKey") ? JsonText(page.json["LastEvaluatedKey"]) : "";
    handed_out.push_back(start);
  } while (!start.empty());
  ASSERT_EQ(3u, handed_out.size());
  HttpResult log = server.Send(Get("/_dynapage/console/requests?limit=3"));
  ASSERT_EQ(200, log.status) << log.Describe();
  const rapidjson::Value& lines = log.json["requests"];
  ASSERT_EQ(3u, lines.Size());
  for (rapidjson::SizeType i = 0; i < lines.Size(); i++) {
    const rapidjson::Value& line = lines[i];
    EXPECT_EQ("Query", std::string(line["operation"].GetString()));
    if (i == 0) {
      EXPECT_TRUE(line["start_key"].IsNull());
    } else {
      EXPECT_EQ(handed_out[i - 1], std::string(line["start_key"].GetString()));
    }
    if (handed_out[i].empty()) {
      EXPECT_TRUE(line["next_key"].IsNull());
    } else {
      EXPECT_EQ(handed_out[i], std::string(line["next_key"].GetString()));
    }
  }
  // While the console watches, the admin API's view reads the same lines.
  EXPECT_EQ(200, server.Send(Get("/_dynapage/requests")).status);
}

TEST(Console, AClosedConsoleCostsRequestsNothing) {
  TestServerOptions options;
  options.bench.console_watch_ms = 50;
  TestServer server(options);
  LoadPages(server);
  EXPECT_FALSE(server.bench().armed());
  ASSERT_EQ(200, server.Send(Get("/_dynapage/console/requests")).status);
  EXPECT_TRUE(server.bench().armed());
  ASSERT_EQ(200, QueryPage(server, "").status);
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  // The first request after the watch ended stops the recording; it and later ones are not logged.
  ASSERT_EQ(200, QueryPage(server, "").status);
  EXPECT_FALSE(server.bench().armed());
  ASSERT_EQ(200, QueryPage(server, "").status);
  HttpResult log = server.Send(Get("/_dynapage/requests"));
  ASSERT_EQ(200, log.status) << log.Describe();
  EXPECT_EQ(1u, log.json["requests"].Size()) << log.body;
}

TEST(Console, ContinuationsOfEachOperation) {
  auto parse = [](const char* text) {
    rapidjson::Document d;
    d.Parse(text);
    return d;
  };
  rapidjson::Document query = parse(R"({"TableName":"t","ExclusiveStartKey":{"pk":{"S":"a"}}})");
  // An item's attribute named LastEvaluatedKey is not the answer's: without the counters' word there is none.
  std::string answer = R"({"Items":[{"LastEvaluatedKey":{"S":"x"}}],"Count":1,"ScannedCount":1})";
  LoggedContinuation c = ContinuationOf("Query", query, answer, false);
  EXPECT_EQ(R"({"pk":{"S":"a"}})", c.start);
  EXPECT_EQ("", c.next);
  answer = R"({"Items":[{"LastEvaluatedKey":{"S":"x"}}],"Count":1,"ScannedCount":1,)"
           R"("LastEvaluatedKey":{"pk":{"S":"b"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}})";
  c = ContinuationOf("Query", query, answer, true);
  EXPECT_EQ(R"({"pk":{"S":"b"}})", c.next);
  c = ContinuationOf("ExecuteStatement", parse(R"({"Statement":"SELECT","NextToken":"abc"})"),
                     R"({"Items":[{"NextToken":{"S":"no"}}],"NextToken":"def"})", false);
  EXPECT_EQ(R"("abc")", c.start);
  EXPECT_EQ(R"("def")", c.next);
  c = ContinuationOf("GetRecords", parse(R"({"ShardIterator":"it1"})"),
                     R"({"Records":[],"NextShardIterator":"it2"})", false);
  EXPECT_EQ(R"("it1")", c.start);
  EXPECT_EQ(R"("it2")", c.next);
  c = ContinuationOf("GetRecords", parse(R"({"ShardIterator":"it1"})"), R"({"Records":[]})", false);
  EXPECT_EQ("", c.next);
  c = ContinuationOf("ListTables", parse("{}"), R"({"TableNames":["a"],"LastEvaluatedTableName":"a"})", false);
  EXPECT_EQ("", c.start);
  EXPECT_EQ(R"("a")", c.next);
  c = ContinuationOf("GetItem", query, R"({"Item":{}})", true);
  EXPECT_EQ("", c.start);
  EXPECT_EQ("", c.next);
  // A failed request's answer is not read; a body that is not an object is nothing.
  c = ContinuationOf("Query", parse("[1]"), "", true);
  EXPECT_EQ("", c.start);
  EXPECT_EQ("", c.next);
}

}  // namespace
}  // namespace dynapage
