#include "server/http_server.h"

#include <httplib.h>

#include <chrono>
#include <thread>

namespace dynapage {

namespace {
constexpr int kMaxConnections = 4096;
constexpr auto kShutdownGrace = std::chrono::milliseconds(500);

// A thread per connection, created when the connection is accepted. The count is shared with the threads so
// that a thread outliving the queue (an idle keep-alive connection at shutdown) touches nothing freed.
class ConnectionThreads : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override {
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
}  // namespace

HttpServer::HttpServer(Database* db) : dispatcher_(db), server_(new httplib::Server()) {
  server_->set_keep_alive_max_count(1u << 30);
  server_->set_keep_alive_timeout(120);
  // Responses go out as header and body writes; without TCP_NODELAY, Nagle and delayed ACKs add ~40 ms a request.
  server_->set_tcp_nodelay(true);
  server_->set_payload_max_length(kMaxRequestBytes);
  // cpp-httplib's default also sets SO_REUSEPORT, which lets a second server bind a port already in use and
  // silently share its connections; a busy port must be an error instead.
  server_->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const char*>(&yes), sizeof(yes));
  });
  server_->new_task_queue = [] { return new ConnectionThreads(); };
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    if (!BeginRequest()) {
      res.status = 503;
      res.set_header("Connection", "close");
      return;
    }
    WireRequest w;
    w.method = req.method;
    w.path = req.path;
    w.content_type = req.get_header_value("Content-Type");
    w.target = req.get_header_value("X-Amz-Target");
    w.authorization = req.get_header_value("Authorization");
    w.has_amz_date = req.has_header("X-Amz-Date") || req.has_header("Date");
    w.query_has_algorithm = req.has_param("X-Amz-Algorithm");
    w.body = req.body;  // a view: the request outlives the dispatch
    WireResponse r = dispatcher_.Handle(w);
    res.status = r.status;
    res.set_header("x-amzn-RequestId", r.request_id);
    res.set_header("x-amz-crc32", std::to_string(r.crc32));
    res.set_header("Content-Type", r.content_type);
    res.body = std::move(r.body);
    EndRequest();
  };
  server_->Get(".*", handle);
  server_->Post(".*", handle);
  server_->Put(".*", handle);
  server_->Delete(".*", handle);
  server_->Patch(".*", handle);
}

HttpServer::~HttpServer() = default;

int HttpServer::Bind(const std::string& host, int port) {
  if (port == 0) return server_->bind_to_any_port(host);
  return server_->bind_to_port(host, port) ? port : -1;
}

void HttpServer::Run() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    run_started_ = true;
  }
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
