#include "server/console/console_routes.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <utility>

#include "engine/base/check.h"
#include "server/console/console_assets.h"

namespace dynapage {

namespace {

constexpr char kConsolePath[] = "/_dynapage/console";

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The headers of every console answer: its files are revalidated (a new binary serves new ones), its JSON views
// never kept.
// REQUIRES: content_type has static storage (WireResponse::content_type).
WireResponse ConsoleAnswer(std::string_view content_type, std::string body, const char* cache_control) {
  WireResponse response;
  response.content_type = content_type;
  response.body = std::move(body);
  response.headers = {{"Cache-Control", cache_control},
                      {"Content-Security-Policy", kConsoleSecurityPolicy},
                      {"X-Content-Type-Options", "nosniff"},
                      {"Referrer-Policy", "no-referrer"},
                      {"X-Frame-Options", "DENY"}};
  return response;
}

WireResponse ConsoleJson(WireResponse&& answer) {
  if (answer.status != 200) return std::move(answer);
  return ConsoleAnswer(answer.content_type, std::move(answer.body), "no-store");
}

std::string NamespacesJson(DatabaseSet* databases, TestBench* bench, uint64_t max_page_bytes,
                           const AdminRequest& request) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto text = [&w](const char* key, std::string_view value) {
    w.Key(key);
    w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  };
  w.StartObject();
  text("mode", NamespaceModeName(databases->mode()));
  Caller caller = CallerOf(request.authorization, bench->default_region());
  w.Key("caller");
  w.StartObject();
  text("access_key", caller.access_key);
  text("region", caller.region);
  text("namespace", bench->ScopeOf(request.authorization));
  w.EndObject();
  w.Key("max_page_bytes");
  w.Uint64(max_page_bytes);
  w.Key("namespaces");
  w.StartArray();
  databases->ForEachNamespace([&](const Caller& owner, Database* db) {
    std::vector<std::string> tables;
    bool more = false;
    db->catalog().ListTables("", SIZE_MAX, &tables, &more);
    w.StartObject();
    text("namespace", NamespaceName(databases->mode(), owner));
    text("access_key", owner.access_key);
    text("region", owner.region);
    w.Key("tables");
    w.Uint64(tables.size());
    w.EndObject();
    return Status::OK();
  });
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

WireResponse RecentRequests(TestBench* bench, const AdminRequest& request) {
  size_t limit = 0;
  WireResponse refusal;
  if (!RecentRequestsLimit(request, &limit, &refusal)) return refusal;
  const char* kept = bench->WatchRequests();
  std::string body = bench->log()->RecentJson(limit, request.scope);
  DP_DCHECK(!body.empty() && body.back() == '}');
  body.pop_back();
  return AdminJson(body + ",\"recording\":\"" + kept + "\"}");
}

}  // namespace

std::string_view ConsoleContentType(std::string_view file_name) {
  if (EndsWith(file_name, ".html")) return "text/html; charset=utf-8";
  if (EndsWith(file_name, ".css")) return "text/css; charset=utf-8";
  if (EndsWith(file_name, ".js")) return "text/javascript; charset=utf-8";
  if (EndsWith(file_name, ".svg")) return "image/svg+xml";
  if (EndsWith(file_name, ".png")) return "image/png";
  return "application/octet-stream";
}

void AddConsoleRoutes(AdminApi* api, DatabaseSet* databases, TestBench* bench, const ServiceOptions& options) {
  DP_DCHECK(api != nullptr && databases != nullptr && bench != nullptr);
  for (size_t i = 0; i < kConsoleAssetCount; i++) {
    const ConsoleAsset& asset = kConsoleAssets[i];
    AdminApi::Handler serve = [asset](const AdminRequest&) {
      return ConsoleAnswer(ConsoleContentType(asset.name), std::string(asset.bytes), "no-cache");
    };
    api->AddRoute("GET", std::string(kConsolePath) + "/" + std::string(asset.name), {}, serve);
    if (asset.name == "index.html") {
      // ?access_key=…&region=…: a link to the page looking at one namespace (read by the page).
      api->AddRoute("GET", kConsolePath, {"access_key", "region"}, serve);
      api->AddRoute("GET", std::string(kConsolePath) + "/", {"access_key", "region"}, serve);
    }
  }
  api->AddRoute("GET", std::string(kConsolePath) + "/namespaces", {},
                [databases, bench, max_page_bytes = options.max_page_bytes](const AdminRequest& r) {
                  return ConsoleJson(AdminJson(NamespacesJson(databases, bench, max_page_bytes, r)));
                });
  api->AddRoute("GET", std::string(kConsolePath) + "/requests", {"limit"},
                [bench](const AdminRequest& r) { return ConsoleJson(RecentRequests(bench, r)); });
}

}  // namespace dynapage
