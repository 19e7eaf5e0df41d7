// dynapage: a local DynamoDB-compatible server. See README.md.
//
//   dynapage [--port 8000] [--host 127.0.0.1] [--db-path DIR] [--max-page-bytes N] [--no-client-cpu-affinity]
//            [--page-chaos SEED] [--faults FILE] [--audit-pagination] [--fail-on-abandoned] [--request-log FILE|-]
//            [--metrics]

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "engine/database/database.h"
#include "server/http/http_server.h"

namespace {

const char kUsage[] =
    "Usage: dynapage [options]\n"
    "\n"
    "A local DynamoDB-compatible server (DynamoDB JSON protocol over HTTP).\n"
    "\n"
    "Options:\n"
    "  --port N             port to listen on (default 8000; 0 picks a free port)\n"
    "  --host ADDR          address to bind (default 127.0.0.1; use 0.0.0.0 to accept remote clients)\n"
    "  --db-path DIR        keep data in DIR across restarts (default: in memory)\n"
    "  --max-page-bytes N   Query/Scan page size limit in bytes (default 1048576, DynamoDB's 1 MB);\n"
    "                       lower it to exercise pagination with little test data\n"
    "  --no-client-cpu-affinity\n"
    "                       let the scheduler place connection threads, instead of running each on the\n"
    "                       CPU its client sends from (which saves two cross-CPU wake-ups a request)\n"
    "  --page-chaos SEED    cut Query/Scan pages and batches at random legal points (seeded), to catch\n"
    "                       client loops that drop pages or unprocessed items\n"
    "  --faults FILE        inject errors, latency, unprocessed items, dropped connections by rule\n"
    "                       (a JSON list; see docs/testing-pagination.md)\n"
    "  --audit-pagination   remember continuations handed out; list the abandoned ones at shutdown\n"
    "                       and at GET /_dynapage/pagination\n"
    "  --fail-on-abandoned  with --audit-pagination: exit with status 3 if any was abandoned\n"
    "  --request-log FILE   one JSON line per request to FILE (- for stdout); GET /_dynapage/requests\n"
    "  --metrics            count requests for GET /metrics (Prometheus text)\n"
    "  --help               show this help\n"
    "  --version            show the version\n";

bool ParseNumber(const char* text, long long min, long long max, long long* out) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text, &end, 10);
  if (errno || !end || *end || end == text || v < min || v > max) return false;
  *out = v;
  return true;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "dynapage: %s\nTry 'dynapage --help'.\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string host = "127.0.0.1";
  long long port = 8000;
  dynapage::DatabaseOptions options;
  dynapage::ServiceOptions service;
  bool client_cpu_affinity = true;
  dynapage::TestBenchOptions bench_options;
  bool fail_on_abandoned = false;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    std::string value;
    bool has_inline = false;
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline = true;
    }
    auto next = [&](std::string* out) {
      if (has_inline) {
        *out = value;
        return true;
      }
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--version") {
      std::printf("dynapage %s\n", DYNAPAGE_VERSION);
      return 0;
    } else if (arg == "--port") {
      if (!next(&value) || !ParseNumber(value.c_str(), 0, 65535, &port)) {
        return Fail("--port needs a number from 0 to 65535");
      }
    } else if (arg == "--host") {
      if (!next(&host) || host.empty()) return Fail("--host needs an address");
    } else if (arg == "--db-path") {
      if (!next(&options.path) || options.path.empty()) return Fail("--db-path needs a directory");
    } else if (arg == "--max-page-bytes") {
      long long bytes = 0;
      if (!next(&value) || !ParseNumber(value.c_str(), 1, 1LL << 40, &bytes)) {
        return Fail("--max-page-bytes needs a positive number of bytes");
      }
      service.max_page_bytes = static_cast<uint64_t>(bytes);
    } else if (arg == "--no-client-cpu-affinity" && !has_inline) {
      client_cpu_affinity = false;
    // --- The test bench (docs/testing-pagination.md).
    } else if (arg == "--page-chaos") {
      long long seed = 0;
      if (!next(&value) || !ParseNumber(value.c_str(), 0, LLONG_MAX, &seed)) {
        return Fail("--page-chaos needs a seed, a whole number >= 0");
      }
      bench_options.page_chaos_seed = static_cast<uint64_t>(seed);
    } else if (arg == "--faults") {
      if (!next(&value) || value.empty()) return Fail("--faults needs a file of fault rules");
      std::ifstream file(value);
      std::stringstream text;
      if (!file || !(text << file.rdbuf())) return Fail("cannot read --faults file " + value);
      std::string error = dynapage::ParseFaultRules(text.str(), &bench_options.faults);
      if (!error.empty()) return Fail("--faults " + value + ": " + error);
    } else if (arg == "--audit-pagination" && !has_inline) {
      bench_options.audit_pagination = true;
    } else if (arg == "--fail-on-abandoned" && !has_inline) {
      fail_on_abandoned = true;
    } else if (arg == "--request-log") {
      if (!next(&bench_options.request_log) || bench_options.request_log.empty()) {
        return Fail("--request-log needs a file, or - for stdout");
      }
    } else if (arg == "--metrics" && !has_inline) {
      bench_options.metrics = true;
    } else {
      return Fail("unknown option '" + std::string(argv[i]) + "'");
    }
  }

  if (fail_on_abandoned && !bench_options.audit_pagination) return Fail("--fail-on-abandoned needs --audit-pagination");
  dynapage::TestBench bench(bench_options);
  std::string bench_error = bench.Open();
  if (!bench_error.empty()) return Fail(bench_error);

  // Signals are taken synchronously by a watcher thread, so that shutdown runs outside a signal handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  // Listening before the database opens: a client that connects meanwhile is answered as soon as it is open,
  // instead of being refused and having to retry.
  dynapage::HttpServer server;
  server.set_follow_client_cpu(client_cpu_affinity);
  server.set_test_bench(&bench);
  int bound = server.Bind(host, static_cast<int>(port));
  if (bound < 0) {
    std::fprintf(stderr, "dynapage: cannot listen on %s:%lld\n", host.c_str(), port);
    return 1;
  }
  std::unique_ptr<dynapage::Database> db;
  dynapage::Status status = dynapage::Database::Open(options, &db);
  if (!status.ok()) {
    std::fprintf(stderr, "dynapage: %s\n", status.message().c_str());
    return 1;
  }
  std::thread watcher([&server, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    server.Stop();
  });
  std::string chaos = bench_options.page_chaos_seed
                          ? ", page chaos seed " + std::to_string(*bench_options.page_chaos_seed)
                          : std::string();
  std::printf("dynapage %s listening on http://%s:%d (%s, max page %llu bytes%s)\n", DYNAPAGE_VERSION, host.c_str(),
              bound, options.path.empty() ? "in memory" : ("data in " + options.path).c_str(),
              static_cast<unsigned long long>(service.max_page_bytes), chaos.c_str());
  if (bench_options.page_chaos_seed) {
    std::fprintf(stderr, "dynapage: page chaos on, seed %llu\n",
                 static_cast<unsigned long long>(*bench_options.page_chaos_seed));
  }
  std::fflush(stdout);
  server.Run(db.get(), service);
  // Run() also returns if the listener fails; make sure new requests are turned away, and wake the watcher.
  server.Stop();
  pthread_kill(watcher.native_handle(), SIGTERM);
  watcher.join();
  server.WaitForRequests();
  db.reset();  // flushes RocksDB
  int exit_status = 0;
  if (bench.audit()) {
    std::fputs(bench.audit()->Summary().c_str(), stderr);
    if (fail_on_abandoned && bench.audit()->abandoned() > 0) exit_status = 3;
  }
  std::printf("dynapage stopped\n");
  std::fflush(stdout);
  std::fflush(stderr);
  // Idle keep-alive connections may still hold threads blocked on their sockets; they have nothing left to do,
  // and running static destructors under them would be unsafe, so leave without running them.
  std::_Exit(exit_status);
}
