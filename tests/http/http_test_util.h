// Test support: an in-process dynapage (in-memory Database + HttpServer on 127.0.0.1, ephemeral port, own thread)
// and a small HTTP client that speaks DynamoDB's JSON protocol to it.
//
//   TestServer server;                                      // or TestServer server(options), TestServerOptions
//   ASSERT_EQ(200, server.CreateTable("t", "pk", "S").status);
//   HttpResult r = server.Call("PutItem", R"({"TableName":"t","Item":{"pk":{"S":"a"}}})");
//   EXPECT_EQ(200, r.status);
//   r = server.Call("GetItem", R"({"TableName":"nope","Key":{"pk":{"S":"a"}}})");
//   EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
//   EXPECT_EQ("Requested resource not found", r.Message());
//   EXPECT_EQ(R"({"S":"a"})", JsonText(r.json["Item"]["pk"]));   // check Has("Item") first: a missing member asserts
//
// Call() sends what an SDK sends: POST /, Content-Type application/x-amz-json-1.0, X-Amz-Target
// DynamoDB_20120810.<operation>, a well-formed (unverified) SigV4 Authorization header and X-Amz-Date. Send() and
// SendRaw() are for protocol tests that need other methods, headers or exact bytes. TestClient is a connection of
// its own, for tests that call from several threads.
//
// cpp-httplib stays behind this header (in http_test_util.cc): httplib.h alone costs a translation unit about 15 s
// of compiling, and some forty test files include this one.

#ifndef DYNAPAGE_TESTS_HTTP_HTTP_TEST_UTIL_H_
#define DYNAPAGE_TESTS_HTTP_HTTP_TEST_UTIL_H_

#include <rapidjson/document.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "engine/base/offset_clock.h"
#include "engine/base/request_context.h"
#include "engine/database/database.h"
#include "engine/database/sweeper.h"
#include "server/admin/test_bench.h"
#include "server/http/http_server.h"
#include "server/service/service.h"

namespace httplib {
class Client;
}

namespace dynapage {

// Orders header names without regard to case (RFC 9110 §5.1), so that find("content-type") finds "Content-Type".
struct HeaderNameLess {
  bool operator()(const std::string& a, const std::string& b) const;
};
using HttpHeaders = std::multimap<std::string, std::string, HeaderNameLess>;

// One HTTP answer. status is 0 if no answer arrived (connection refused, reset, …).
struct HttpResult {
  int status = 0;
  HttpHeaders headers;  // case-insensitive keys
  std::string body;
  rapidjson::Document json;  // the parsed body; json.IsObject() is false when the body is not a JSON object

  // The header's value, or "" when absent.
  std::string Header(const std::string& name) const;
  bool HasHeader(const std::string& name) const;
  // True if the body is a JSON object with this top-level member.
  bool Has(const char* member) const;
  // The full "__type" ("com.amazon.coral.validate#ValidationException"), or "".
  std::string ErrorType() const;
  // The part of __type after '#' ("ValidationException"), or "".
  std::string ErrorName() const;
  // "message", else "Message" (SerializationException's spelling), else "".
  std::string Message() const;
  // A one-line description for assertion output: status and body (cut to 300 bytes).
  std::string Describe() const;
};

// A request with full control over method, path, headers and body. No header is added except what httplib itself
// adds (Host, Content-Length, and Content-Type "text/plain" for a non-empty body that has none: use SendRaw() to
// send a body without Content-Type).
struct HttpRequest {
  std::string method = "POST";
  std::string path = "/";
  HttpHeaders headers;
  std::string body;
};

// The headers Call() sends for an operation (Content-Type, X-Amz-Target, Authorization, X-Amz-Date).
HttpHeaders DynamoHeaders(const std::string& operation);
// The dummy Authorization header value Call() sends.
extern const char kTestAuthorization[];

// A keep-alive client connection to 127.0.0.1:port (opened at the first request, reopened when the server closed it).
// Not thread-safe: one per thread.
class TestClient {
 public:
  explicit TestClient(int port);
  ~TestClient();
  TestClient(const TestClient&) = delete;
  TestClient& operator=(const TestClient&) = delete;

