#include "server/admin/browser_guard.h"

#include <arpa/inet.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>

#include "engine/base/utf8.h"
#include "server/admin/admin_api.h"

namespace dynapage {

namespace {

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool IsPort(std::string_view text) {
  return !text.empty() && text.size() <= 5 && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// The name or address of a Host header, without its port and brackets, and without a final dot; a Host with
// anything but digits after the colon is returned whole (it then names no host this server accepts).
std::string_view HostName(std::string_view host) {
  std::string_view name = host, port;
  if (!host.empty() && host.front() == '[') {
    size_t close = host.find(']');
    if (close == std::string_view::npos) return host;
    name = host.substr(1, close - 1);
    if (close + 1 < host.size()) {
      if (host[close + 1] != ':' || !IsPort(host.substr(close + 2))) return host;
    }
    return name;
  }
  size_t colon = host.find(':');
  if (colon != std::string_view::npos) {
    if (!IsPort(host.substr(colon + 1))) return host;
    name = host.substr(0, colon);
  }
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  return name;
}

bool IsStateChanging(std::string_view method) { return method != "GET" && method != "HEAD"; }

bool IsJson(std::string_view content_type) {
  std::string_view base = content_type.substr(0, content_type.find(';'));
  while (!base.empty() && base.back() == ' ') base.remove_suffix(1);
  return EqualsIgnoringCase(base, "application/json");
}

// 403 in the admin API's form on its paths, in DynamoDB's elsewhere (so that an SDK shows the message).
WireResponse Forbidden(const GuardedRequest& request, const std::string& kind, const std::string& message) {
  if (AdminApi::IsAdminPath(request.path)) return AdminError(403, kind, message);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("__type");
  w.String("com.amazon.coral.service#AccessDeniedException");
  w.Key("Message");
  w.String(message.data(), static_cast<rapidjson::SizeType>(message.size()));
  w.EndObject();
  WireResponse response;
  response.status = 403;
  response.body.assign(buffer.GetString(), buffer.GetSize());
  return response;
}

}  // namespace

namespace {

bool NamesLoopback(std::string_view host) {
  std::string_view name = HostName(host);
  static constexpr std::string_view kLocalhost = "localhost";
  static constexpr std::string_view kUnderLocalhost = ".localhost";
  if (EqualsIgnoringCase(name, kLocalhost)) return true;
  if (name.size() > kUnderLocalhost.size() &&
      EqualsIgnoringCase(name.substr(name.size() - kUnderLocalhost.size()), kUnderLocalhost)) {
    return true;
  }
  if (name.size() >= INET6_ADDRSTRLEN) return false;
  char text[INET6_ADDRSTRLEN];
  std::memcpy(text, name.data(), name.size());
  text[name.size()] = '\0';
  in_addr v4{};
  if (inet_pton(AF_INET, text, &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, text, &v6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
    // ::ffff:127.x.x.x, IPv4's loopback written as IPv6.
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
  }
  return false;
}

constexpr size_t kMaxRememberedHost = 64;

}  // namespace

bool IsLoopbackHost(std::string_view host) {
  // A client sends the same Host with every request: the last one a thread found loopback is remembered, and
  // compared in a few instructions where parsing it as an address took ~500 (3% of a no-op request).
  thread_local char remembered[kMaxRememberedHost];
  thread_local size_t remembered_size = 0;
  if (remembered_size != 0 && host.size() == remembered_size &&
      std::memcmp(host.data(), remembered, remembered_size) == 0) {
    return true;
  }
  if (!NamesLoopback(host)) return false;
  if (!host.empty() && host.size() <= kMaxRememberedHost) {
    std::memcpy(remembered, host.data(), host.size());
    remembered_size = host.size();
  }
  return true;
}

bool OriginListed(const std::vector<std::string>& origins, std::string_view origin) {
  for (const std::string& allowed : origins) {
    if (allowed == "*" || allowed == origin) return true;
  }
  return false;
}

namespace {

bool HostAllowed(std::string_view host, const BrowserGuardOptions& options) {
  std::string_view name = HostName(host);
  bool allowed = false;
  for (const std::string& listed : options.allowed_hosts) allowed = allowed || EqualsIgnoringCase(listed, name);
  return allowed;
}

}  // namespace

bool IsOwnOrigin(const GuardedRequest& request, const BrowserGuardOptions& options) {
  static constexpr std::string_view kHttp = "http://";
  if (request.host.empty() || request.origin.size() != kHttp.size() + request.host.size()) return false;
  if (!EqualsIgnoringCase(request.origin.substr(0, kHttp.size()), kHttp) ||
      !EqualsIgnoringCase(request.origin.substr(kHttp.size()), request.host)) {
    return false;
  }
  // Under a name of this machine only: a page DNS rebinding led here has its own name as both Host and Origin.
  return IsLoopbackHost(request.host) || HostAllowed(request.host, options);
}

bool RefuseBrowserRequest(const GuardedRequest& request, const BrowserGuardOptions& options, WireResponse* refusal) {
  if (request.loopback_only && !request.host.empty() && !IsLoopbackHost(request.host)) {
    std::string_view name = HostName(request.host);
    if (!HostAllowed(request.host, options)) {
      *refusal = Forbidden(request, "ForbiddenHost",
                           "Host '" + std::string(ToValidUtf8(name)) +
                               "' is not a loopback name or address: dynapage listens on loopback only and refuses "
                               "other names (DNS rebinding); start it with --allow-host " +
                               std::string(ToValidUtf8(name)) + " to accept this one");
      return true;
    }
  }
  if (!AdminApi::IsAdminPath(request.path)) return false;
  if (!request.origin.empty() && !OriginListed(options.admin_cors_origins, request.origin) &&
      !IsOwnOrigin(request, options)) {
    *refusal = AdminError(403, "ForbiddenOrigin",
                          "the admin API does not answer pages of origin '" + ToValidUtf8(request.origin) +
                              "'; start dynapage with --admin-cors ORIGIN to allow one");
    return true;
  }
  if (request.method != "OPTIONS" && IsStateChanging(request.method) && !IsJson(request.content_type)) {
    *refusal = AdminError(415, "UnsupportedMediaType",
                          std::string(request.method) + " " + std::string(request.path) +
                              " needs the header Content-Type: application/json (so that no web page can send it "
                              "without asking)");
    return true;
  }
  return false;
}

}  // namespace dynapage
