#include "tests/http/http_test_util.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <strings.h>
#include <netinet/in.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "server/http/http_server.h"

namespace dynapage {

const char kTestAuthorization[] =
    "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=host;x-amz-date, Signature=abc";

namespace {

void ParseBody(HttpResult* r) {
  r->json.SetNull();
  r->json.Parse(r->body.data(), r->body.size());
  if (r->json.HasParseError()) r->json.SetNull();
}

HttpResult FromHttplib(const httplib::Result& result) {
  HttpResult r;
  if (!result) return r;
  r.status = result->status;
  r.headers.insert(result->headers.begin(), result->headers.end());
  r.body = result->body;
  ParseBody(&r);
  return r;
}

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "TestServer: %s\n", what.c_str());
  std::abort();
}

}  // namespace

bool HeaderNameLess::operator()(const std::string& a, const std::string& b) const {
  return ::strcasecmp(a.c_str(), b.c_str()) < 0;
}

std::string HttpResult::Header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

bool HttpResult::HasHeader(const std::string& name) const { return headers.find(name) != headers.end(); }

bool HttpResult::Has(const char* member) const { return json.IsObject() && json.HasMember(member); }

std::string HttpResult::ErrorType() const {
  if (!Has("__type") || !json["__type"].IsString()) return "";
  return json["__type"].GetString();
}

std::string HttpResult::ErrorName() const {
  std::string type = ErrorType();
  size_t hash = type.rfind('#');
  return hash == std::string::npos ? type : type.substr(hash + 1);
}

std::string HttpResult::Message() const {
  for (const char* key : {"message", "Message"}) {
    if (Has(key) && json[key].IsString()) return json[key].GetString();
  }
  return "";
}

std::string HttpResult::Describe() const {
  std::string out = "HTTP " + std::to_string(status) + " ";
  out += body.size() > 300 ? body.substr(0, 300) + "…" : body;
  return out;
}

HttpHeaders DynamoHeaders(const std::string& operation) {
  return HttpHeaders{
      {"Content-Type", "application/x-amz-json-1.0"},
      {"X-Amz-Target", "DynamoDB_20120810." + operation},
      {"Authorization", kTestAuthorization},
      {"X-Amz-Date", "20260101T000000Z"},
  };
}

TestServer::TestServer() { Start(TestServerOptions()); }

TestServer::TestServer(const TestServerOptions& options) { Start(options); }

void TestServer::Start(const TestServerOptions& options) {
  options_ = options;
  DatabaseOptions database;
  database.path = options.path;
  Status s = Database::Open(database, &db_);
  if (!s.ok()) Die("Database::Open: " + s.message());
  bench_ = std::make_unique<TestBench>(options.bench);
  std::string bench_error = bench_->Open();
  if (!bench_error.empty()) Die(bench_error);
  server_ = std::make_unique<HttpServer>();
  server_->set_options(options.http);
  port_ = options.loopback_both ? server_->BindLoopback(0) : server_->Bind("127.0.0.1", 0);
  if (port_ <= 0) Die("cannot bind 127.0.0.1:0");
  ServiceOptions service;
  service.max_page_bytes = options.max_page_bytes;
  service.region = options.region;
  service.messages_pin = options.messages_pin;
  service.transient_status_ms = options.transient_status_ms;
  service.s3_dir = options.s3_dir;
  service.ttl_update_cooldown_ms = options.ttl_update_cooldown_ms;
  service.pitr_latest_lag_seconds = options.pitr_latest_lag_seconds;
  service.settable_clock = &clock_;
  RequestContext sweeper_context;
  sweeper_context.caller.region = options.region;
  sweeper_context.clock = &clock_;
  sweeper_ = std::make_unique<Sweeper>(db_.get(), sweeper_context, options.ttl_interval_ms);
  service_ = std::make_unique<Service>(db_.get(), service, bench_.get());
  service_->set_browser_guard(options.guard);
  thread_ = std::thread([this] { server_->Run(service_.get()); });
  client_ = std::make_unique<TestClient>(port_);
  // The socket listens from Bind() on, but Stop() only works once the accept loop runs: wait for an answer.
  if (!client_->AwaitAnswer(std::chrono::seconds(10))) Die("server did not answer GET / within 10 s");
}

