// What a web page may not send (server/admin/browser_guard.h, docs/robustness.md "Security model"): cross-site forms,
// text/plain fetches, preflights from unknown origins and DNS-rebound requests with a foreign Host are refused and
// change nothing; the DynamoDB API's CORS for SDKs in browsers is as before.

#include <gtest/gtest.h>

#include <string>

#include "server/admin/browser_guard.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

HttpRequest Request(const std::string& method, const std::string& path, const std::string& content_type,
                    const std::string& body = "") {
  HttpRequest request;
  request.method = method;
  request.path = path;
  if (!content_type.empty()) request.headers.emplace("Content-Type", content_type);
  request.headers.emplace("Accept-Encoding", "identity");
  request.body = body;
  return request;
}

// A browser's CORS preflight of a POST from origin.
HttpRequest Preflight(const std::string& path, const std::string& origin) {
  HttpRequest request = Request("OPTIONS", path, "");
  request.headers.emplace("Origin", origin);
  request.headers.emplace("Access-Control-Request-Method", "POST");
  request.headers.emplace("Access-Control-Request-Headers", "content-type");
  return request;
}

HttpResult AdminGet(TestServer& server, const std::string& path) { return server.Send(Request("GET", path, "")); }

// A table "tab" with one item.
void LoadTable(TestServer& server) {
  ASSERT_EQ(200, server.CreateTable("tab", "pk", "S").status);
  ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"a"}}})").status);
}

