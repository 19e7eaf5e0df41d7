// Service: dynapage's DynamoDB service, as HttpServer's RequestHandler. It owns what serves a request once HTTP
// has framed it: the databases (a DatabaseSet, one database per namespace), the dispatcher of DynamoDB's and
// DynamoDB Streams' JSON protocol, the test bench around every request (page chaos, faults, audit, request log,
// metrics), the admin API under /_dynapage/ and /metrics, and the TTL sweepers. The HTTP layer below it knows
// none of these; main() wires the two together.
//
// Thread-safe: Handle() runs on every connection's thread at once.

#ifndef DYNAPAGE_SERVER_SERVICE_SERVICE_H_
#define DYNAPAGE_SERVER_SERVICE_SERVICE_H_

#include <memory>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "server/admin/admin_api.h"
#include "server/admin/test_bench.h"
#include "server/http/exchange.h"
#include "server/protocol/database_set.h"
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
  // Opens the databases of mode and serves them: the shared namespace opens its one database now, so that a bad
  // directory is reported at once; the others open each namespace's on its first request. REQUIRES: bench outlives
  // the service.
  static Status Open(NamespaceMode mode, const DatabaseOptions& database, const ServiceOptions& options,
                     TestBench* bench, std::unique_ptr<Service>* out);
  ~Service() override;
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // From now on every database, open or opened later, has a TTL sweeper running every interval_ms in context
  // (DatabaseSet::StartSweepers); interval_ms 0 starts none. REQUIRES: called once; context's clock outlives the
  // service.
  void StartSweepers(const RequestContext& context, int64_t interval_ms);

  // The admin API's routes for paths under /_dynapage/ and /metrics, the dispatcher's for any other.
  HttpAnswer Handle(const HttpRequestView& request) override;

  DatabaseSet* databases() { return databases_; }
  TestBench* bench() { return bench_; }

 private:
  // Makes the dispatcher and the admin API over databases_ and bench_ (or a bench of its own).
  void Wire(const ServiceOptions& options, TestBench* bench);

  // Declared first, destroyed last: the set serves the shared database, and everything below uses the set.
  std::unique_ptr<Database> owned_shared_;
  std::unique_ptr<DatabaseSet> owned_databases_;
  DatabaseSet* databases_;
  std::unique_ptr<TestBench> owned_bench_;
  TestBench* bench_;
  std::unique_ptr<AdminApi> admin_;
  std::unique_ptr<Dispatcher> dispatcher_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_SERVICE_SERVICE_H_
