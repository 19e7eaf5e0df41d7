// ConnectionServer: cpp-httplib's Server with our own connection handling around its request parsing and response
// writing. Each accepted socket gets a thread of its own (a detached thread with a kConnectionStackBytes stack),
// served by one loop of requests for as long as the client keeps the connection, through ConnectionStream (one
// recv() and one send() per request); a framing error or a refusal closes the connection lingering; Stop() can end
// connections that sit idle between requests instead of leaving their threads blocked for the keep-alive timeout.
// The accept loop is HttpServer's.

#ifndef DYNAPAGE_SERVER_HTTP_CONNECTION_SERVER_H_
#define DYNAPAGE_SERVER_HTTP_CONNECTION_SERVER_H_

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>

#include "server/http/client_cpu_affinity.h"
#include "server/http/exchange.h"

namespace dynapage {

class ConnectionStream;

// What the direct path (DirectServer) did with a connection's next request.
enum class DirectOutcome : int {
  kNotDirect,  // nothing: the request is cpp-httplib's to parse (what was received stays unread)
  kAnswered,   // read and answered (the answer is pending in the stream)
  kFailed,     // the connection ended, or the request's rest did not arrive
};
// Serves a connection's next request without cpp-httplib when it can (direct_head.h); sets *close_connection when
// the connection closes after the answer.
using DirectServer = std::function<DirectOutcome(ConnectionStream& stream, bool* close_connection)>;

// The socket of the connection this thread serves (for a fault rule that drops the connection), or -1.
int CurrentConnectionSocket();

class ConnectionServer : public httplib::Server {
 public:
  // Ends idle connections now and busy ones after their current request.
  void CloseConnections();
  ClientCpuAffinity& client_cpus() { return client_cpus_; }
  void set_request_deadline(std::chrono::milliseconds deadline) { request_deadline_ = deadline; }
  // REQUIRES: called before the first connection.
  void set_direct_server(DirectServer direct) { direct_ = std::move(direct); }
  // Serves sock on a thread of its own, or answers 503 and closes it when max_connections are open already or
  // no thread can be had.
  void StartConnection(int sock, size_t max_connections);
  // Gives open connections a moment to end; idle keep-alive connections are not waited for.
  void WaitForConnections();
  size_t open_connections() const;

 private:
  // The number of connection threads, shared with them so that a thread outliving the server (an idle keep-alive
  // connection at shutdown) touches nothing freed.
  struct Count {
    mutable std::mutex mu;
    std::condition_variable changed;
    size_t open = 0;
  };

  static void Refuse(int sock, size_t max_connections);
  bool process_and_close_socket(socket_t sock) override;
  bool Register(socket_t sock);
  void Unregister(socket_t sock);
  bool Closing();

  ClientCpuAffinity client_cpus_;
  DirectServer direct_;
  std::chrono::milliseconds request_deadline_{std::chrono::seconds(30)};
  std::shared_ptr<Count> count_ = std::make_shared<Count>();
  std::mutex mu_;
  std::set<socket_t> open_;  // guarded by mu_
  bool closing_ = false;     // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_CONNECTION_SERVER_H_