void ExpectNothingChanged(TestServer& server) {
  HttpResult r = server.Call("Scan", R"({"TableName":"tab"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(1, r.json["Count"].GetInt());
  EXPECT_EQ(R"({"rules":[]})", AdminGet(server, "/_dynapage/faults").body);
  EXPECT_EQ(R"({"seed":null,"tables":{},"scope":"all"})", AdminGet(server, "/_dynapage/chaos").body);
}

TEST(BrowserGuard, LoopbackHostNames) {
  for (const char* host : {"localhost", "LOCALHOST:8000", "localhost.", "dynamodb.localhost:8000", "127.0.0.1",
                           "127.0.0.1:8000", "127.1.2.3:1", "[::1]", "[::1]:8000", "[::ffff:127.0.0.1]:8000"}) {
    EXPECT_TRUE(IsLoopbackHost(host)) << host;
  }
  for (const char* host : {"evil.example", "evil.example:8000", "localhost.evil.example", "128.0.0.1", "10.0.0.1:8000",
                           "[::2]:8000", "0.0.0.0", "", "localhost:8000@evil"}) {
    EXPECT_FALSE(IsLoopbackHost(host)) << host;
  }
}

// A thread remembers the last loopback Host it saw (a client sends the same one every time): what it remembers
// answers only for that very Host, never for one that extends it or differs from it by a byte.
TEST(BrowserGuard, ARememberedLoopbackHostAnswersOnlyForItself) {
  for (const char* foreign :
       {"127.0.0.1:8000@evil", "127.0.0.1.evil:8000", "128.0.0.1:8000", "127.0.0.1:8000x", "evil.example:8000"}) {
    ASSERT_TRUE(IsLoopbackHost("127.0.0.1:8000"));
    EXPECT_FALSE(IsLoopbackHost(foreign)) << foreign;
  }
  const std::string long_name = std::string(100, 'a') + ".localhost";  // too long to remember: looked at each time
  EXPECT_TRUE(IsLoopbackHost(long_name));
  EXPECT_FALSE(IsLoopbackHost(std::string(100, 'a') + ".localhost.evil"));
}

TEST(BrowserGuard, BrowserShapedRequestsAreRefusedAndChangeNothing) {
  TestServer server;
  LoadTable(server);
  // A cross-site HTML form: application/x-www-form-urlencoded, no preflight.
  HttpRequest form = Request("POST", "/_dynapage/reset", "application/x-www-form-urlencoded", "a=b");
  form.headers.emplace("Origin", "http://evil.example");
  HttpResult r = server.Send(form);
  EXPECT_EQ(403, r.status) << r.Describe();
  EXPECT_EQ("ForbiddenOrigin", std::string(r.json["error"].GetString()));
  // The same without Origin (a browser that leaves it out): the content type alone refuses it.
  r = server.Send(Request("POST", "/_dynapage/reset", "application/x-www-form-urlencoded", "a=b"));
  EXPECT_EQ(415, r.status) << r.Describe();
  EXPECT_EQ("UnsupportedMediaType", std::string(r.json["error"].GetString()));
  // text/plain fetches (no preflight): fault rules, chaos, the clock, a reset.
  for (const auto& [path, body] : std::initializer_list<std::pair<const char*, const char*>>{
           {"/_dynapage/faults", R"({"drop_connection":true})"},
           {"/_dynapage/faults", R"({"latency_ms":5000})"},
           {"/_dynapage/chaos", R"({"seed":1})"},
           {"/_dynapage/clock?scope=all", R"({"advance_ms":86400000})"},
           {"/_dynapage/reset?scope=all", ""}}) {
    r = server.Send(Request("POST", path, "text/plain", body));
    EXPECT_EQ(415, r.status) << path << " " << r.Describe();
    HttpRequest fetch = Request("POST", path, "text/plain", body);
    fetch.headers.emplace("Origin", "http://evil.example");
    EXPECT_EQ(403, server.Send(fetch).status) << path;
  }
  EXPECT_EQ(415, server.Send(Request("DELETE", "/_dynapage/faults", "")).status);
  // A page that asks first is told no: the preflight of an admin route from an origin --admin-cors does not allow.
  r = server.Send(Preflight("/_dynapage/reset", "http://evil.example"));
  EXPECT_EQ(403, r.status) << r.Describe();
  EXPECT_NE(std::string::npos, r.body.find("--admin-cors")) << r.body;
  // DNS rebinding: the page's own name for 127.0.0.1, on the DynamoDB API and the admin API alike.
  HttpRequest rebound;
  rebound.headers = DynamoHeaders("DeleteTable");
  rebound.headers.emplace("Host", "evil.example:8000");
  rebound.body = R"({"TableName":"tab"})";
  r = server.Send(rebound);
  EXPECT_EQ(403, r.status) << r.Describe();
  EXPECT_EQ("com.amazon.coral.service#AccessDeniedException", r.ErrorType());
  EXPECT_NE(std::string::npos, r.Message().find("--allow-host evil.example")) << r.body;
  HttpRequest rebound_admin = Request("POST", "/_dynapage/reset", "application/json", "{}");
  rebound_admin.headers.emplace("Host", "evil.example");
  r = server.Send(rebound_admin);
  EXPECT_EQ(403, r.status) << r.Describe();
  EXPECT_EQ("ForbiddenHost", std::string(r.json["error"].GetString()));
  ExpectNothingChanged(server);
  // What a test (or curl with -H 'Content-Type: application/json') sends is served.
  r = server.Send(Request("POST", "/_dynapage/reset", "application/json; charset=utf-8"));
  EXPECT_EQ(200, r.status) << r.Describe();
}

TEST(BrowserGuard, AllowedHostsAndAdminOrigins) {
  TestServerOptions options;
  options.guard.allowed_hosts = {"dynapage.test"};
  options.guard.admin_cors_origins = {"http://app.test"};
  options.http.cors_origins = {"http://app.test"};
  TestServer server(options);
  LoadTable(server);
  HttpRequest named;
  named.headers = DynamoHeaders("ListTables");
  named.headers.emplace("Host", "DynaPage.Test:8000");
  named.body = "{}";
  EXPECT_EQ(200, server.Send(named).status);
  HttpResult r = server.Send(Preflight("/_dynapage/faults", "http://app.test"));
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("http://app.test", r.Header("Access-Control-Allow-Origin"));
  HttpRequest add =
      Request("POST", "/_dynapage/faults", "application/json", R"({"operation":"GetItem","latency_ms":1})");
  add.headers.emplace("Origin", "http://app.test");
  r = server.Send(add);
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("http://app.test", r.Header("Access-Control-Allow-Origin"));
}

// SDKs in browsers: the DynamoDB API's preflight answers any origin under the default --cors '*', as before.
TEST(BrowserGuard, DynamoDbApiCorsIsUnchanged) {
  TestServer server;
  HttpResult r = server.Send(Preflight("/", "http://app.test"));
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("*", r.Header("Access-Control-Allow-Origin"));
  HttpRequest call;
  call.headers = DynamoHeaders("ListTables");
  call.headers.emplace("Origin", "http://app.test");
  call.body = "{}";
  EXPECT_EQ(200, server.Send(call).status);
}

}  // namespace
}  // namespace dynapage
