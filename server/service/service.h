// Service: dynapage's DynamoDB service, as HttpServer's RequestHandler. It owns what serves a request once HTTP
// has framed it: the databases (a DatabaseSet, one database per namespace), the dispatcher of DynamoDB's and
// DynamoDB Streams' JSON protocol, the test bench around every request (page chaos, faults, audit, request log,
// metrics), the admin API under /_dynapage/ and /metrics, the TTL sweepers, and the browser guard
// (server/admin/browser_guard.h): every request and every CORS preflight is checked against it first, on whichever
// path the HTTP layer read it. The HTTP layer below it knows none of these; main() wires the two together.
//
// Thread-safe: Handle() runs on every connection's thread at once.

#ifndef DYNAPAGE_SERVER_SERVICE_SERVICE_H_
#define DYNAPAGE_SERVER_SERVICE_SERVICE_H_

#include <memory>
#include <string_view>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/database/database_set.h"
#include "engine/transfer/bulk_operations.h"
#include "engine/transfer/transfer_jobs.h"
#include "server/admin/admin_api.h"
#include "server/admin/browser_guard.h"
#include "server/admin/test_bench.h"
#include "server/http/exchange.h"
#include "server/protocol/dispatcher.h"

namespace dynapage {

class Service : public RequestHandler {
 public:
  // Serves each caller the database of its namespace in databases, with options. bench is the test bench requests
  // run in and the admin API serves; null: one with everything off. REQUIRES: databases and bench outlive the
  // service.
  Service(DatabaseSet* databases, const ServiceOptions& options, TestBench* bench = nullptr);
  // Serves db to every caller (the shared namespace), as above. REQUIRES: db and bench outlive the service.
  explicit Service(Database* db, const ServiceOptions& options = ServiceOptions(), TestBench* bench = nullptr);
  // Opens the store of mode's namespaces (DatabaseSet::Open: a bad folder is reported now) and serves them.
  // REQUIRES: bench outlives the service.
  static Status Open(NamespaceMode mode, const DatabaseOptions& database, const ServiceOptions& options,
                     TestBench* bench, std::unique_ptr<Service>* out);
  ~Service() override;
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // From now on every database, open or opened later, has a TTL sweeper running every interval_ms in context
  // (DatabaseSet::StartSweepers); interval_ms 0 starts none. REQUIRES: called once; context's clock outlives the
  // service.
  void StartSweepers(const RequestContext& context, int64_t interval_ms);

  // What keeps web pages out (--allow-host, --admin-cors). REQUIRES: called before the service serves.
  void set_browser_guard(const BrowserGuardOptions& options) { guard_ = options; }

  // The browser guard's refusal, or the admin API's routes for paths under /_dynapage/ and /metrics, the
  // dispatcher's for any other.
  HttpAnswer Handle(const HttpRequestView& request) override;
  // The browser guard's refusal of a preflight (an admin route's from an origin --admin-cors does not allow).
  bool RefusePreflight(const HttpRequestView& request, HttpAnswer* refusal) override;
  // Admin routes: the origins of --admin-cors, and DELETE too; any other path: the server's (--cors).
  CrossOriginRule CrossOrigin(std::string_view path) const override;

  DatabaseSet* databases() { return databases_; }
  TestBench* bench() { return bench_; }

 private:
  // Makes the dispatcher and the admin API over databases_ and bench_ (or a bench of its own).
  void Wire(const ServiceOptions& options, TestBench* bench);

  // Declared first, destroyed last: everything below uses the set.
  std::unique_ptr<DatabaseSet> owned_databases_;
  DatabaseSet* databases_;
  std::unique_ptr<TestBench> owned_bench_;
  TestBench* bench_;
  std::unique_ptr<TransferJobs> transfers_;  // export and import (--s3-dir)
  // StartBulkPutItems and co. (--s3-dir); destroyed (its worker joined) before the databases it writes.
  std::unique_ptr<BulkOperations> bulk_operations_;
  std::unique_ptr<AdminApi> admin_;
  std::unique_ptr<Dispatcher> dispatcher_;
  BrowserGuardOptions guard_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_SERVICE_SERVICE_H_