  // POSTs body as operation the way an SDK does (TestServer::Call).
  HttpResult Call(const std::string& operation, const std::string& body);
  HttpResult Send(const HttpRequest& request);
  // True once GET / gets an answer, trying every 2 ms; false if none came within timeout.
  bool AwaitAnswer(std::chrono::milliseconds timeout);

 private:
  std::unique_ptr<httplib::Client> client_;
};

// What a TestServer is started with: where its data lives and how it serves.
// us-east-1's envelope on DynamoDB's bespoke messages (dialects.md §1.2.1): the default message cohort puts
// "1 validation error detected: " before them, the legacy cohort does not.
inline std::string Enveloped(const std::string& message) { return "1 validation error detected: " + message; }

struct TestServerOptions {
  std::string path;  // empty: in memory
  uint64_t max_page_bytes = kDynamoDbPageBytes;
  std::string region = "us-east-1";
  std::optional<MessageCohorts> messages_pin;  // --messages
  HttpOptions http;                            // connection limit, CORS origins, request deadline
  BrowserGuardOptions guard;                   // --allow-host, --admin-cors
  bool loopback_both = false;                  // listen on 127.0.0.1 and ::1 (BindLoopback) instead of 127.0.0.1 only
  uint64_t transient_status_ms = 0;            // --transient-status-delay
  std::string s3_dir;                          // --s3-dir (empty: export, import and bulk put refused)
  int64_t ttl_update_cooldown_ms = 0;          // --ttl-update-cooldown
  int64_t pitr_latest_lag_seconds = 300;       // --pitr-latest-lag-seconds
  // The TTL sweeper's interval (0: none; POST /_dynapage/ttl/sweep still sweeps).
  int64_t ttl_interval_ms = 0;
  TestBenchOptions bench;  // page chaos, faults, audit, request log, metrics: all off by default
};

class TestServer {
 public:
  TestServer();
  explicit TestServer(const TestServerOptions& options);
  ~TestServer();
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  int port() const { return port_; }
  HttpServer& http() { return *server_; }
  Database& db() { return *db_; }
  // The server's clock, which POST /_dynapage/clock sets too.
  OffsetClock& clock() { return clock_; }
  TestBench& bench() { return *bench_; }
  const TestServerOptions& options() const { return options_; }

  // POSTs body as operation ("PutItem", "Query", …) the way an SDK does.
  HttpResult Call(const std::string& operation, const std::string& body);
  // Sends an arbitrary request.
  HttpResult Send(const HttpRequest& request);
  // Writes raw bytes to a new connection and reads the answer until the server closes it (send
  // "Connection: close"). Headers and body are split from the raw answer.
  HttpResult SendRaw(const std::string& bytes);

  // CreateTable with BillingMode PAY_PER_REQUEST; types are "S", "N" or "B". An empty range_name gives a
  // hash-only table.
  HttpResult CreateTable(const std::string& name, const std::string& hash_name, const std::string& hash_type,
                         const std::string& range_name = "", const std::string& range_type = "");

 private:
  void Start(const TestServerOptions& options);

  TestServerOptions options_;
  OffsetClock clock_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Sweeper> sweeper_;
  std::unique_ptr<TestBench> bench_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<HttpServer> server_;
  std::thread thread_;
  int port_ = -1;
  std::unique_ptr<TestClient> client_;
};

// The compact JSON text of a value, e.g. JsonText(r.json["Item"]) == R"({"pk":{"S":"a"}})". Members keep the
// order of the response.
std::string JsonText(const rapidjson::Value& value);
// Parses text (which must be valid JSON) and returns its compact text, so that a hand-written expectation with
// spaces can be compared with JsonText(): JsonText(r.json["Item"]) == Canonical(R"({ "pk": {"S": "a"} })").
std::string Canonical(const std::string& json_text);
// CRC-32 (zlib) of bytes, as DynamoDB puts it in x-amz-crc32.
uint32_t Crc32(const std::string& bytes);

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_HTTP_HTTP_TEST_UTIL_H_
