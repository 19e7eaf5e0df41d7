#include "server/admin/admin_api.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <cstdint>
#include <utility>

#include "engine/base/check.h"

namespace dynapage {

namespace {

constexpr std::string_view kAdminPrefix = "/_dynapage/";
constexpr size_t kDefaultRecentRequests = 100;
constexpr char kScopeParameter[] = "scope";

std::string Quoted(std::string_view text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

WireResponse FeatureOff(const std::string& what, const std::string& flag) {
  return AdminError(409, "FeatureOff", what + " is off: start dynapage with " + flag);
}

// "arn:aws:dynamodb:REGION:ACCOUNT:table/NAME" -> the caller that made it, so a table made again keeps its ARN.
Caller CallerOfArn(const std::string& arn) {
  Caller caller;
  std::vector<std::string> parts;
  size_t start = 0;
  for (int i = 0; i < 5; i++) {
    size_t colon = arn.find(':', start);
    if (colon == std::string::npos) return caller;
    parts.push_back(arn.substr(start, colon - start));
    start = colon + 1;
  }
  caller.region = parts[3];
  caller.account_id = parts[4];
  return caller;
}

}  // namespace

WireResponse AdminError(int status, const std::string& kind, const std::string& message) {
  WireResponse response;
  response.status = status;
  response.content_type = "application/json";
  response.body = "{\"error\":" + Quoted(kind) + ",\"message\":" + Quoted(message) + "}";
  return response;
}

WireResponse AdminJson(std::string body) {
  WireResponse response;
  response.content_type = "application/json";
  response.body = std::move(body);
  return response;
}

bool AdminApi::IsAdminPath(std::string_view path) {
  return path.compare(0, kAdminPrefix.size(), kAdminPrefix) == 0 || path == "/metrics";
}

AdminApi::AdminApi(DatabaseSet* databases, TestBench* bench) : databases_(databases), bench_(bench) {
  DP_DCHECK(databases_ != nullptr && bench_ != nullptr);
  AddRoute("GET", "/_dynapage/health", {}, [](const AdminRequest&) { return AdminJson("{\"status\":\"ok\"}"); });
  AddRoute("GET", "/_dynapage/ready", {}, [](const AdminRequest&) { return AdminJson("{\"ready\":true}"); });
  AddRoute("POST", "/_dynapage/reset", {"table"}, [this](const AdminRequest& r) { return Reset(r); });
  AddRoute("GET", "/_dynapage/faults", {}, [this](const AdminRequest& r) {
    return AdminJson("{\"rules\":" + bench_->faults().ListJson(r.scope) + "}");
  });
  AddRoute("POST", "/_dynapage/faults", {}, [this](const AdminRequest& r) { return AddFaults(r); });
  AddRoute("DELETE", "/_dynapage/faults", {}, [this](const AdminRequest& r) {
    bench_->ClearFaults(r.scope);
    return AdminJson("{\"rules\":" + bench_->faults().ListJson(r.scope) + "}");
  });
  AddRoute("GET", "/_dynapage/chaos", {},
           [this](const AdminRequest& r) { return AdminJson(bench_->ChaosJson(r.scope)); });
  AddRoute("POST", "/_dynapage/chaos", {}, [this](const AdminRequest& r) { return SetChaos(r); });
  AddRoute("DELETE", "/_dynapage/chaos", {"table"}, [this](const AdminRequest& r) {
    auto table = r.query.find("table");
    bench_->ClearChaos(r.scope, table == r.query.end() ? "" : table->second);
    return AdminJson(bench_->ChaosJson(r.scope));
  });
  AddRoute("GET", "/_dynapage/pagination", {}, [this](const AdminRequest& r) {
    if (!bench_->audit()) return FeatureOff("the pagination audit", "--audit-pagination");
    return AdminJson(bench_->AuditReportJson(r.scope));
  });
  AddRoute("GET", "/_dynapage/requests", {"limit"}, [this](const AdminRequest& r) { return Requests(r); });
  AddRoute("GET", "/metrics", {}, [this](const AdminRequest&) {
    WireResponse response;
    response.content_type = "text/plain; version=0.0.4";
    std::vector<const Catalog*> catalogs;
    databases_->ForEachOpen([&](Database* db) {
      catalogs.push_back(&db->catalog());
      return Status::OK();
    });
    response.body = Metrics::Text(bench_->metrics(), catalogs);
    return response;
  });
}

void AdminApi::AddRoute(std::string method, std::string path, std::vector<std::string> query_parameters,
                        Handler handler) {
  routes_.push_back(Route{std::move(method), std::move(path), std::move(query_parameters), std::move(handler)});
}

WireResponse AdminApi::Handle(const AdminRequest& original) const {
  AdminRequest request = original;
  std::string type, message;
  if (!request.authorization.empty() && !CheckCredentialScope(request.authorization, &type, &message)) {
    return AdminError(400, type, message);
  }
  std::string caller_scope = bench_->ScopeOf(request.authorization);
  request.scope = &caller_scope;
  auto scope = request.query.find(kScopeParameter);
  if (scope != request.query.end()) {
    if (scope->second != "all") {
      return AdminError(400, "BadRequest",
                        "scope must be 'all' (every namespace), not " + Quoted(scope->second) +
                            "; without it a route acts on the namespace of the request's credentials");
    }
    request.scope = nullptr;
  }
  std::string allowed;
  for (const Route& route : routes_) {
    if (route.path != request.path) continue;
    if (route.method != request.method) {
      allowed.append(allowed.empty() ? "" : ", ").append(route.method);
      continue;
    }
    for (const auto& [name, value] : request.query) {
      bool known = name == kScopeParameter;
      for (const std::string& p : route.query_parameters) known = known || p == name;
      if (!known) {
        return AdminError(400, "BadRequest",
                          "unknown query parameter '" + name + "' for " + route.method + " " + route.path);
      }
    }
    return route.handler(request);
  }
  std::string target = std::string(request.method) + " " + std::string(request.path);
  if (!allowed.empty()) {
    return AdminError(405, "MethodNotAllowed",
                      target + " is not allowed; " + std::string(request.path) + " takes " + allowed);
  }
  return AdminError(404, "NotFound", "no admin route " + target + " (see docs/testing-pagination.md)");
}

WireResponse AdminApi::Reset(const AdminRequest& request) {
  auto start = std::chrono::steady_clock::now();
  auto param = request.query.find("table");
  const bool one_table = param != request.query.end();
  // The caller's namespace's database, or every namespace's (?scope=all: a named table is reset wherever it is).
  std::vector<Database*> dbs;
  if (request.scope) {
    Database* db = nullptr;
    Status opened = databases_->For(CallerOf(request.authorization, bench_->default_region()), &db);
    if (!opened.ok()) return AdminError(500, "ResetFailed", opened.message());
    dbs.push_back(db);
  } else {
    databases_->ForEachOpen([&](Database* db) {
      dbs.push_back(db);
      return Status::OK();
    });
  }
  std::vector<std::string> names;
  for (Database* db : dbs) {
    std::vector<std::string> here;
    if (one_table) {
      if (db->catalog().FindTable(param->second)) here.push_back(param->second);
    } else {
      bool more = false;
      db->catalog().ListTables("", SIZE_MAX, &here, &more);
    }
    for (const std::string& name : here) {
      std::shared_ptr<const TableDefinition> table = db->catalog().FindTable(name);
      if (!table) continue;  // deleted meanwhile
      TableDescription description;
      Status s = db->writes().DeleteTable(BackgroundContext(), name, &description);
      // With ?table=, the table is made again empty, with its definition (keys, indexes, TTL, tags).
      if (s.ok() && one_table) {
        RequestContext context;
        context.caller = CallerOfArn(table->arn);
        s = db->writes().CreateTable(context, *table, &description);
      }
      if (!s.ok()) return AdminError(500, "ResetFailed", "resetting " + name + ": " + s.message());
      names.push_back(name);
    }
  }
  if (one_table && names.empty()) return AdminError(404, "TableNotFound", "no table named " + Quoted(param->second));
  bench_->ForgetRequests(request.scope);
  double millis = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::string list;
  for (const std::string& name : names) list.append(list.empty() ? "" : ",").append(Quoted(name));
  return AdminJson(std::string("{\"") + (one_table ? "emptied" : "deleted") + "\":[" + list +
                   "],\"milliseconds\":" + std::to_string(millis) + "}");
}

bool RecentRequestsLimit(const AdminRequest& request, size_t* limit, WireResponse* refusal) {
  *limit = kDefaultRecentRequests;
  auto param = request.query.find("limit");
  if (param == request.query.end()) return true;
  const std::string& text = param->second;
  bool digits = !text.empty() && text.size() <= 4 && text.find_first_not_of("0123456789") == std::string::npos;
  *limit = digits ? std::stoul(text) : 0;
  if (*limit >= 1 && *limit <= kRecentRequests) return true;
  *refusal =
      AdminError(400, "BadRequest",
                 "limit must be a whole number from 1 to " + std::to_string(kRecentRequests) + ", not " + Quoted(text));
  return false;
}

WireResponse AdminApi::Requests(const AdminRequest& request) const {
  if (!bench_->log()) return FeatureOff("the request log", "--request-log FILE (or - for stdout)");
  size_t limit = 0;
  WireResponse refusal;
  if (!RecentRequestsLimit(request, &limit, &refusal)) return refusal;
  return AdminJson(bench_->log()->RecentJson(limit, request.scope));
}

WireResponse AdminApi::AddFaults(const AdminRequest& request) {
  rapidjson::Document document;
  document.Parse(request.body.data(), request.body.size());
  if (document.HasParseError()) return AdminError(400, "BadRequest", "the body is not valid JSON");
  std::vector<FaultRule> rules;
  std::string error = ParseFaultRuleList(document, bench_->operations(), &rules);
  if (!error.empty()) return AdminError(400, "BadRequest", error);
  for (FaultRule& rule : rules) {
    if (request.scope) rule.scope = *request.scope;
    bench_->AddFault(std::move(rule));
  }
  return AdminJson("{\"rules\":" + bench_->faults().ListJson(request.scope) + "}");
}

WireResponse AdminApi::SetChaos(const AdminRequest& request) {
  rapidjson::Document document;
  document.Parse(request.body.data(), request.body.size());
  if (document.HasParseError() || !document.IsObject()) {
    return AdminError(400, "BadRequest",
                      "the body must be a JSON object: {\"seed\": N} or {\"seed\": N, \"table\": T}");
  }
  std::string table;
  std::optional<uint64_t> seed;
  for (auto m = document.MemberBegin(); m != document.MemberEnd(); ++m) {
    std::string_view name(m->name.GetString(), m->name.GetStringLength());
    if (name == "seed" && m->value.IsUint64()) {
      seed = m->value.GetUint64();
    } else if (name == "table" && m->value.IsString() && m->value.GetStringLength() > 0) {
      table.assign(m->value.GetString(), m->value.GetStringLength());
    } else if (name == "seed" || name == "table") {
      return AdminError(400, "BadRequest", "'seed' must be a whole number >= 0 and 'table' a non-empty string");
    } else {
      return AdminError(400, "BadRequest", "unknown field '" + std::string(name) + "' (seed, table)");
    }
  }
  if (!seed) return AdminError(400, "BadRequest", "'seed' is required");
  bench_->SetChaos(request.scope, table, *seed);
  return AdminJson(bench_->ChaosJson(request.scope));
}

}  // namespace dynapage
