// dynapage: a local DynamoDB-compatible server. See README.md.
//
//   dynapage [--port 8000] [--host 127.0.0.1] [--db-path DIR] [--max-page-bytes N] [--no-client-cpu-affinity]
//            [--ttl-interval SECONDS]

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "engine/base/offset_clock.h"
#include "engine/database/database.h"
#include "engine/database/sweeper.h"
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
    "  --ttl-interval S     delete expired TTL items (and trim old stream records) every S seconds\n"
    "                       (default 5; 0: only on POST /_dynapage/ttl/sweep)\n"
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

// The context the TTL sweeper works in: the server's clock, region and account.
dynapage::RequestContext SweeperContext(const dynapage::ServiceOptions& service) {
  dynapage::RequestContext context;
  context.request_id = "ttl-sweeper";
  context.caller.region = service.region;
  context.caller.account_id = service.account_id;
  context.clock = service.settable_clock;
  return context;
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
  // Streams and TTL: the settable clock (POST /_dynapage/clock) and the sweeper's interval.
  dynapage::OffsetClock clock;
  service.settable_clock = &clock;
  long long ttl_interval_seconds = 5;
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
    } else if (arg == "--ttl-interval") {
      if (!next(&value) || !ParseNumber(value.c_str(), 0, 86400, &ttl_interval_seconds)) {
        return Fail("--ttl-interval needs a number of seconds from 0 to 86400");
      }
    } else if (arg == "--no-client-cpu-affinity" && !has_inline) {
      client_cpu_affinity = false;
    } else {
      return Fail("unknown option '" + std::string(argv[i]) + "'");
    }
  }

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
  std::printf("dynapage %s listening on http://%s:%d (%s, max page %llu bytes)\n", DYNAPAGE_VERSION, host.c_str(),
              bound, options.path.empty() ? "in memory" : ("data in " + options.path).c_str(),
              static_cast<unsigned long long>(service.max_page_bytes));
  std::fflush(stdout);
  auto sweeper = std::make_unique<dynapage::Sweeper>(db.get(), SweeperContext(service), ttl_interval_seconds * 1000);
  server.Run(db.get(), service);
  // Run() also returns if the listener fails; make sure new requests are turned away, and wake the watcher.
  server.Stop();
  pthread_kill(watcher.native_handle(), SIGTERM);
  watcher.join();
  server.WaitForRequests();
  sweeper.reset();
  db.reset();  // flushes RocksDB
  std::printf("dynapage stopped\n");
  std::fflush(stdout);
  // Idle keep-alive connections may still hold threads blocked on their sockets; they have nothing left to do,
  // and running static destructors under them would be unsafe, so leave without running them.
  std::_Exit(0);
}