TestServer::~TestServer() {
  client_.reset();
  if (server_) server_->Stop();
  if (thread_.joinable()) thread_.join();
  server_.reset();
  service_.reset();
  sweeper_.reset();
  bench_.reset();
  db_.reset();
}

HttpResult TestServer::Call(const std::string& operation, const std::string& body) {
  return client_->Call(operation, body);
}

HttpResult TestServer::Send(const HttpRequest& request) { return client_->Send(request); }

TestClient::TestClient(int port) : client_(std::make_unique<httplib::Client>("127.0.0.1", port)) {
  client_->set_keep_alive(true);
  client_->set_tcp_nodelay(true);  // headers and body go in two writes: without this, Nagle + delayed ACK add 40 ms
  client_->set_decompress(false);  // tests see the bytes on the wire (x-amz-crc32 is over them)
  client_->set_connection_timeout(5, 0);
  client_->set_read_timeout(60, 0);
  client_->set_write_timeout(60, 0);
}

TestClient::~TestClient() = default;

HttpResult TestClient::Call(const std::string& operation, const std::string& body) {
  HttpRequest request;
  request.headers = DynamoHeaders(operation);
  request.body = body;
  return Send(request);
}

HttpResult TestClient::Send(const HttpRequest& request) {
  httplib::Request req;
  req.method = request.method;
  req.path = request.path;
  req.headers.insert(request.headers.begin(), request.headers.end());
  req.body = request.body;
  return FromHttplib(client_->send(req));
}

bool TestClient::AwaitAnswer(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!client_->Get("/")) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

HttpResult TestServer::SendRaw(const std::string& bytes) {
  HttpResult r;
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return r;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port_));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return r;
  }
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  std::string answer;
  char buf[65536];
  while (true) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    answer.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  size_t head_end = answer.find("\r\n\r\n");
  if (head_end == std::string::npos || answer.compare(0, 5, "HTTP/") != 0) return r;
  size_t line_end = answer.find("\r\n");
  size_t space = answer.find(' ');
  r.status = std::atoi(answer.c_str() + space + 1);
  size_t pos = line_end + 2;
  while (pos < head_end) {
    size_t eol = answer.find("\r\n", pos);
    std::string line = answer.substr(pos, eol - pos);
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      size_t value = line.find_first_not_of(' ', colon + 1);
      r.headers.emplace(line.substr(0, colon), value == std::string::npos ? "" : line.substr(value));
    }
    pos = eol + 2;
  }
  r.body = answer.substr(head_end + 4);
  ParseBody(&r);
  return r;
}

HttpResult TestServer::CreateTable(const std::string& name, const std::string& hash_name, const std::string& hash_type,
                                   const std::string& range_name, const std::string& range_type) {
  std::string defs = R"({"AttributeName":")" + hash_name + R"(","AttributeType":")" + hash_type + R"("})";
  std::string keys = R"({"AttributeName":")" + hash_name + R"(","KeyType":"HASH"})";
  if (!range_name.empty()) {
    defs += R"(,{"AttributeName":")" + range_name + R"(","AttributeType":")" + range_type + R"("})";
    keys += R"(,{"AttributeName":")" + range_name + R"(","KeyType":"RANGE"})";
  }
  return Call("CreateTable", R"({"TableName":")" + name + R"(","AttributeDefinitions":[)" + defs +
                                 R"(],"KeySchema":[)" + keys + R"(],"BillingMode":"PAY_PER_REQUEST"})");
}

std::string JsonText(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string Canonical(const std::string& json_text) {
  rapidjson::Document doc;
  doc.Parse(json_text.data(), json_text.size());
  if (doc.HasParseError()) throw std::invalid_argument("Canonical(): not JSON: " + json_text);
  return JsonText(doc);
}

uint32_t Crc32(const std::string& bytes) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

}  // namespace dynapage
