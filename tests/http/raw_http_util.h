// Raw HTTP for tests that need exact bytes on a socket of their own: a well-formed DynamoDB request's text, and a
// connection to the server under test.

#ifndef DYNAPAGE_TESTS_HTTP_RAW_HTTP_UTIL_H_
#define DYNAPAGE_TESTS_HTTP_RAW_HTTP_UTIL_H_

#include <sys/socket.h>

#include <string>

namespace dynapage {

// The headers Call() sends besides Host, X-Amz-Target and Content-Length, as raw header lines.
extern const char kRawSignedHeaders[];

// The bytes of a well-formed POST of operation with body, with extra_headers (whole "Name: value\r\n" lines).
std::string RawRequest(const std::string& operation, const std::string& body, const std::string& extra_headers = "");

// One whole answer (head and Content-Length body) read from fd, or what arrived before the connection closed or 10
// seconds passed.
std::string ReadRawAnswer(int fd);

// A TCP connection to the loopback address of family (AF_INET: 127.0.0.1, AF_INET6: ::1) on port, or -1.
int ConnectLoopback(int port, int family = AF_INET);

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_HTTP_RAW_HTTP_UTIL_H_
