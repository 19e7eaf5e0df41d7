#include "server/http/http_server.h"

#include <httplib.h>
#include <libdeflate.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "server/http/client_cpu_affinity.h"
#include "server/http/connection_stream.h"
#include "server/operations/operation_table.h"

namespace dynapage {

namespace {
constexpr int kMaxConnections = 4096;
constexpr auto kShutdownGrace = std::chrono::milliseconds(500);

// A thread per connection, created when the connection is accepted. The count is shared with the threads so
// that a thread outliving the queue (an idle keep-alive connection at shutdown) touches nothing freed.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  bool enqueue(std::function<void()> fn) override {
    std::shared_ptr<State> state = state_;
    {
      std::unique_lock<std::mutex> lock(state->mu);
      state->changed.wait(lock, [&] { return state->active < kMaxConnections; });
      state->active++;
    }
    std::thread([state, fn = std::move(fn)] {
      fn();
      std::lock_guard<std::mutex> lock(state->mu);
      state->active--;
      state->changed.notify_all();
    }).detach();
    return true;
  }

  // Gives open connections a moment to end; idle keep-alive connections are not waited for.
  void shutdown() override {
    std::unique_lock<std::mutex> lock(state_->mu);
    state_->changed.wait_for(lock, kShutdownGrace, [&] { return state_->active == 0; });
  }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable changed;
    int active = 0;
  };
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

// x-amzn-RequestId: 52 characters of [0-9A-Z], as DynamoDB's.
std::string NewRequestId() {
  static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string id(52, '0');
  // Twelve base-36 digits from each 64-bit draw (36^12 < 2^64): five draws instead of 52.
  uint64_t bits = 0;
  for (size_t i = 0; i < id.size(); i++) {
    if (i % 12 == 0) bits = rng();
    id[i] = kAlphabet[bits % 36];
    bits /= 36;
  }
  return id;
}

bool EqualsIgnoringCase(const std::string& a, const char* b, size_t b_size) {
  if (a.size() != b_size) return false;
  for (size_t i = 0; i < b_size; i++) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

// One pass over the headers, the first of repeated ones counting (as in Request::get_header_value): each of
// cpp-httplib's lookups would compare names through tolower() per character.
void ReadWireHeaders(const httplib::Headers& headers, WireRequest* w) {
  bool have_type = false, have_target = false, have_authorization = false;
  for (const auto& [name, value] : headers) {
    if (!have_type && EqualsIgnoringCase(name, "content-type", 12)) {
      w->content_type = value;
      have_type = true;
    } else if (!have_target && EqualsIgnoringCase(name, "x-amz-target", 12)) {
      w->target = value;
      have_target = true;
    } else if (!have_authorization && EqualsIgnoringCase(name, "authorization", 13)) {
      w->authorization = value;
      have_authorization = true;
    } else if (EqualsIgnoringCase(name, "x-amz-date", 10) || EqualsIgnoringCase(name, "date", 4)) {
      w->has_amz_date = true;
    }
  }
}
}  // namespace

// cpp-httplib parses requests and writes responses; this class owns the connection loop around them, so
// that each request costs one recv() and one send() (see ConnectionStream), and so that Stop() can end
// connections that sit idle between requests instead of leaving their threads blocked for the keep-alive
// timeout.
namespace {
// The socket of the connection this thread serves, for a fault rule that drops the connection.
thread_local socket_t current_socket = INVALID_SOCKET;
socket_t CurrentSocket() { return current_socket; }
}  // namespace

class HttpServer::ConnectionServer : public httplib::Server {
 public:
  // Ends idle connections now and busy ones after their current request.
  void CloseConnections() {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
    for (socket_t sock : open_) ::shutdown(sock, SHUT_RD);
  }

  ClientCpuAffinity& client_cpus() { return client_cpus_; }

 private:
  bool process_and_close_socket(socket_t sock) override {
    int yes = 1;
    setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
    timeval keep_alive{kKeepAliveSeconds, 0};
    setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &keep_alive, sizeof(keep_alive));
    setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &keep_alive, sizeof(keep_alive));
    bool ok = false;
    current_socket = sock;
    if (Register(sock)) {
      ClientCpuAffinity::Connection client_cpu(&client_cpus_, sock);
      ConnectionStream stream(sock, &client_cpu);
      std::string remote_ip, local_ip;  // for the request's remote_addr and local_addr
      int remote_port = 0, local_port = 0;
      stream.get_remote_ip_and_port(remote_ip, remote_port);
      stream.get_local_ip_and_port(local_ip, local_port);
      while (true) {
        bool connection_closed = false;
        ok = process_request(stream, remote_ip, remote_port, local_ip, local_port, /*close_connection=*/false,
                             connection_closed, nullptr);
        ok = stream.Flush() && ok;
        if (!ok || connection_closed || Closing()) break;
        client_cpu.AfterResponse();
      }
      Unregister(sock);
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }

  bool Register(socket_t sock) {
    std::lock_guard<std::mutex> lock(mu_);
    if (closing_) return false;
    open_.insert(sock);
    return true;
  }
  void Unregister(socket_t sock) {
    std::lock_guard<std::mutex> lock(mu_);
    open_.erase(sock);
  }
  bool Closing() {
    std::lock_guard<std::mutex> lock(mu_);
    return closing_;
  }

  ClientCpuAffinity client_cpus_;
  std::mutex mu_;
  std::set<socket_t> open_;  // guarded by mu_
  bool closing_ = false;     // guarded by mu_
};

