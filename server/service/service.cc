#include "server/service/service.h"

#include <utility>

#include "server/admin/admin_streams.h"
#include "server/console/console_routes.h"
#include "server/operations/operation_table.h"

namespace dynapage {

namespace {

HttpAnswer ToHttpAnswer(WireResponse&& answer) {
  HttpAnswer response;
  response.status = answer.status;
  response.content_type = answer.content_type;
  response.body = std::move(answer.body);
  response.drop_connection = answer.drop_connection;
  response.headers = std::move(answer.headers);
  return response;
}

// The browser guard's verdict on request: true, with *refusal its answer, when a web page may not send it.
bool RefuseBrowserRequest(const HttpRequestView& request, const BrowserGuardOptions& guard, HttpAnswer* refusal) {
  WireResponse answer;
  GuardedRequest guarded{request.method, request.path,         request.host,
                         request.origin, request.content_type, request.loopback_only};
  if (!RefuseBrowserRequest(guarded, guard, &answer)) return false;
  *refusal = ToHttpAnswer(std::move(answer));
  return true;
}

}  // namespace

Service::Service(DatabaseSet* databases, const ServiceOptions& options, TestBench* bench) : databases_(databases) {
  Wire(options, bench);
}

Service::Service(Database* db, const ServiceOptions& options, TestBench* bench)
    : owned_databases_(std::make_unique<DatabaseSet>(db)), databases_(owned_databases_.get()) {
  Wire(options, bench);
}

Status Service::Open(NamespaceMode mode, const DatabaseOptions& database, const ServiceOptions& options,
                     TestBench* bench, std::unique_ptr<Service>* out) {
  std::unique_ptr<DatabaseSet> databases;
  Status status = DatabaseSet::Open(mode, database, &databases);
  if (!status.ok()) return status;
  out->reset(new Service(databases.get(), options, bench));
  (*out)->owned_databases_ = std::move(databases);
  return Status::OK();
}

Service::~Service() = default;

void Service::Wire(const ServiceOptions& options, TestBench* bench) {
  // The test bench runs around every request, and the admin API serves it; with none given, one with everything
  // off.
  bench_ = bench ? bench : (owned_bench_ = std::make_unique<TestBench>(TestBenchOptions())).get();
  ServiceOptions hooked = options;
  hooked.hooks = bench_;
  transfers_ = std::make_unique<TransferJobs>(options.s3_dir);
  hooked.transfers = transfers_.get();
  bulk_operations_ = std::make_unique<BulkOperations>(options.s3_dir);
  hooked.bulk_operations = bulk_operations_.get();
  admin_ = std::make_unique<AdminApi>(databases_, bench_);
  AddStreamsAdminRoutes(admin_.get(), databases_, options);
  AddConsoleRoutes(admin_.get(), databases_, bench_, options);
  bench_->Attach(databases_, options, FindOperation, ServedOperationNames());
  dispatcher_ =
      std::make_unique<Dispatcher>(databases_, hooked, FindOperation, FindStreamsOperation, DeclareOperationTargets);
}

void Service::StartSweepers(const RequestContext& context, int64_t interval_ms) {
  databases_->StartSweepers(context, interval_ms);
}

HttpAnswer Service::Handle(const HttpRequestView& request) {
  // First, whatever path the HTTP layer read the request on: what a web page may not send changes nothing.
  HttpAnswer refusal;
  if (RefuseBrowserRequest(request, guard_, &refusal)) return refusal;
  WireResponse answer;
  if (AdminApi::IsAdminPath(request.path)) {
    AdminRequest admin{request.method, request.path,       ParseQueryString(request.query),
                       request.body,   request.request_id, request.authorization};
    answer = admin_->Handle(admin);
  } else {
    WireRequest wire;
    wire.request_id = request.request_id;
    wire.method = request.method;
    wire.path = request.path;
    wire.content_type = request.content_type;
    wire.target = request.target;
    wire.authorization = request.authorization;
    wire.host = request.host;
    wire.has_amz_date = request.has_amz_date;
    wire.query_has_algorithm = request.query_has_algorithm;
    wire.body = request.body;
    answer = dispatcher_->Handle(wire);
  }
  return ToHttpAnswer(std::move(answer));
}

bool Service::RefusePreflight(const HttpRequestView& request, HttpAnswer* refusal) {
  return RefuseBrowserRequest(request, guard_, refusal);
}

CrossOriginRule Service::CrossOrigin(std::string_view path) const {
  if (!AdminApi::IsAdminPath(path)) return CrossOriginRule();
  return CrossOriginRule{&guard_.admin_cors_origins, "GET, POST, DELETE, OPTIONS"};
}

}  // namespace dynapage
