#include "tests/http/raw_http_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <unistd.h>

namespace dynapage {

const char kRawSignedHeaders[] =
    "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Date: 20260101T000000Z\r\n"
    "Authorization: AWS4-HMAC-SHA256 Credential=a/20260101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=host, Signature=x\r\n";

std::string RawRequest(const std::string& operation, const std::string& body, const std::string& extra_headers) {
  return "POST / HTTP/1.1\r\nHost: localhost\r\n" + std::string(kRawSignedHeaders) +
         "X-Amz-Target: DynamoDB_20120810." + operation + "\r\n" + extra_headers +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string ReadRawAnswer(int fd) {
  std::string bytes;
  char buf[65536];
  while (true) {
    size_t head_end = bytes.find("\r\n\r\n");
    if (head_end != std::string::npos) {
      size_t at = bytes.find("Content-Length: ");
      if (at != std::string::npos && bytes.size() >= head_end + 4 + std::stoul(bytes.substr(at + 16))) return bytes;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) return bytes;
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) return bytes;
    bytes.append(buf, static_cast<size_t>(n));
  }
}

int ConnectLoopback(int port, int family) {
  int fd = ::socket(family, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  int rc;
  if (family == AF_INET) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    rc = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  } else {
    sockaddr_in6 addr{};
    addr.sin6_family = AF_INET6;
    addr.sin6_port = htons(static_cast<uint16_t>(port));
    addr.sin6_addr = in6addr_loopback;
    rc = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  }
  if (rc != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace dynapage
