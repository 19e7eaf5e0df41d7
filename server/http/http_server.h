// HttpServer: cpp-httplib serving the Dispatcher on one host:port.
//
// Every connection gets a thread of its own for as long as the client keeps it (SDKs hold one keep-alive
// connection per worker and test suites often leave idle clients around; a fixed pool would let idle
// connections starve new ones). A connection serves any number of requests (cpp-httplib's own loop would close
// it after 5) and is closed after kKeepAliveSeconds idle. cpp-httplib parses requests and writes responses;
// the socket I/O is ConnectionStream's: one recv() and one send() per request. Bodies over 16 MB are refused
// with 413.
//
// Starting: Bind() listens at once, and Run(db) serves the Database once it is open. Connections made in
// between (a client polling while the database opens) wait in the kernel's accept queue and are answered when
// Run() starts, instead of being refused and retried later.
//
// Stopping: Stop() closes the listener, closes idle keep-alive connections, lets busy ones finish their
// request, and turns away requests that still arrive (503); Run() returns once the listener is closed.
// WaitForRequests() then waits for the requests already being handled, after which the Database may be closed.

#ifndef DYNAPAGE_SERVER_HTTP_HTTP_SERVER_H_
#define DYNAPAGE_SERVER_HTTP_HTTP_SERVER_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "engine/database/database.h"
#include "server/admin/admin_api.h"
#include "server/admin/test_bench.h"
#include "server/protocol/dispatcher.h"

namespace dynapage {

class HttpServer {
 public:
  HttpServer();
  ~HttpServer();

  // Whether each connection's thread runs on its client's CPU (ClientCpuAffinity; on by default).
  // REQUIRES: called before Bind().
  void set_follow_client_cpu(bool follow);
  // The test bench (page chaos, faults, audit, request log, metrics) that requests run in and the admin API
  // (/_dynapage/…, /metrics) serves; without one, Run() makes one with everything off.
  // REQUIRES: called before Run(); bench outlives the server.
  void set_test_bench(TestBench* bench) { bench_ = bench; }
  // Binds host:port and listens; port 0 picks a free port. Returns the bound port, or -1 on failure.
  int Bind(const std::string& host, int port);
  // Serves db with options until Stop() is called. REQUIRES: Bind succeeded; db stays open until
  // WaitForRequests() returns.
  void Run(Database* db, const ServiceOptions& options = ServiceOptions());
  // Safe to call from any thread, before or while Run() runs. If Run() has started, returns once it has
  // returned; if not, Run() will return at once.
  void Stop();
  // After Stop(): waits until no request is being handled.
  void WaitForRequests();

 private:
  class ConnectionServer;

  bool BeginRequest();
  void EndRequest();

  std::unique_ptr<Dispatcher> dispatcher_;  // set by Run() before it accepts the first connection
  TestBench* bench_ = nullptr;
  std::unique_ptr<TestBench> own_bench_;    // when none was set
  std::unique_ptr<AdminApi> admin_;         // set by Run() with dispatcher_
  std::unique_ptr<ConnectionServer> server_;
  int listener_ = -1;  // the listening socket, once Bind() has created it
  std::mutex mu_;
  std::condition_variable idle_;
  int in_flight_ = 0;          // guarded by mu_
  bool stopping_ = false;      // guarded by mu_
  bool run_started_ = false;   // guarded by mu_
  std::atomic<bool> run_returned_{false};
};

constexpr size_t kMaxRequestBytes = 16 * 1024 * 1024;
// An idle keep-alive connection is closed after this long; it is also how long a stalled send or receive may take.
constexpr long kKeepAliveSeconds = 120;

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_HTTP_SERVER_H_
