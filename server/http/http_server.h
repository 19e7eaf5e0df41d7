// HttpServer: cpp-httplib serving a RequestHandler (exchange.h; dynapage's is the Service, server/service/) on one
// address, or on both loopback addresses (127.0.0.1 and ::1). It is the server's ground floor: HTTP/1.1 framing,
// connections, CORS, request ids, Date and x-amz-crc32, and nothing of DynamoDB's protocol.
//
// Every connection gets a thread of its own for as long as the client keeps it (SDKs hold one keep-alive
// connection per worker and test suites often leave idle clients around; a fixed pool would let idle
// connections starve new ones). A connection serves any number of requests (cpp-httplib's own loop would close
// it after 5) and is closed after kKeepAliveSeconds idle. The accept loop is ours (poll() over the listeners, so
// that socket numbers have no limit below the process's file limit); cpp-httplib parses requests and writes
// responses; the socket I/O is ConnectionStream's: one recv() and one send() per request.
//
// Robustness (docs/robustness.md): a request cpp-httplib cannot frame (a bad request line or header, a header
// over 8 KB, over 100 headers, Content-Length with Transfer-Encoding, conflicting Content-Lengths, a body over
// 16 MB, ...) is answered with a JSON error and `Connection: close`, and the connection is closed, so that no
// byte after the bad part is read as a request. A request, once begun, must arrive within the request deadline.
// Beyond max_connections open connections, a new one is answered 503 and closed. Request bodies may be gzip or
// deflate (content_encoding.h); the decoded size counts against the 16 MB limit.
//
// Starting: Bind() listens at once, and Run(handler) serves once the databases behind the handler are open. Connections
// made in between (a client polling while the database opens) wait in the kernel's accept queue and are answered when
// Run() starts, instead of being refused and retried later.
//
// Stopping: Stop() closes the listeners, closes idle keep-alive connections, lets busy ones finish their
// request, and turns away requests that still arrive (503); Run() returns once the listeners are closed.
// WaitForRequests() then waits for the requests already being handled, after which the handler may be destroyed.

#ifndef DYNAPAGE_SERVER_HTTP_HTTP_SERVER_H_
#define DYNAPAGE_SERVER_HTTP_HTTP_SERVER_H_

#include <signal.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/exchange.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace dynapage {

class ConnectionServer;
class ConnectionStream;
enum class DirectOutcome : int;

// How the HTTP layer serves. Set before Bind().
struct HttpOptions {
  // Open connections beyond this many are answered 503 and closed; 0: DefaultMaxConnections().
  size_t max_connections = 0;
  // The origins a browser may call from (CORS, as DynamoDB Local's -cors): {"*"} allows any; empty: no CORS.
  std::vector<std::string> cors_origins = {"*"};
  // Once part of a request has arrived, the rest (head and body) must arrive within this.
  std::chrono::milliseconds request_deadline = std::chrono::seconds(30);
  // Whether each connection's thread runs on its client's CPU (ClientCpuAffinity).
  bool follow_client_cpu = true;
};

// The connection limit when none is given: the process's open-file limit less what the database and the
// listeners may need.
size_t DefaultMaxConnections();
// Raises the soft limit of open files to the hard limit (connections and RocksDB's files share it).
void RaiseOpenFileLimit();

class HttpServer {
 public:
  HttpServer();
  ~HttpServer();

