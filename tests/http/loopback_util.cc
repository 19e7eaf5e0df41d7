#include "tests/http/loopback_util.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <initializer_list>

namespace dynapage {

LoopbackConnection::LoopbackConnection() {
  listener = socket(AF_INET, SOCK_STREAM, 0);
  if (listener < 0) return;
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(address);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 || listen(listener, 1) != 0 ||
      getsockname(listener, reinterpret_cast<sockaddr*>(&address), &len) != 0) {
    return;
  }
  client = socket(AF_INET, SOCK_STREAM, 0);
  if (client < 0 || connect(client, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) return;
  server = accept(listener, nullptr, nullptr);
}

LoopbackConnection::~LoopbackConnection() {
  for (int fd : {server, client, listener}) {
    if (fd >= 0) close(fd);
  }
}

}  // namespace dynapage