HttpServer::HttpServer() : server_(new ConnectionServer()) {
  // Only what the Keep-Alive response header advertises: the connection loop above keeps connections open
  // for any number of requests, up to kKeepAliveSeconds apart.
  server_->set_keep_alive_max_count(1u << 30);
  server_->set_keep_alive_timeout(kKeepAliveSeconds);
  server_->set_payload_max_length(kMaxRequestBytes);
  // cpp-httplib's default also sets SO_REUSEPORT, which lets a second server bind a port already in use and
  // silently share its connections; a busy port must be an error instead.
  server_->set_socket_options([this](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const char*>(&yes), sizeof(yes));
    listener_ = sock;  // for Bind() to raise its backlog
  });
  server_->new_task_queue = [] { return new ConnectionThreads(); };
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    if (!BeginRequest()) {
      res.status = 503;
      res.set_header("Connection", "close");
      return;
    }
    // The request id is made before dispatch, so that everything the request does can name it.
    std::string request_id = NewRequestId();
    WireRequest w;
    w.request_id = request_id;
    w.method = req.method;
    w.path = req.path;
    ReadWireHeaders(req.headers, &w);
    w.query_has_algorithm = req.has_param("X-Amz-Algorithm");
    w.body = req.body;  // a view: the request outlives the dispatch
    WireResponse r;
    if (AdminApi::IsAdminPath(w.path)) {
      AdminRequest admin{w.method, w.path, {}, w.body};
      // The query string only: cpp-httplib's params also hold a form-encoded body's fields.
      size_t question = req.target.find('?');
      if (question != std::string::npos) {
        httplib::Params query;
        httplib::detail::parse_query_text(req.target.substr(question + 1), query);
        for (const auto& [name, value] : query) admin.query.emplace(name, value);
      }
      r = admin_->Handle(admin);
    } else {
      r = dispatcher_->Handle(w);
    }
    // An injected fault: the client sees the connection close without an answer.
    if (r.drop_connection) ::shutdown(CurrentSocket(), SHUT_RDWR);
    res.status = r.status;
    // Straight into the header map: set_header() would scan the value, which we made, for CR and LF.
    res.headers.emplace("Content-Type", std::move(r.content_type));
    res.headers.emplace("x-amzn-RequestId", std::move(request_id));
    res.body = std::move(r.body);
    EndRequest();
  };
  // cpp-httplib's own header writer makes a string and a write per header; one buffer for all is cheaper.
  server_->set_header_writer([](httplib::Stream& strm, httplib::Headers& headers) -> ssize_t {
    std::string text;
    text.reserve(256);
    for (const auto& [name, value] : headers) text.append(name).append(": ").append(value).append("\r\n");
    text.append("\r\n");
    return strm.write(text.data(), text.size());
  });
  // Runs for every response, cpp-httplib's own refusals (400, 413, ...) included, just before it is written and
  // after cpp-httplib has gzipped a compressible body for a client that accepts gzip: every response has a
  // request id (the dispatched ones have theirs already), and the CRC is of the bytes sent, as DynamoDB's is.
  server_->set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.headers.find("x-amzn-RequestId") == res.headers.end())
      res.headers.emplace("x-amzn-RequestId", NewRequestId());
    res.headers.emplace("x-amz-crc32", std::to_string(libdeflate_crc32(0, res.body.data(), res.body.size())));
  });
  server_->Get(".*", handle);
  server_->Post(".*", handle);
  server_->Put(".*", handle);
  server_->Delete(".*", handle);
  server_->Patch(".*", handle);
}

HttpServer::~HttpServer() = default;

void HttpServer::set_follow_client_cpu(bool follow) { server_->client_cpus().set_enabled(follow); }

int HttpServer::Bind(const std::string& host, int port) {
  int bound = port == 0 ? server_->bind_to_any_port(host) : (server_->bind_to_port(host, port) ? port : -1);
  // cpp-httplib listens with a backlog of 5. Connections now queue up while the database opens, and a client
  // beyond the queue would have its SYN dropped and retry only after a second; listen() again raises the limit.
  if (bound >= 0 && listener_ >= 0) ::listen(listener_, SOMAXCONN);
  return bound;
}

void HttpServer::Run(Database* db, const ServiceOptions& options) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    run_started_ = true;
  }
  if (!bench_) bench_ = (own_bench_ = std::make_unique<TestBench>(TestBenchOptions())).get();
  ServiceOptions service = options;
  service.hooks = bench_;
  dispatcher_ = std::make_unique<Dispatcher>(db, service, FindOperation);
  admin_ = std::make_unique<AdminApi>(db, bench_);
  server_->listen_after_bind();
  run_returned_ = true;
}

void HttpServer::Stop() {
  bool started;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    started = run_started_;
  }
  // Connections are ended first, so that Run() need not wait its grace period for idle ones.
  server_->CloseConnections();
  // cpp-httplib's stop() does nothing until its listener loop has begun, so a stop that comes just as Run()
  // starts (a SIGTERM right after start-up) is repeated until it takes.
  while (started && !run_returned_) {
    server_->stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void HttpServer::WaitForRequests() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [this] { return in_flight_ == 0; });
}

bool HttpServer::BeginRequest() {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return false;
  in_flight_++;
  return true;
}

void HttpServer::EndRequest() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--in_flight_ == 0) idle_.notify_all();
}

}  // namespace dynapage
