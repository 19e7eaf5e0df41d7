#include "server/admin/admin_streams.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include <functional>
#include <utility>

#include "engine/base/messages.h"
#include "engine/database/sweeper.h"
#include "engine/model/attribute_value_json.h"
#include "server/protocol/wire_error.h"

namespace dynapage {

namespace {
constexpr char kSweepPath[] = "/_dynapage/ttl/sweep";
constexpr char kClockPath[] = "/_dynapage/clock";

WireResponse Answer(const Status& status, const char* member, int64_t value) {
  WireResponse response;
  if (!status.ok()) {
    WireError error = ToWireError(status);
    response.status = error.http_status;
    response.body = error.body;
    return response;
  }
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key(member);
  w.Int64(value);
  w.EndObject();
  response.body.assign(buffer.GetString(), buffer.GetSize());
  return response;
}

// The body as a JSON object; an empty body is an empty object.
Status ParseBody(std::string_view body, rapidjson::Document* doc) {
  if (body.empty()) {
    doc->SetObject();
    return Status::OK();
  }
  doc->Parse(body.data(), body.size());
  if (doc->HasParseError() || !doc->IsObject()) return Status::Validation("The body must be a JSON object");
  return Status::OK();
}

// A handler of the request's body as a JSON object; a malformed body is answered before it.
AdminApi::Handler WithJsonBody(std::function<WireResponse(const AdminRequest&, const rapidjson::Document&)> handle) {
  return [handle = std::move(handle)](const AdminRequest& request) {
    rapidjson::Document body;
    Status parsed = ParseBody(request.body, &body);
    if (!parsed.ok()) return Answer(parsed, "", 0);
    return handle(request, body);
  };
}

// Sweeps the caller's namespace (ctx.caller's), or every namespace open when all_namespaces.
WireResponse Sweep(DatabaseSet* databases, const RequestContext& ctx, bool all_namespaces,
                   const rapidjson::Document& body) {
  std::string table_name;
  if (body.HasMember("TableName")) {
    if (!body["TableName"].IsString()) return Answer(Status::Validation("TableName must be a string"), "", 0);
    table_name = body["TableName"].GetString();
  }
  // A named table lives in some of the namespaces: the others' "not found" is no error unless none has it.
  uint64_t deleted = 0;
  Status not_found;
  bool found = table_name.empty();
  auto sweep = [&](Database* db) {
    uint64_t n = 0;
    Status swept = SweepNow(db, ctx, table_name, &n);
    deleted += n;
    if (swept.code() == ErrorCode::kResourceNotFound && !table_name.empty()) {
      not_found = swept;
      return Status::OK();
    }
    found = found || swept.ok();
    return swept;
  };
  Database* own = nullptr;
  Status s = all_namespaces ? databases->ForEachOpen(sweep) : databases->For(ctx.caller, &own);
  if (s.ok() && own) s = sweep(own);
  if (s.ok() && !found) s = not_found.ok() ? Status::NotFound(std::string(kResourceNotFound)) : not_found;
  return Answer(s, "ExpiredItems", static_cast<int64_t>(deleted));
}

// The clock is the server's, every namespace's: a change needs ?scope=all, so that no worker moves the others' time
// (and lets the TTL sweeper delete their items) by accident.
WireResponse SetClock(OffsetClock* clock, bool all_namespaces, const rapidjson::Document& body) {
  if (!clock) return Answer(Status::Validation("This server's clock cannot be set"), "", 0);
  bool changes = body.HasMember("set_epoch_ms") || body.HasMember("advance_ms") || body.HasMember("reset");
  if (changes && !all_namespaces) {
    return AdminError(400, "BadRequest",
                      "the clock is the server's, shared by every namespace: change it with POST "
                      "/_dynapage/clock?scope=all");
  }
  if (body.HasMember("set_epoch_ms")) {
    if (!body["set_epoch_ms"].IsInt64()) return Answer(Status::Validation("set_epoch_ms must be an integer"), "", 0);
    clock->Set(body["set_epoch_ms"].GetInt64());
  } else if (body.HasMember("advance_ms")) {
    if (!body["advance_ms"].IsInt64()) return Answer(Status::Validation("advance_ms must be an integer"), "", 0);
    clock->Advance(body["advance_ms"].GetInt64());
  } else if (body.HasMember("reset")) {
    clock->Reset();
  }
  return Answer(Status::OK(), "epoch_ms", clock->NowMillis());
}
}  // namespace

void AddStreamsAdminRoutes(AdminApi* api, DatabaseSet* databases, const ServiceOptions& options) {
  ServiceOptions service = options;
  if (service.settable_clock) service.clock = service.settable_clock;
  api->AddRoute("POST", kSweepPath, {},
                WithJsonBody([databases, service](const AdminRequest& request, const rapidjson::Document& body) {
                  return Sweep(databases, ServiceRequestContext(service, request.request_id, request.authorization),
                               request.scope == nullptr, body);
                }));
  api->AddRoute(
      "POST", kClockPath, {},
      WithJsonBody([clock = options.settable_clock](const AdminRequest& request, const rapidjson::Document& body) {
        return SetClock(clock, request.scope == nullptr, body);
      }));
}

}  // namespace dynapage
