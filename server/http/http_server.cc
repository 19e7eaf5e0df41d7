#include "server/http/http_server.h"

#include <httplib.h>
#include <libdeflate.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <random>
#include <set>
#include <thread>
#include <utility>

#include "server/admin/admin_streams.h"
#include "server/http/client_cpu_affinity.h"
#include "server/http/connection_stream.h"
#include "server/http/content_encoding.h"
#include "server/operations/operation_table.h"

namespace dynapage {

namespace {
constexpr auto kShutdownGrace = std::chrono::milliseconds(500);
// A connection thread's stack. The kernel gives a thread only the stack pages it touches, so the size costs no
// memory by itself; it bounds how deep a request's work may go.
constexpr size_t kConnectionStackBytes = 8 * 1024 * 1024;
// Open files kept for the database, the listeners and the process when the connection limit is derived from the
// open-file limit.
constexpr size_t kReservedFiles = 1024;
// A connection idle this long gives back the memory its requests touched (ConnectionStream).
constexpr std::chrono::seconds kIdleShed(2);

const char kJsonType[] = "application/x-amz-json-1.0";
const char kExposedHeaders[] = "x-amzn-RequestId, x-amz-crc32";

// What the framing checks found out about the request being served on this thread. cpp-httplib gives its
// callbacks no handle on the connection, and a connection is served by one thread at a time, request by request:
// each request's state is set when its head has been read (CheckFraming) and reset when it is answered.
struct Exchange {
  int refusal_status = 0;         // non-zero: the request is refused with this status before its body is read
  const char* refusal = nullptr;  // why, for the error's message
  bool close_connection = false;  // the answer closes the connection: framing is lost, or the body is unread
  ContentEncoding encoding = ContentEncoding::kIdentity;  // of the body, which the handler decodes
};
thread_local Exchange t_exchange;

// x-amzn-RequestId: 52 characters of [0-9A-Z], as DynamoDB's.
std::string NewRequestId() {
  static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string id(52, '0');
  // One character from each byte of a draw, by a multiply and a shift instead of a division: seven draws.
  // (A byte maps to 36 characters unevenly, 8 or 7 bytes each: an id need be unique, not uniform.)
  for (size_t i = 0; i < id.size(); i += 8) {
    uint64_t bits = rng();
    for (size_t j = i; j < i + 8 && j < id.size(); j++, bits >>= 8) id[j] = kAlphabet[((bits & 0xFF) * 36) >> 8];
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
void ReadWireHeaders(const httplib::Headers& headers, WireRequest* w, std::string_view* origin) {
  bool have_type = false, have_target = false, have_authorization = false, have_host = false, have_origin = false;
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
    } else if (!have_host && EqualsIgnoringCase(name, "host", 4)) {
      w->host = value;
      have_host = true;
    } else if (!have_origin && EqualsIgnoringCase(name, "origin", 6)) {
      *origin = value;
      have_origin = true;
    } else if (EqualsIgnoringCase(name, "x-amz-date", 10) || EqualsIgnoringCase(name, "date", 4)) {
      w->has_amz_date = true;
    }
  }
}

bool AllDigits(const std::string& s) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// RFC 9112 §6: the body's length must be known without doubt before it is read. Called for every request once
// its head is parsed, before its body is read; records a refusal in t_exchange (answered by the pre-routing
// handler), takes a Content-Encoding off the headers (the handler decodes the body; cpp-httplib would inflate it
// without a size limit), and gives a request without Content-Length or Transfer-Encoding an empty body
// (cpp-httplib would read it until the client closes).
void CheckFraming(httplib::Request& req) {
  Exchange& x = t_exchange;
  const std::string* length = nullptr;
  const std::string* encoding = nullptr;
  int lengths = 0, transfer_encodings = 0, content_encodings = 0;
  for (const auto& [name, value] : req.headers) {
    // Cheap filters first: these three names have lengths 14, 16 and 17.
    if (name.size() == 14 && EqualsIgnoringCase(name, "content-length", 14)) {
      if (length && *length != value) {
        x.refusal_status = 400;
        x.refusal = "Conflicting Content-Length headers";
        return;
      }
      length = &value;
      lengths++;
    } else if (name.size() == 17 && EqualsIgnoringCase(name, "transfer-encoding", 17)) {
      transfer_encodings++;
      if (!(value.size() == 7 && EqualsIgnoringCase(value, "chunked", 7)) || transfer_encodings > 1) {
        x.refusal_status = 400;
        x.refusal = "Unsupported Transfer-Encoding: only chunked is accepted";
        return;
      }
    } else if (name.size() == 16 && EqualsIgnoringCase(name, "content-encoding", 16)) {
      encoding = &value;
      content_encodings++;
    }
  }
  if (length && transfer_encodings > 0) {
    x.refusal_status = 400;
    x.refusal = "A request may not have both Content-Length and Transfer-Encoding";
    return;
  }
  if (length && !AllDigits(*length)) {
    x.refusal_status = 400;
    x.refusal = "Invalid Content-Length";
    return;
  }
  if (length && std::strtoull(length->c_str(), nullptr, 10) > kMaxRequestBytes) {
    x.refusal_status = 413;
    return;
  }
  if (encoding) {
    x.encoding = content_encodings == 1 ? ParseContentEncoding(*encoding) : ContentEncoding::kUnknown;
    if (x.encoding == ContentEncoding::kUnknown) {
      x.refusal_status = 400;
      x.refusal = "Unsupported Content-Encoding: gzip, deflate and identity are accepted";
      return;
    }
    req.headers.erase("Content-Encoding");
  }
  if (!length && transfer_encodings == 0) req.headers.emplace("Content-Length", "0");
}

// The JSON error body of an answer cpp-httplib makes itself (a refused request), in DynamoDB's form.
std::string RefusalBody(int status, const char* reason) {
  std::string type, message;
  const char* message_key = "message";
  if (status == 413) {
    type = "com.amazon.coral.service#RequestEntityTooLargeException";
    message = "Request size exceeds " + std::to_string(kMaxRequestBytes) + " bytes";
  } else if (status == 503) {
    type = "com.amazon.coral.service#ServiceUnavailableException";
    message = reason ? reason : "The server is shutting down";
  } else {
    type = "com.amazon.coral.service#SerializationException";
    message = reason ? reason : "Malformed HTTP request";
    message_key = "Message";  // SerializationException's spelling (docs/behaviour.md §8.3)
  }
  return R"({"__type":")" + type + R"(",")" + message_key + R"(":")" + message + R"("})";
}

// "Date: Wed, 25 Nov 2026 10:49:15 GMT\r\n" for now, formatted once a second per thread.
const std::string& DateHeaderLine() {
  thread_local time_t formatted_at = -1;
  thread_local std::string line;
  time_t now = std::time(nullptr);
  if (now != formatted_at) {
    tm parts;
    gmtime_r(&now, &parts);
    char text[64];
    size_t n = std::strftime(text, sizeof(text), "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts);
    line.assign(text, n);
    formatted_at = now;
  }
  return line;
}

bool IsLoopbackAddress(const sockaddr* address) {
  if (address->sa_family == AF_INET) {
    return (ntohl(reinterpret_cast<const sockaddr_in*>(address)->sin_addr.s_addr) >> 24) == 127;
  }
  return address->sa_family == AF_INET6 &&
         IN6_IS_ADDR_LOOPBACK(&reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr);
}

// Closes a connection whose last request was refused unread ("lingering close", as web servers do): the answer is
// sent, then what the client is still sending (a body too large, say) is read and thrown away, so that closing
// does not reset the connection before the client has read the answer. Nothing read here is ever executed. Stops at
// end of stream, after kLingerIdle without data, after kLingerBytes or after kLingerTime.
void CloseLingering(int sock) {
  constexpr auto kLingerTime = std::chrono::seconds(2);
  constexpr int kLingerIdleMs = 100;
  constexpr size_t kLingerBytes = 64 * 1024 * 1024;
  ::shutdown(sock, SHUT_WR);
  auto deadline = std::chrono::steady_clock::now() + kLingerTime;
  size_t discarded = 0;
  char buffer[64 * 1024];
  while (discarded < kLingerBytes && std::chrono::steady_clock::now() < deadline) {
    pollfd fd{sock, POLLIN, 0};
    if (::poll(&fd, 1, kLingerIdleMs) <= 0) break;
    ssize_t n = ::recv(sock, buffer, sizeof(buffer), MSG_DONTWAIT);
    if (n <= 0) break;
    discarded += static_cast<size_t>(n);
  }
  ::close(sock);
}

// Writes all of text to sock, best effort (a refusal to a client that may not read it).
void SendBestEffort(int sock, const std::string& text) {
  size_t sent = 0;
  while (sent < text.size()) {
    ssize_t n = ::send(sock, text.data() + sent, text.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

// The whole answer to a connection over the limit: 503 with a JSON error, and the connection closes.
std::string OverLimitAnswer(size_t max_connections) {
  std::string body = RefusalBody(503, ("Too many open connections: this server accepts at most " +
                                       std::to_string(max_connections) + " (--max-connections)")
                                          .c_str());
  return "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: " + std::string(kJsonType) +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nx-amzn-RequestId: " + NewRequestId() +
         "\r\nx-amz-crc32: " + std::to_string(libdeflate_crc32(0, body.data(), body.size())) + "\r\n" +
         DateHeaderLine() + "\r\n" + body;
}
}  // namespace

size_t DefaultMaxConnections() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
  size_t files = static_cast<size_t>(limit.rlim_cur);
  size_t reserved = std::min(kReservedFiles, files / 2);
  return files - reserved;
}

void RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// cpp-httplib parses requests and writes responses; this class owns the accept loop and the connection loop
// around them, so that each request costs one recv() and one send() (see ConnectionStream), so that a framing
// error closes the connection, and so that Stop() can end connections that sit idle between requests instead of
// leaving their threads blocked for the keep-alive timeout.

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
  void set_request_deadline(std::chrono::milliseconds deadline) { request_deadline_ = deadline; }

  // Serves sock on a thread of its own, or answers 503 and closes it when max_connections are open already or
  // no thread can be had.
  void StartConnection(int sock, size_t max_connections) {
    std::shared_ptr<Count> count = count_;
    {
      std::lock_guard<std::mutex> lock(count->mu);
      if (count->open >= max_connections) {
        Refuse(sock, max_connections);
        return;
      }
      count->open++;
    }
    auto* work = new std::function<void()>([this, sock, count] {
      process_and_close_socket(sock);
      std::lock_guard<std::mutex> lock(count->mu);
      count->open--;
      count->changed.notify_all();
    });
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kConnectionStackBytes);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int rc = pthread_create(
        &thread, &attr,
        [](void* arg) -> void* {
          std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(arg));
          (*fn)();
          return nullptr;
        },
        work);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      delete work;
      {
        std::lock_guard<std::mutex> lock(count->mu);
        count->open--;
      }
      Refuse(sock, max_connections);
    }
  }