  // REQUIRES: called before Bind().
  void set_options(const HttpOptions& options);
  // Whether each connection's thread runs on its client's CPU (ClientCpuAffinity; on by default).
  // REQUIRES: called before Bind().
  void set_follow_client_cpu(bool follow);
  // Binds host:port (a numeric address or a name) and listens; port 0 picks a free port. Returns the bound port,
  // or -1 on failure.
  int Bind(const std::string& host, int port);
  // Binds 127.0.0.1:port and [::1]:port (the same port; with port 0, the one 127.0.0.1 was given). ::1 is left
  // out where the machine has no IPv6. Returns the bound port, or -1 on failure.
  int BindLoopback(int port);
  // Serves every request with handler until Stop() is called. REQUIRES: Bind succeeded; handler stays valid
  // until WaitForRequests() returns.
  void Run(RequestHandler* handler);
  // Safe to call from any thread, before or while Run() runs. If Run() has started, returns once it has
  // returned; if not, Run() will return at once.
  void Stop();
  // How Run() reads the stop signals: the accept loop from a signalfd, so that no thread waits for them; or a
  // thread of its own in sigwait(), which is also what Run() falls back to (saying so on stderr) where the
  // signalfd cannot be made (out of files or memory), so that the signals are never left blocked and unread.
  enum class SignalReader { kSignalFd, kWatcherThread };
  // Run() also stops, as Stop() does, when one of signals arrives. A signal that arrived before Run() stops it at
  // once. REQUIRES: called before Run(); signals blocked in every thread of the process (else one of them is
  // taken by its action).
  void StopOnSignals(const sigset_t& signals, SignalReader reader = SignalReader::kSignalFd);
  // After Stop(): waits until no request is being handled.
  void WaitForRequests();

  // Open connections now (for tests).
  size_t open_connections() const;

 private:
  // Sets cpp-httplib's handlers: the request handler's route, CORS preflights, refusals, and the response headers
  // every answer has (http_answers.cc).
  void InstallHandlers();
  // The answer to a request cpp-httplib has framed.
  void Answer(const httplib::Request& req, httplib::Response& res);
  // The answer to a CORS preflight: the handler's refusal, or what CrossOrigin() allows.
  void AnswerPreflight(const httplib::Request& req, httplib::Response& res);
  // The origins that may read the answers of path: the handler's rule, or options_.cors_origins.
  const std::vector<std::string>& CrossOriginOrigins(std::string_view path) const;
  // Whether every listener is on a loopback address (HttpRequestView::loopback_only).
  bool loopback_only() const { return !non_loopback_listener_; }
  // Reads and answers the connection's next request without cpp-httplib, if it is one the direct path serves
  // (direct_head.h; direct_exchange.cc).
  DirectOutcome ServeDirect(ConnectionStream& stream, bool* close_connection);
  // The handler's answer to request; an injected fault closes the connection on socket.
  HttpAnswer RunHandler(const HttpRequestView& request, int socket);
  // What Stop() does before it waits for Run() to return. REQUIRES: mu_ held.
  void BeginStopping();
  // Writes the byte that wakes Run()'s accept loop (wake_), which then sees stopping_ and ends.
  void WakeAcceptLoop();
  // Run()'s thread waiting for the stop signals (SignalReader::kWatcherThread): stops the accept loop when one
  // arrives; ends without stopping it when Run() wakes it with run_ending_ set.
  void WatchSignals();
  bool BeginRequest();
  void EndRequest();
  // Opens a listening socket on addr; returns its port, or -1.
  int Listen(const void* addr, unsigned addr_len, bool v6_only);

  HttpOptions options_;
  std::string keep_alive_line_;        // "Keep-Alive: timeout=120, max=…\r\n", as cpp-httplib writes it
  std::string cors_header_lines_;      // the constant CORS header lines of every response, when any origin may call
  RequestHandler* handler_ = nullptr;  // set by Run() before it accepts the first connection
  std::unique_ptr<ConnectionServer> server_;
  std::vector<int> listeners_;
  bool non_loopback_listener_ = false;  // a listener on an address other than loopback: set before Run()
  int wake_[2] = {-1, -1};              // a pipe: a byte written wakes the accept loop to stop
  // The signals Run() stops on (StopOnSignals).
  std::optional<sigset_t> stop_signals_;
  SignalReader signal_reader_ = SignalReader::kSignalFd;
  std::mutex mu_;
  std::condition_variable idle_;
  std::condition_variable returned_;
  int in_flight_ = 0;          // guarded by mu_
  bool stopping_ = false;      // guarded by mu_
  bool run_started_ = false;   // guarded by mu_
  bool run_ending_ = false;    // guarded by mu_: the accept loop has ended (the signal watcher must not stop it)
  bool run_returned_ = false;  // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_HTTP_SERVER_H_
