// LoopbackConnection: a TCP connection over 127.0.0.1 made inside a test, for code that needs a real socket (the
// kernel's addresses and CPU of a connection). Both ends and the listener are closed when it is destroyed.

#ifndef DYNAPAGE_TESTS_HTTP_LOOPBACK_UTIL_H_
#define DYNAPAGE_TESTS_HTTP_LOOPBACK_UTIL_H_

#include <netinet/in.h>

namespace dynapage {

class LoopbackConnection {
 public:
  LoopbackConnection();
  ~LoopbackConnection();
  LoopbackConnection(const LoopbackConnection&) = delete;
  LoopbackConnection& operator=(const LoopbackConnection&) = delete;

  // False if any step of making the connection failed.
  bool ok() const { return server >= 0; }

  int listener = -1;
  int client = -1;        // the connecting end
  int server = -1;        // the accepted end
  sockaddr_in address{};  // the listener's address (127.0.0.1 and the port it was given)
};

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_HTTP_LOOPBACK_UTIL_H_
