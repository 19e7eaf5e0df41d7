// BrowserGuard: what keeps a web page the developer visits from reaching dynapage (docs/robustness.md, "Security
// model"). A pure decision on one request's method, path and headers; the service (server/service/service.h) asks it
// before anything else, for every request and every CORS preflight, whichever path the HTTP layer read it on.
//
// dynapage has no authentication: anything that can open a connection to it can use it. What a browser can send on
// a page's behalf without asking (a form POST, a text/plain fetch, an <img>) and what DNS rebinding lets a page send
// to 127.0.0.1 are refused:
//   - Host: when every listener is on loopback, a request whose Host is not a loopback name or address
//     (localhost, *.localhost, 127.0.0.0/8, [::1]) nor one given with --allow-host is refused with 403, on every
//     path (DNS rebinding gives a page a foreign name for 127.0.0.1). Bound to another address (0.0.0.0 in a
//     container), any Host is served: the operator chose who can connect.
//   - Admin routes (/_dynapage/..., /metrics): a request that carries an Origin not allowed by --admin-cors is
//     refused with 403, a CORS preflight for them too, unless the Origin is dynapage's own (IsOwnOrigin: the
//     console's page at /_dynapage/console/, docs/console.md); a state-changing one (any method but GET, HEAD) needs
//     Content-Type: application/json, which no page can send cross-origin without a preflight (415 otherwise).
// The DynamoDB API's CORS (--cors) is not this class's: SDKs in browsers work as before.

#ifndef DYNAPAGE_SERVER_ADMIN_BROWSER_GUARD_H_
#define DYNAPAGE_SERVER_ADMIN_BROWSER_GUARD_H_

#include <string>
#include <string_view>
#include <vector>

#include "server/protocol/dispatcher.h"

namespace dynapage {

struct BrowserGuardOptions {
  // --allow-host: more Host names (without a port) accepted besides the loopback ones; compared ignoring case.
  std::vector<std::string> allowed_hosts;
  // --admin-cors: the origins a page may call the admin routes from ("*": any); none by default.
  std::vector<std::string> admin_cors_origins;
};

// What the guard sees of a request. Views into the HTTP layer's request.
struct GuardedRequest {
  std::string_view method;  // "OPTIONS" for a preflight
  std::string_view path;    // without the query string
  std::string_view host;    // the Host header ("localhost:8000"); empty when there is none
  std::string_view origin;  // the Origin header, or empty
  std::string_view content_type;
  // Whether every listener is on a loopback address (told by the HTTP layer): then the Host check applies.
  bool loopback_only = false;
};

// True when request must be refused; then *refusal is the answer (403 or 415, a JSON error naming the rule and
// the flag that changes it: the admin API's form on admin paths, DynamoDB's elsewhere).
bool RefuseBrowserRequest(const GuardedRequest& request, const BrowserGuardOptions& options, WireResponse* refusal);

// Whether host (a Host header's value, with or without a port) names this machine's loopback: localhost, a name
// under .localhost, an address of 127.0.0.0/8, or ::1 (in brackets).
bool IsLoopbackHost(std::string_view host);

// Whether request comes from a page dynapage served itself: its Origin is http:// and its Host, and that Host is
// a loopback name or address or one of --allow-host (so never a name DNS rebinding brought, even when bound to
// 0.0.0.0, where the Host check does not apply).
bool IsOwnOrigin(const GuardedRequest& request, const BrowserGuardOptions& options);

// Whether origin is one of origins ("*" among them allows any).
bool OriginListed(const std::vector<std::string>& origins, std::string_view origin);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_BROWSER_GUARD_H_