  // Gives open connections a moment to end; idle keep-alive connections are not waited for.
  void WaitForConnections() {
    std::unique_lock<std::mutex> lock(count_->mu);
    count_->changed.wait_for(lock, kShutdownGrace, [&] { return count_->open == 0; });
  }

  size_t open_connections() const {
    std::lock_guard<std::mutex> lock(count_->mu);
    return count_->open;
  }

 private:
  // The number of connection threads, shared with them so that a thread outliving the server (an idle keep-alive
  // connection at shutdown) touches nothing freed.
  struct Count {
    mutable std::mutex mu;
    std::condition_variable changed;
    size_t open = 0;
  };

  static void Refuse(int sock, size_t max_connections) {
    SendBestEffort(sock, OverLimitAnswer(max_connections));
    ::shutdown(sock, SHUT_WR);
    // Read what the client sent already, so that closing does not reset the connection before it reads the answer.
    char discard[4096];
    while (::recv(sock, discard, sizeof(discard), MSG_DONTWAIT) > 0) {
    }
    ::close(sock);
  }

  bool process_and_close_socket(socket_t sock) override {
    int yes = 1;
    setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
    timeval idle_shed{kIdleShed.count(), 0};
    setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &idle_shed, sizeof(idle_shed));
    timeval keep_alive{kKeepAliveSeconds, 0};
    setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &keep_alive, sizeof(keep_alive));
    bool ok = false;
    current_socket = sock;
    if (Register(sock)) {
      ClientCpuAffinity::Connection client_cpu(&client_cpus_, sock);
      ConnectionStream stream(sock, &client_cpu, request_deadline_, kIdleShed, std::chrono::seconds(kKeepAliveSeconds));
      std::string remote_ip, local_ip;  // for the request's remote_addr and local_addr
      int remote_port = 0, local_port = 0;
      stream.get_remote_ip_and_port(remote_ip, remote_port);
      stream.get_local_ip_and_port(local_ip, local_port);
      std::function<void(httplib::Request&)> check_framing = CheckFraming;
      bool refused = false;
      while (true) {
        bool connection_closed = false;
        t_exchange = Exchange();
        ok = process_request(stream, remote_ip, remote_port, local_ip, local_port, /*close_connection=*/false,
                             connection_closed, check_framing);
        ok = stream.Flush() && ok;
        stream.EndRequest();
        refused = ok && t_exchange.close_connection;
        if (!ok || connection_closed || t_exchange.close_connection || Closing()) break;
        client_cpu.AfterResponse();
      }
      Unregister(sock);
      if (refused) {
        CloseLingering(sock);
        return ok;
      }
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
  std::chrono::milliseconds request_deadline_{std::chrono::seconds(30)};
  std::shared_ptr<Count> count_ = std::make_shared<Count>();
  std::mutex mu_;
  std::set<socket_t> open_;  // guarded by mu_
  bool closing_ = false;     // guarded by mu_
};

