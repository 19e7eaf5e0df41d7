#include "server/http_server.h"

#include <httplib.h>

#include <cstdio>

namespace dynapage {

namespace {
constexpr size_t kWorkerThreads = 32;
}

HttpServer::HttpServer(Database* db) : dispatcher_(db), server_(new httplib::Server()) {
  server_->set_keep_alive_max_count(1u << 30);
  // Responses go out as header and body writes; without TCP_NODELAY, Nagle and delayed ACKs add ~40 ms a request.
  server_->set_tcp_nodelay(true);
  server_->set_keep_alive_timeout(120);
  server_->set_payload_max_length(kMaxRequestBytes);
  server_->new_task_queue = [] { return new httplib::ThreadPool(kWorkerThreads); };
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    WireRequest w;
    w.method = req.method;
    w.path = req.path;
    w.content_type = req.get_header_value("Content-Type");
    w.target = req.get_header_value("X-Amz-Target");
    w.authorization = req.get_header_value("Authorization");
    w.has_amz_date = req.has_header("X-Amz-Date") || req.has_header("Date");
    w.query_has_algorithm = req.has_param("X-Amz-Algorithm");
    w.body = req.body;
    WireResponse r = dispatcher_.Handle(w);
    res.status = r.status;
    res.set_header("x-amzn-RequestId", r.request_id);
    res.set_header("x-amz-crc32", std::to_string(r.crc32));
    res.set_header("Content-Type", r.content_type);
    res.body = std::move(r.body);
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

void HttpServer::Run() { server_->listen_after_bind(); }

void HttpServer::Stop() { server_->stop(); }

}  // namespace dynapage
