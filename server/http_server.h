// HttpServer: cpp-httplib serving the Dispatcher on one host:port.
//
// Connections are kept alive for as long as the client wants (SDKs hold one per worker; cpp-httplib would
// otherwise close each after 5 requests), bodies over 16 MB are refused with 413, and the worker pool is
// sized for many concurrent SDK connections.

#ifndef DYNAPAGE_SERVER_HTTP_SERVER_H_
#define DYNAPAGE_SERVER_HTTP_SERVER_H_

#include <memory>
#include <string>

#include "engine/database.h"
#include "server/dispatcher.h"

namespace httplib {
class Server;
}

namespace dynapage {

class HttpServer {
 public:
  explicit HttpServer(Database* db);
  ~HttpServer();

  // Binds host:port; port 0 picks a free port. Returns the bound port, or -1 on failure.
  int Bind(const std::string& host, int port);
  // Serves until Stop() is called. REQUIRES: Bind succeeded.
  void Run();
  // Safe to call from any thread (and from a signal-watching thread).
  void Stop();

 private:
  Dispatcher dispatcher_;
  std::unique_ptr<httplib::Server> server_;
};

constexpr size_t kMaxRequestBytes = 16 * 1024 * 1024;

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_SERVER_H_
