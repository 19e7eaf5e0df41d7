// HttpServer's answers: the request handler's route, CORS preflights, refusals of requests cpp-httplib or the
// framing checks could not accept, and the headers every answer has (request id, Date, x-amz-crc32, CORS).

#include <httplib.h>
#include <libdeflate.h>
#include <sys/socket.h>

#include <string>
#include <utility>

#include "server/http/answer_text.h"
#include "server/http/connection_server.h"
#include "server/http/connection_stream.h"
#include "server/http/content_encoding.h"
#include "server/http/http_server.h"
#include "server/http/request_framing.h"

namespace dynapage {

HttpAnswer HttpServer::RunHandler(const HttpRequestView& request, int socket) {
  HttpAnswer answer = handler_->Handle(request);
  // An injected fault: the client sees the connection close without an answer.
  if (answer.drop_connection) ::shutdown(socket, SHUT_RDWR);
  return answer;
}

void HttpServer::Answer(const httplib::Request& req, httplib::Response& res) {
  if (!BeginRequest()) {
    res.status = 503;
    res.set_header("Connection", "close");
    return;
  }
  // The request id is made before the handler runs, so that everything the request does can name it.
  RequestId request_id = NewRequestId();
  HttpRequestView request;
  request.request_id = request_id.view();
  request.method = req.method;
  request.path = req.path;
  size_t question = req.target.find('?');
  if (question != std::string::npos) request.query = std::string_view(req.target).substr(question + 1);
  ReadRequestHeaders(req.headers, &request);
  std::string reached_at;
  if (request.host.empty()) {  // HTTP/1.0 without Host: the address the connection came in on
    reached_at = req.local_addr.find(':') == std::string::npos ? req.local_addr : "[" + req.local_addr + "]";
    request.host = reached_at.append(":").append(std::to_string(req.local_port));
  }
  request.query_has_algorithm = req.has_param("X-Amz-Algorithm");
  request.loopback_only = loopback_only();
  request.body = req.body;  // a view: the request outlives the handler
  std::string decoded;
  HttpAnswer r;
  DecodeResult decode = DecodeResult::kOk;
  ContentEncoding encoding = CurrentFraming().encoding;
  if (encoding != ContentEncoding::kIdentity) {
    decode = DecodeBody(encoding, req.body, kMaxRequestBytes, &decoded);
    request.body = decoded;
  }
  if (decode != DecodeResult::kOk) {
    r.status = decode == DecodeResult::kTooLarge ? 413 : 400;
    r.body = RefusalBody(r.status, "The request body is not valid data of its Content-Encoding");
  } else {
    r = RunHandler(request, CurrentConnectionSocket());
  }
  res.status = r.status;
  // Straight into the header map: set_header() would scan the value, which we made, for CR and LF.
  res.headers.emplace("Content-Type", std::string(r.content_type));
  res.headers.emplace("x-amzn-RequestId", std::string(request_id.view()));
  for (auto& [name, value] : r.headers) res.headers.emplace(std::move(name), std::move(value));
  if (cors_header_lines_.empty() && !request.origin.empty() &&
      OriginAllowed(CrossOriginOrigins(request.path), request.origin)) {
    res.headers.emplace("Access-Control-Allow-Origin", std::string(request.origin));
    res.headers.emplace("Access-Control-Expose-Headers", kExposedHeaders);
    res.headers.emplace("Vary", "Origin");
  }
  res.body = std::move(r.body);
  EndRequest();
}

void HttpServer::AnswerPreflight(const httplib::Request& req, httplib::Response& res) {
  res.status = 200;
  HttpRequestView request;
  request.method = req.method;
  request.path = req.path;
  ReadRequestHeaders(req.headers, &request);
  request.loopback_only = loopback_only();
  HttpAnswer refusal;
  if (handler_->RefusePreflight(request, &refusal)) {
    res.status = refusal.status;
    res.set_content(std::move(refusal.body), std::string(refusal.content_type));
    return;
  }
  // With the constant "any origin" lines, the server's own rule needs no look at the origin; a path with a rule of
  // its own does.
  CrossOriginRule rule = handler_->CrossOrigin(request.path);
  if (cors_header_lines_.empty() || rule.origins) {
    if (request.origin.empty() || !OriginAllowed(rule.origins ? *rule.origins : options_.cors_origins, request.origin))
      return;
  }
  if (cors_header_lines_.empty()) {
    res.headers.emplace("Access-Control-Allow-Origin", std::string(request.origin));
    res.headers.emplace("Vary", "Origin");
  }
  std::string asked = req.get_header_value("Access-Control-Request-Headers");
  res.set_header("Access-Control-Allow-Methods", rule.methods);
  res.set_header("Access-Control-Allow-Headers", asked.empty() ? "*" : asked);
  res.set_header("Access-Control-Max-Age", "172800");
}

const std::vector<std::string>& HttpServer::CrossOriginOrigins(std::string_view path) const {
  const std::vector<std::string>* origins = handler_->CrossOrigin(path).origins;
  return origins ? *origins : options_.cors_origins;
}

void HttpServer::InstallHandlers() {
  // Only what the Keep-Alive response header advertises: the connection loop keeps connections open for any
  // number of requests, up to kKeepAliveSeconds apart.
  server_->set_keep_alive_max_count(1u << 30);
  server_->set_keep_alive_timeout(kKeepAliveSeconds);
  server_->set_payload_max_length(kMaxRequestBytes);
  keep_alive_line_ =
      "Keep-Alive: timeout=" + std::to_string(kKeepAliveSeconds) + ", max=" + std::to_string(1u << 30) + "\r\n";
  server_->set_direct_server(
      [this](ConnectionStream& stream, bool* close_connection) { return ServeDirect(stream, close_connection); });
  auto preflight = [this](const httplib::Request& req, httplib::Response& res) { AnswerPreflight(req, res); };
  // A request refused by CheckFraming is answered before its body is read.
  server_->set_pre_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (CurrentFraming().refusal_status == 0) return httplib::Server::HandlerResponse::Unhandled;
    res.status = CurrentFraming().refusal_status;
    return httplib::Server::HandlerResponse::Handled;
  });
  // Every answer of 400 or more. The dispatcher's carry their JSON already; the others are cpp-httplib's own
  // refusals (a request it could not frame, a body too large, ...) and ours from CheckFraming: they get DynamoDB's
  // JSON error form, and the connection closes, since what follows on it cannot be trusted to be a request.
  server_->set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (res.status == 414) res.status = 400;  // DynamoDB answers a request line too long as any bad request
    res.body = RefusalBody(res.status, CurrentFraming().refusal);
    res.headers.erase("Content-Type");
    res.headers.emplace("Content-Type", kJsonType);
    CurrentFraming().close_connection = true;
    return httplib::Server::HandlerResponse::Handled;
  });
  // cpp-httplib's own header writer makes a string and a write per header; one buffer for all is cheaper. Every
  // answer has a Date, and, when any origin may call, the CORS headers.
  server_->set_header_writer([this](httplib::Stream& strm, httplib::Headers& headers) -> ssize_t {
    std::string text;
    text.reserve(320);
    for (const auto& [name, value] : headers) text.append(name).append(": ").append(value).append("\r\n");
    text.append(DateHeaderLine()).append(cors_header_lines_).append("\r\n");
    return strm.write(text.data(), text.size());
  });
  // Runs for every response, cpp-httplib's own refusals (400, 413, ...) included, just before it is written and
  // after cpp-httplib has gzipped a compressible body for a client that accepts gzip: every response has a
  // request id (the dispatched ones have theirs already), and the CRC is of the bytes sent, as DynamoDB's is.
  server_->set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (CurrentFraming().close_connection) {
      res.headers.erase("Keep-Alive");
      if (res.headers.find("Connection") == res.headers.end()) res.headers.emplace("Connection", "close");
    }
    if (res.headers.find("x-amzn-RequestId") == res.headers.end())
      res.headers.emplace("x-amzn-RequestId", std::string(NewRequestId().view()));
    res.headers.emplace("x-amz-crc32", std::to_string(libdeflate_crc32(0, res.body.data(), res.body.size())));
  });
  auto handle = [this](const httplib::Request& req, httplib::Response& res) { Answer(req, res); };
  server_->Get(".*", handle);
  server_->Post(".*", handle);
  server_->Put(".*", handle);
  server_->Delete(".*", handle);
  server_->Patch(".*", handle);
  server_->Options(".*", preflight);
}

}  // namespace dynapage