HttpServer::HttpServer() : server_(new ConnectionServer()) {
  set_options(HttpOptions());
  // Only what the Keep-Alive response header advertises: the connection loop above keeps connections open
  // for any number of requests, up to kKeepAliveSeconds apart.
  server_->set_keep_alive_max_count(1u << 30);
  server_->set_keep_alive_timeout(kKeepAliveSeconds);
  server_->set_payload_max_length(kMaxRequestBytes);
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
    std::string_view origin;
    ReadWireHeaders(req.headers, &w, &origin);
    std::string decoded;
    std::string reached_at;
    if (w.host.empty()) {  // HTTP/1.0 without Host: the address the connection came in on
      reached_at = req.local_addr.find(':') == std::string::npos ? req.local_addr : "[" + req.local_addr + "]";
      w.host = reached_at.append(":").append(std::to_string(req.local_port));
    }
    w.query_has_algorithm = req.has_param("X-Amz-Algorithm");
    w.body = req.body;  // a view: the request outlives the dispatch
    WireResponse r;
    // What a web page may not send (a foreign Host, an admin call it did not ask leave for): r is the refusal.
    const bool refused = RefuseBrowserRequest({w.method, w.path, w.host, origin, w.content_type}, options_.guard, &r);
    DecodeResult decode = DecodeResult::kOk;
    if (!refused && t_exchange.encoding != ContentEncoding::kIdentity) {
      decode = DecodeBody(t_exchange.encoding, req.body, kMaxRequestBytes, &decoded);
      w.body = decoded;
    }
    if (refused) {
      // answered by r
    } else if (decode != DecodeResult::kOk) {
      r.status = decode == DecodeResult::kTooLarge ? 413 : 400;
      r.body = RefusalBody(r.status, "The request body is not valid data of its Content-Encoding");
    } else if (AdminApi::IsAdminPath(w.path)) {
      AdminRequest admin{w.method, w.path, {}, w.body, w.request_id, w.authorization};
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
    const bool admin_path = AdminApi::IsAdminPath(w.path);
    const std::vector<std::string>& origins = admin_path ? options_.guard.admin_cors_origins : options_.cors_origins;
    if (cors_header_lines_.empty() && !origin.empty() && OriginListed(origins, origin)) {
      res.headers.emplace("Access-Control-Allow-Origin", std::string(origin));
      res.headers.emplace("Access-Control-Expose-Headers", kExposedHeaders);
      res.headers.emplace("Vary", "Origin");
    }
    res.body = std::move(r.body);
    EndRequest();
  };
  // A CORS preflight: the browser asks whether it may POST with DynamoDB's headers.
  auto preflight = [this](const httplib::Request& req, httplib::Response& res) {
    res.status = 200;
    std::string origin = req.get_header_value("Origin");
    WireResponse refusal;
    if (RefuseBrowserRequest({req.method, req.path, req.get_header_value("Host"), origin, ""}, options_.guard,
                             &refusal)) {
      res.status = refusal.status;
      res.set_content(refusal.body, refusal.content_type);
      return;
    }
    // An admin route's preflight got here with an origin --admin-cors allows, or none.
    const bool admin_path = AdminApi::IsAdminPath(req.path);
    if (cors_header_lines_.empty() || admin_path) {
      if (origin.empty() ||
          !OriginListed(admin_path ? options_.guard.admin_cors_origins : options_.cors_origins, origin)) {
        return;
      }
    }
    if (cors_header_lines_.empty()) {
      res.headers.emplace("Access-Control-Allow-Origin", origin);
      res.headers.emplace("Vary", "Origin");
    }
    std::string asked = req.get_header_value("Access-Control-Request-Headers");
    res.set_header("Access-Control-Allow-Methods", admin_path ? "GET, POST, DELETE, OPTIONS" : "GET, POST, OPTIONS");
    res.set_header("Access-Control-Allow-Headers", asked.empty() ? "*" : asked);
    res.set_header("Access-Control-Max-Age", "172800");
  };
  // A request refused by CheckFraming is answered before its body is read.
  server_->set_pre_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (t_exchange.refusal_status == 0) return httplib::Server::HandlerResponse::Unhandled;
    res.status = t_exchange.refusal_status;
    return httplib::Server::HandlerResponse::Handled;
  });
  // Every answer of 400 or more. The dispatcher's carry their JSON already; the others are cpp-httplib's own
  // refusals (a request it could not frame, a body too large, ...) and ours from CheckFraming: they get DynamoDB's
  // JSON error form, and the connection closes, since what follows on it cannot be trusted to be a request.
  server_->set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (res.status == 414) res.status = 400;  // DynamoDB answers a request line too long as any bad request
    res.body = RefusalBody(res.status, t_exchange.refusal);
    res.headers.erase("Content-Type");
    res.headers.emplace("Content-Type", kJsonType);
    t_exchange.close_connection = true;
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
    if (t_exchange.close_connection) {
      res.headers.erase("Keep-Alive");
      if (res.headers.find("Connection") == res.headers.end()) res.headers.emplace("Connection", "close");
    }
    if (res.headers.find("x-amzn-RequestId") == res.headers.end())
      res.headers.emplace("x-amzn-RequestId", NewRequestId());
    res.headers.emplace("x-amz-crc32", std::to_string(libdeflate_crc32(0, res.body.data(), res.body.size())));
  });
  server_->Get(".*", handle);
  server_->Post(".*", handle);
  server_->Put(".*", handle);
  server_->Delete(".*", handle);
  server_->Patch(".*", handle);
  server_->Options(".*", preflight);
}

