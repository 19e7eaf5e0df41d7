// AdminApi: dynapage's own HTTP routes, under /_dynapage/ and at /metrics, which no DynamoDB request uses
// (docs/testing-pagination.md, "The admin API").
//
// Routes are a table of (method, path, handler): a feature adds its own with AddRoute() (before the server runs).
// Each acts on the caller's namespace: the one its Authorization header's credential scope names, as for the
// DynamoDB API (an unsigned request's is the default one), or on every namespace with ?scope=all, which every route
// accepts; where a route's state is the server's (the clock), changing it needs ?scope=all.
// Every answer but /metrics is JSON; a failure is {"error": "<Kind>", "message": "<what to do>"} with an HTTP
// status that says what kind: 400 bad input, 404 unknown route or table, 405 wrong method, 409 a feature that is
// off. (What a web page may not send is refused before, with 403 or 415: browser_guard.h.)

#ifndef DYNAPAGE_SERVER_ADMIN_ADMIN_API_H_
#define DYNAPAGE_SERVER_ADMIN_ADMIN_API_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/database/database.h"
#include "engine/database/database_set.h"
#include "server/admin/test_bench.h"
#include "server/protocol/dispatcher.h"

namespace dynapage {

struct AdminRequest {
  std::string_view method;
  std::string_view path;                     // without the query string
  std::map<std::string, std::string> query;  // the query string's parameters
  std::string_view body;
  std::string_view request_id;     // the response's x-amzn-RequestId
  std::string_view authorization;  // the Authorization header: the caller of routes that act as one
  // Set by AdminApi::Handle: the namespace the route acts on (the caller's, NamespaceName), or null for every
  // namespace (?scope=all).
  const std::string* scope = nullptr;
};

// An admin answer: JSON {"error": kind, "message": message} with status.
WireResponse AdminError(int status, const std::string& kind, const std::string& message);
// A JSON answer with status 200.
WireResponse AdminJson(std::string body);
// The ?limit=N of a route listing recent requests (1 to kRecentRequests, default 100): true with *limit, or false
// with *refusal the 400 answer.
bool RecentRequestsLimit(const AdminRequest& request, size_t* limit, WireResponse* refusal);

class AdminApi {
 public:
  using Handler = std::function<WireResponse(const AdminRequest&)>;

  // REQUIRES: db and bench outlive the API.
  // Reset and the metrics cover every database of databases open now. REQUIRES: both outlive the API.
  AdminApi(DatabaseSet* databases, TestBench* bench);

  // True for the paths the admin API answers (every path under /_dynapage/, and /metrics).
  static bool IsAdminPath(std::string_view path);
  // REQUIRES: IsAdminPath(request.path).
  WireResponse Handle(const AdminRequest& request) const;
  // query_parameters: those the route accepts; any other is refused with 400.
  void AddRoute(std::string method, std::string path, std::vector<std::string> query_parameters, Handler handler);

 private:
  struct Route {
    std::string method, path;
    std::vector<std::string> query_parameters;
    Handler handler;
  };

  WireResponse Reset(const AdminRequest& request);
  WireResponse Requests(const AdminRequest& request) const;
  WireResponse AddFaults(const AdminRequest& request);
  WireResponse SetChaos(const AdminRequest& request);

  DatabaseSet* databases_;
  TestBench* bench_;
  std::vector<Route> routes_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_ADMIN_API_H_
