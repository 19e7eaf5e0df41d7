// The HTTP layer's side of one exchange: what HttpServer hands its RequestHandler (HttpRequestView, views into the
// connection's buffers) and what it sends back (HttpAnswer). HTTP is the server's ground floor: it knows
// nothing of DynamoDB's protocol, the admin API or the databases; the service (server/service/) does, and
// implements RequestHandler.

#ifndef DYNAPAGE_SERVER_HTTP_EXCHANGE_H_
#define DYNAPAGE_SERVER_HTTP_EXCHANGE_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dynapage {

// A request body, decoded, may be at most this long.
constexpr size_t kMaxRequestBytes = 16 * 1024 * 1024;
// An idle keep-alive connection is closed after this long; it is also how long a stalled send may take.
constexpr long kKeepAliveSeconds = 120;

// One request, framed and with its body decoded (Content-Encoding). REQUIRES: what the views view outlives
// RequestHandler::Handle().
struct HttpRequestView {
  std::string_view request_id;  // made by the HTTP layer before the handler runs; the answer's x-amzn-RequestId
  std::string_view method;
  std::string_view path;   // without the query string
  std::string_view query;  // the query string after '?', undecoded ("" without one)
  std::string_view content_type;
  std::string_view target;         // X-Amz-Target
  std::string_view authorization;  // Authorization
  std::string_view host;           // Host, or the address the connection came in on (HTTP/1.0 without Host)
  std::string_view origin;         // Origin: the web page a browser sends the request for ("" from any other client)
  // Whether every address the server listens on is a loopback address (127.0.0.0/8, ::1): only programs on this
  // machine can connect, and so a Host naming another machine was sent by a page DNS rebinding led here.
  bool loopback_only = false;
  bool has_amz_date = false;         // X-Amz-Date or Date present
  bool query_has_algorithm = false;  // X-Amz-Algorithm in the query string (presigned)
  // REQUIRES: followed by a NUL byte (it views a std::string's buffer).
  std::string_view body;
};

struct HttpAnswer {
  int status = 200;
  // A constant (every answer's type is one): a view, because a string of its length would be an allocation per
  // request. REQUIRES: static storage.
  std::string_view content_type = "application/x-amz-json-1.0";
  std::string body;
  bool drop_connection = false;  // an injected fault: close the connection without answering
  // More header lines (name, value) for answers that need them (the console's caching and CSP); REQUIRES: no CR
  // or LF in either.
  std::vector<std::pair<std::string, std::string>> headers;
};

// Which web pages may call a path, and how (CORS): what the HTTP layer writes into a preflight's answer and whether
// it lets a page read an answer (Access-Control-Allow-Origin).
struct CrossOriginRule {
  // The origins allowed ("*": any); null: the server's own, HttpOptions::cors_origins. REQUIRES: outlives the
  // request.
  const std::vector<std::string>* origins = nullptr;
  const char* methods = "GET, POST, OPTIONS";  // Access-Control-Allow-Methods
};

// What HttpServer serves. Every function runs on the connection's thread, on many connections at once.
class RequestHandler {
 public:
  virtual ~RequestHandler() = default;
  // The answer to request. The handler refuses here whatever it refuses of any request (a web page's, say): the
  // HTTP layer has no checks of its own beyond framing.
  virtual HttpAnswer Handle(const HttpRequestView& request) = 0;
  // A CORS preflight (OPTIONS; its body unread and empty): true, with *refusal the answer, when the handler
  // refuses it; false lets the HTTP layer answer it by CrossOrigin(request.path).
  virtual bool RefusePreflight(const HttpRequestView& request, HttpAnswer* refusal) {
    (void)request;
    (void)refusal;
    return false;
  }
  // The CORS rule of path.
  virtual CrossOriginRule CrossOrigin(std::string_view path) const {
    (void)path;
    return CrossOriginRule();
  }
};

// The parameters of a query string ("a=1&b=x%20y"), percent-decoded; the first of repeated names counts.
std::map<std::string, std::string> ParseQueryString(std::string_view query);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_EXCHANGE_H_