HttpServer::~HttpServer() {
  for (int fd : listeners_) ::close(fd);
  for (int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

void HttpServer::set_options(const HttpOptions& options) {
  options_ = options;
  if (options_.max_connections == 0) options_.max_connections = DefaultMaxConnections();
  cors_header_lines_.clear();
  if (OriginListed(options_.cors_origins, "*")) {
    cors_header_lines_ =
        std::string("Access-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: ") + kExposedHeaders + "\r\n";
  }
  server_->client_cpus().set_enabled(options_.follow_client_cpu);
  server_->set_request_deadline(options_.request_deadline);
}

void HttpServer::set_follow_client_cpu(bool follow) {
  options_.follow_client_cpu = follow;
  server_->client_cpus().set_enabled(follow);
}

size_t HttpServer::open_connections() const { return server_->open_connections(); }

int HttpServer::Listen(const void* addr, unsigned addr_len, bool v6_only) {
  const auto* address = static_cast<const sockaddr*>(addr);
  int fd = ::socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  // SO_REUSEADDR only (cpp-httplib's default also sets SO_REUSEPORT, which lets a second server bind a port
  // already in use and silently share its connections; a busy port must be an error instead).
  int yes = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  if (address->sa_family == AF_INET6) {
    int v6only = v6_only ? 1 : 0;  // "::" takes IPv4 clients too; "::1" leaves 127.0.0.1 to its own socket
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
  }
  // The kernel's largest accept queue: connections made while the database opens wait there.
  if (::bind(fd, address, addr_len) != 0 || ::listen(fd, SOMAXCONN) != 0) {
    ::close(fd);
    return -1;
  }
  if (!IsLoopbackAddress(address)) non_loopback_listener_ = true;
  sockaddr_storage bound{};
  socklen_t len = sizeof(bound);
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  int port = bound.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in&>(bound).sin_port)
                                        : ntohs(reinterpret_cast<sockaddr_in6&>(bound).sin6_port);
  listeners_.push_back(fd);
  return port;
}

int HttpServer::Bind(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return -1;
  int bound = -1;
  for (addrinfo* a = found; a && bound < 0; a = a->ai_next) {
    bound = Listen(a->ai_addr, a->ai_addrlen, /*v6_only=*/false);
  }
  freeaddrinfo(found);
  return bound;
}

int HttpServer::BindLoopback(int port) {
  // With port 0, the port 127.0.0.1 is given may be taken on ::1: try a few.
  for (int attempt = 0; attempt < 8; attempt++) {
    sockaddr_in v4{};
    v4.sin_family = AF_INET;
    v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    v4.sin_port = htons(static_cast<uint16_t>(port));
    int bound = Listen(&v4, sizeof(v4), false);
    if (bound < 0) return -1;
    sockaddr_in6 v6{};
    v6.sin6_family = AF_INET6;
    v6.sin6_addr = in6addr_loopback;
    v6.sin6_port = htons(static_cast<uint16_t>(bound));
    if (Listen(&v6, sizeof(v6), true) >= 0) return bound;
    int error = errno;
    if (error == EADDRNOTAVAIL || error == EAFNOSUPPORT) return bound;  // no IPv6 here: 127.0.0.1 only
    if (port != 0) return -1;
    ::close(listeners_.back());
    listeners_.pop_back();
  }
  return -1;
}

void HttpServer::Run(Database* db, const ServiceOptions& options) {
  owned_databases_ = std::make_unique<DatabaseSet>(db);
  Run(owned_databases_.get(), options);
}

void HttpServer::Run(DatabaseSet* databases, const ServiceOptions& options) {
  // The test bench runs around every request, and the admin API serves it; with none set, one with everything off.
  if (!bench_) bench_ = (own_bench_ = std::make_unique<TestBench>(TestBenchOptions())).get();
  options_.guard.loopback_only = !listeners_.empty() && !non_loopback_listener_;
  ServiceOptions service = options;
  service.hooks = bench_;
  admin_ = std::make_unique<AdminApi>(databases, bench_);
  AddStreamsAdminRoutes(admin_.get(), databases, options);
  bench_->Attach(databases, options, FindOperation, ServedOperationNames());
  Serve(std::make_unique<Dispatcher>(databases, service, FindOperation, FindStreamsOperation, DeclareOperationTargets));
}

void HttpServer::Serve(std::unique_ptr<Dispatcher> dispatcher) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || listeners_.empty()) {
      run_returned_ = true;
      returned_.notify_all();
      return;
    }
    if (::pipe2(wake_, O_CLOEXEC) != 0) {
      run_returned_ = true;
      returned_.notify_all();
      return;
    }
    run_started_ = true;
  }
  dispatcher_ = std::move(dispatcher);
  std::vector<pollfd> fds;
  for (int fd : listeners_) fds.push_back({fd, POLLIN, 0});
  fds.push_back({wake_[0], POLLIN, 0});
  bool running = true;
  while (running) {
    int n = ::poll(fds.data(), fds.size(), -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds.back().revents) break;
    for (size_t i = 0; i + 1 < fds.size(); i++) {
      if (!fds[i].revents) continue;
      while (true) {
        int sock = ::accept4(fds[i].fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (sock >= 0) {
          server_->StartConnection(sock, options_.max_connections);
          continue;
        }
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
          // Out of files: let connections end before accepting more (they wait in the accept queue meanwhile).
          pollfd wake{wake_[0], POLLIN, 0};
          if (::poll(&wake, 1, 10) > 0) running = false;
        }
        break;  // EAGAIN: none left; anything else: try again at the next poll
      }
    }
  }
  for (int fd : listeners_) ::close(fd);
  listeners_.clear();
  server_->WaitForConnections();
  std::lock_guard<std::mutex> lock(mu_);
  run_returned_ = true;
  returned_.notify_all();
}

void HttpServer::Stop() {
  std::unique_lock<std::mutex> lock(mu_);
  stopping_ = true;
  // Connections are ended first, so that Run() need not wait its grace period for idle ones.
  server_->CloseConnections();
  if (!run_started_) return;
  char byte = 0;
  if (::write(wake_[1], &byte, 1) < 0) {
    // The pipe is only ever written once per Stop(); a full pipe means a byte is waiting already.
  }
  returned_.wait(lock, [this] { return run_returned_; });
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
