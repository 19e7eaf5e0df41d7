// dynapage: a local DynamoDB-compatible server. See README.md; the command line is server/command_line.h.

#include <malloc.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/offset_clock.h"
#include "engine/database/database.h"
#include "server/command_line.h"
#include "server/health_check.h"
#include "server/http/http_server.h"
#include "server/seed/seeder.h"
#include "server/service/service.h"

namespace {

// Loads every --seed PATH into databases, all or nothing; false (the errors on stderr) if the seed is refused.
bool Seed(const dynapage::CommandLine& options, dynapage::DatabaseSet* databases, const dynapage::Clock* clock) {
  dynapage::RequestContext context;
  context.request_id = "seed";
  context.caller.region = options.service.region;
  context.clock = clock;
  std::vector<std::string> errors;
  dynapage::Status seeded = dynapage::SeedPaths(options.seeds, databases, context, stderr, &errors);
  if (seeded.ok()) return true;
  constexpr size_t kMaxErrorsShown = 50;
  for (size_t i = 0; i < errors.size() && i < kMaxErrorsShown; ++i) {
    std::fprintf(stderr, "seed: %s\n", errors[i].c_str());
  }
  if (errors.size() > kMaxErrorsShown) {
    std::fprintf(stderr, "seed: ... and %zu more error(s)\n", errors.size() - kMaxErrorsShown);
  }
  std::fprintf(stderr, "dynapage: %s\n", seeded.message().c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  dynapage::CommandLine options;
  dynapage::CommandLineOutcome outcome =
      dynapage::ParseCommandLine(std::vector<std::string>(argv + 1, argv + argc), &options);
  if (!outcome.run) {
    std::fputs(outcome.output.c_str(), stdout);
    std::fputs(outcome.error.c_str(), stderr);
    return outcome.exit_code;
  }
  if (options.health_check) {
    std::string report;
    int status = dynapage::RunHealthCheck(dynapage::HealthCheckAddress(options.host), options.port, 2000, &report);
    std::fprintf(status == 0 ? stdout : stderr, "%s\n", report.c_str());
    return status;
  }

  dynapage::TestBench bench(options.bench);
  std::string bench_error = bench.Open();
  if (!bench_error.empty()) {
    std::fprintf(stderr, "dynapage: %s\n", bench_error.c_str());
    return 2;
  }

  // Signals are taken synchronously by the accept loop (HttpServer::StopOnSignals), so that shutdown runs
  // outside a signal handler: blocked here, before any thread starts, so that every thread has them blocked.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  // Listening before the database opens: a client that connects meanwhile is answered as soon as it is open,
  // instead of being refused and having to retry. With --seed, only once the seed is loaded: a client must never
  // see a half-seeded server, and a seed that fails leaves no port bound.
  // Connections and RocksDB's files share the open-file limit: take all the system allows.
  dynapage::RaiseOpenFileLimit();
  dynapage::HttpServer server;
  server.set_options(options.http);
  const std::string& host = options.host;
  int bound = -1;
  auto listen = [&]() {
    bound = host.empty() ? server.BindLoopback(options.port) : server.Bind(host, options.port);
    if (bound < 0) {
      std::fprintf(stderr, "dynapage: cannot listen on %s:%d\n", host.empty() ? "localhost" : host.c_str(),
                   options.port);
    }
    return bound >= 0;
  };
  if (options.seeds.empty() && !listen()) return 1;
  const std::string& path = options.database.path;
  // Streams and TTL: the clock POST /_dynapage/clock sets (the server's clock), and one TTL sweeper for every
  // namespace, every --ttl-interval seconds.
  dynapage::OffsetClock clock;
  options.service.settable_clock = &clock;
  // The store opens now, for every namespace mode (creating the folder, the owner's only), so that a bad folder,
  // a folder another dynapage process holds, or a 0.1.0 folder's migration is dealt with before the first
  // request; each namespace's catalog is read on its first request.
  std::unique_ptr<dynapage::Service> service;
  dynapage::Status opened =
      dynapage::Service::Open(options.namespace_mode, options.database, options.service, &bench, &service);
  if (!opened.ok()) {
    std::fprintf(stderr, "dynapage: %s\n", opened.message().c_str());
    return 1;
  }
  service->set_browser_guard(options.guard);
  dynapage::Store* store = service->databases()->store();
  if (store->migrated_namespaces() > 0) {
    std::fprintf(stderr, "dynapage: migrated %d namespace database(s) of dynapage 0.1.0 in %s into its store\n",
                 store->migrated_namespaces(), path.c_str());
  }
  if (!options.seeds.empty()) {
    if (!Seed(options, service->databases(), &clock)) return 1;
    malloc_trim(0);  // the seed's text and items (a few times the file's size) back to the system
    if (!listen()) return 1;
  }
  dynapage::RequestContext sweeper_context;
  sweeper_context.request_id = "ttl-sweeper";
  sweeper_context.caller.region = options.service.region;
  sweeper_context.clock = &clock;
  service->StartSweepers(sweeper_context, options.ttl_interval_seconds * 1000);
  // Scripts read the first address of this line: keep "listening on http://HOST:PORT" first.
  std::string where = host.empty() ? "127.0.0.1:" + std::to_string(bound) + " and http://[::1]"
                                   : (host.find(':') != std::string::npos ? "[" + host + "]" : host);
  std::string chaos = options.bench.page_chaos_seed
                          ? ", page chaos seed " + std::to_string(*options.bench.page_chaos_seed)
                          : std::string();
  std::printf("dynapage %s listening on http://%s:%d (%s, namespace %s, max page %llu bytes%s)\n", DYNAPAGE_VERSION,
              where.c_str(), bound, path.empty() ? "in memory" : ("data in " + path).c_str(),
              dynapage::NamespaceModeName(options.namespace_mode),
              static_cast<unsigned long long>(options.service.max_page_bytes), chaos.c_str());
  if (options.bench.page_chaos_seed) {
    std::fprintf(stderr, "dynapage: page chaos on, seed %llu\n",
                 static_cast<unsigned long long>(*options.bench.page_chaos_seed));
  }
  std::fflush(stdout);
  server.StopOnSignals(signals);
  server.Run(service.get());
  // Run() also returns if the listener fails: make sure new requests are turned away.
  server.Stop();
  server.WaitForRequests();
  // The audit's summary reads what abandoned chains left: before the databases close.
  std::string audit_summary = bench.audit() ? bench.AuditSummary() : "";
  service.reset();  // closes the databases: flushes RocksDB
  int exit_status = 0;
  if (bench.audit()) {
    std::fputs(audit_summary.c_str(), stderr);
    if (options.fail_on_abandoned && bench.audit()->abandoned() > 0) {
      exit_status = 3;
      std::string per_operation;
      for (const auto& [operation, count] : bench.audit()->AbandonedByOperation()) {
        per_operation.append(per_operation.empty() ? "" : ", ").append(operation + " " + std::to_string(count));
      }
      std::fprintf(stderr, "dynapage: exit status 3 (--fail-on-abandoned): %zu continuation(s) abandoned (%s)\n",
                   bench.audit()->abandoned(), per_operation.c_str());
    }
  }
  std::printf("dynapage stopped\n");
  std::fflush(stdout);
  std::fflush(stderr);
  // Idle keep-alive connections may still hold threads blocked on their sockets; they have nothing left to do,
  // and running static destructors under them would be unsafe, so leave without running them.
  std::_Exit(exit_status);
}
