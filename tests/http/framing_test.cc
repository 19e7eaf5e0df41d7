// HTTP framing (RFC 9112) and its refusals (docs/robustness.md): a request that cannot be framed is answered with a
// JSON error and `Connection: close`, and nothing sent after it on the connection runs. Each case hides a
// DeleteTable after the bad part; the table must still exist afterwards.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "server/http/http_server.h"
#include "tests/http/http_test_util.h"
#include "tests/http/raw_http_util.h"

namespace dynapage {
namespace {

using Clock = std::chrono::steady_clock;

const std::string kSmuggled = RawRequest("DeleteTable", R"({"TableName":"victim"})");

void SendAll(int fd, const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

struct Received {
  std::string bytes;
  bool closed = false;  // the server closed the connection (EOF or reset)
};

// Reads until the server closes the connection or `limit` passes.
Received ReadUntilClosed(int fd, std::chrono::milliseconds limit) {
  Received r;
  auto deadline = Clock::now() + limit;
  char buf[65536];
  while (Clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (::poll(&p, 1, static_cast<int>(std::max<long long>(left, 1))) <= 0) continue;
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) {
      r.closed = true;
      break;
    }
    r.bytes.append(buf, static_cast<size_t>(n));
  }
  return r;
}

int CountOf(const std::string& text, const std::string& what) {
  int count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) count++;
  return count;
}

class FramingTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(200, server_.CreateTable("victim", "pk", "S").status); }

  // Sends bad + kSmuggled on one connection, and checks: exactly one answer, of `status`, with Connection: close,
  // a JSON error body and DynamoDB's headers; the connection closed; the table still there.
  void ExpectRefusedAndClosed(const std::string& bad, int status, const std::string& what) {
    SCOPED_TRACE(what);
    int fd = ConnectLoopback(server_.port());
    ASSERT_GE(fd, 0);
    SendAll(fd, bad + kSmuggled);
    Received r = ReadUntilClosed(fd, std::chrono::seconds(10));
    ::close(fd);
    EXPECT_TRUE(r.closed) << "the connection stayed open after: " << r.bytes.substr(0, 300);
    EXPECT_EQ(1, CountOf(r.bytes, "HTTP/1.1 ")) << r.bytes.substr(0, 600);
    EXPECT_EQ(0u, r.bytes.find("HTTP/1.1 " + std::to_string(status) + " ")) << r.bytes.substr(0, 300);
    EXPECT_NE(std::string::npos, r.bytes.find("\r\nConnection: close\r\n")) << r.bytes.substr(0, 600);
    EXPECT_NE(std::string::npos, r.bytes.find("\r\nx-amzn-RequestId: ")) << r.bytes.substr(0, 600);
    EXPECT_NE(std::string::npos, r.bytes.find("\r\nx-amz-crc32: ")) << r.bytes.substr(0, 600);
    EXPECT_NE(std::string::npos, r.bytes.find("\r\nContent-Type: application/x-amz-json-1.0\r\n"))
        << r.bytes.substr(0, 600);
    EXPECT_NE(std::string::npos, r.bytes.find("\r\n\r\n{\"__type\":\"com.amazon.coral.service#"))
        << r.bytes.substr(0, 600);
    EXPECT_EQ(std::string::npos, r.bytes.find("Keep-Alive:")) << r.bytes.substr(0, 600);
    HttpResult d = server_.Call("DescribeTable", R"({"TableName":"victim"})");
    EXPECT_EQ(200, d.status) << "the smuggled DeleteTable ran: " << d.Describe();
  }

  TestServer server_;
};

TEST_F(FramingTest, SmuggledRequestAfterBadFramingNeverRuns) {
  const std::string start = "POST / HTTP/1.1\r\nHost: localhost\r\n" + std::string(kRawSignedHeaders) +
                            "X-Amz-Target: DynamoDB_20120810.ListTables\r\n";
  ExpectRefusedAndClosed(start + "X-Long: " + std::string(9000, 'a') + "\r\nContent-Length: 2\r\n\r\n{}", 400,
                         "a header over 8 KB");
  ExpectRefusedAndClosed(start + "X-Bad: a\x01z\r\nContent-Length: 2\r\n\r\n{}", 400, "a control byte in a header");
  ExpectRefusedAndClosed(start + "No colon here\r\nContent-Length: 2\r\n\r\n{}", 400, "a header without a colon");
  std::string many;
  for (int i = 0; i < 120; i++) many += "X-H" + std::to_string(i) + ": v\r\n";
  ExpectRefusedAndClosed(start + many + "Content-Length: 2\r\n\r\n{}", 400, "over 100 headers");
  ExpectRefusedAndClosed("GARBAGE\r\n\r\n", 400, "a bad request line");
  ExpectRefusedAndClosed(
      "POST /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", 400,
      "a request line over the limit (400, not 414)");
  ExpectRefusedAndClosed(
      "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data\r\nContent-Length: 4\r\n"
      "\r\nabcd",
      400, "multipart without a boundary");
  ExpectRefusedAndClosed(start + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400,
                         "Content-Length with Transfer-Encoding");
  ExpectRefusedAndClosed(start + "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 400,
                         "Transfer-Encoding with Content-Length");
  ExpectRefusedAndClosed(start + "Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}", 400,
                         "conflicting Content-Lengths");
  ExpectRefusedAndClosed(start + "Content-Length: 2x\r\n\r\n{}", 400, "a Content-Length that is not a number");
  ExpectRefusedAndClosed(start + "Transfer-Encoding: gzip\r\n\r\n", 400, "a transfer coding other than chunked");
  ExpectRefusedAndClosed(start + "Content-Length: 20000000\r\n\r\n{}", 413, "a body over 16 MB");
  ExpectRefusedAndClosed(start + "Content-Encoding: br\r\nContent-Length: 2\r\n\r\n{}", 400,
                         "an unknown Content-Encoding");
}

// RFC 9112 §5.1: whitespace between a header's name and its colon is refused (a server that took "Content-Length :"
// as some other header would frame the body differently from a proxy that took it as Content-Length).
TEST_F(FramingTest, WhitespaceBeforeAHeadersColonIsRefused) {
  const std::string start = "POST / HTTP/1.1\r\nHost: x\r\n" + std::string(kRawSignedHeaders) +
                            "X-Amz-Target: DynamoDB_20120810.ListTables\r\n";
  ExpectRefusedAndClosed(start + "Content-Length : 2\r\n\r\n{}", 400, "a space before the colon");
  ExpectRefusedAndClosed(start + "X-Amz-Meta\t: v\r\nContent-Length: 2\r\n\r\n{}", 400, "a tab before the colon");
  ExpectRefusedAndClosed(start + " X-Folded: v\r\nContent-Length: 2\r\n\r\n{}", 400, "a header line folded");
}

// A request line longer than cpp-httplib reads (32 KB) gets the 400 of any bad request, not a bare close.
TEST_F(FramingTest, RequestLineTooLongToReadIsA400) {
  ExpectRefusedAndClosed("POST /" + std::string(40000, 'a') + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 400,
                         "a request line over 32 KB");
}

// Identical repeated Content-Lengths are one length (RFC 9112 §6.3).
TEST_F(FramingTest, RepeatedIdenticalContentLengthIsAccepted) {
  HttpResult r = server_.SendRaw("POST / HTTP/1.1\r\nHost: localhost\r\n" + std::string(kRawSignedHeaders) +
                                 "X-Amz-Target: DynamoDB_20120810.ListTables\r\nConnection: close\r\n"
                                 "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(200, r.status) << r.Describe();
}

// The 413 answer is a DynamoDB error with a JSON body.
TEST_F(FramingTest, BodyTooLargeIsAJsonError) {
  HttpResult r = server_.SendRaw("POST / HTTP/1.1\r\nHost: localhost\r\n" + std::string(kRawSignedHeaders) +
                                 "X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 16777217\r\n\r\n{}");
  EXPECT_EQ(413, r.status) << r.Describe();
  EXPECT_EQ("RequestEntityTooLargeException", r.ErrorName()) << r.Describe();
  EXPECT_EQ("Request size exceeds 16777216 bytes", r.Message()) << r.Describe();
  EXPECT_EQ(std::to_string(Crc32(r.body)), r.Header("x-amz-crc32"));
  EXPECT_EQ("close", r.Header("Connection"));
}

// A POST without Content-Length or Transfer-Encoding has an empty body (RFC 9112 §6.3): answered at once.
TEST_F(FramingTest, PostWithoutBodyLengthIsAnsweredAtOnce) {
  int fd = ConnectLoopback(server_.port());
  ASSERT_GE(fd, 0);
  auto start = Clock::now();
  SendAll(fd, "POST / HTTP/1.1\r\nHost: localhost\r\n" + std::string(kRawSignedHeaders) +
                  "X-Amz-Target: DynamoDB_20120810.ListTables\r\n\r\n");
  std::string answer;
  char buf[4096];
  while (answer.find("\r\n\r\n") == std::string::npos || answer.find("}") == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) break;
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    answer.append(buf, static_cast<size_t>(n));
  }
  auto took = Clock::now() - start;
  ::close(fd);
  EXPECT_LT(took, std::chrono::seconds(2));
  EXPECT_EQ(0u, answer.find("HTTP/1.1 400 ")) << answer;
  EXPECT_NE(std::string::npos, answer.find("SerializationException")) << answer;  // the empty body's error
}

TestServerOptions ShortDeadline() {
  TestServerOptions options;
  options.http.request_deadline = std::chrono::milliseconds(300);
  return options;
}

// A body announced but never sent times out and frees its connection.
TEST(RequestDeadlineTest, BodyThatNeverArrivesTimesOut) {
  TestServer server(ShortDeadline());
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  auto start = Clock::now();
  SendAll(fd, "POST / HTTP/1.1\r\nHost: localhost\r\n" + std::string(kRawSignedHeaders) +
                  "X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 10\r\n\r\n{}");
  Received r = ReadUntilClosed(fd, std::chrono::seconds(10));
  ::close(fd);
  EXPECT_TRUE(r.closed);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  // Answered, as any bad request is, before the close (docs/robustness.md).
  EXPECT_EQ(0u, r.bytes.find("HTTP/1.1 400 ")) << r.bytes;
  EXPECT_NE(std::string::npos, r.bytes.find("\r\nConnection: close\r\n")) << r.bytes;
  EXPECT_NE(std::string::npos, r.bytes.find("The request did not arrive within the request deadline")) << r.bytes;
  auto deadline = Clock::now() + std::chrono::seconds(3);
  while (server.http().open_connections() > 1 && Clock::now() < deadline) {  // 1: the TestServer's own client
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_LE(server.http().open_connections(), 1u);
}

// The same for a chunked body (read by cpp-httplib, not the direct path) whose last chunk never comes.
TEST(RequestDeadlineTest, ChunkedBodyThatNeverEndsIsA400) {
  TestServer server(ShortDeadline());
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  SendAll(fd, "POST / HTTP/1.1\r\nHost: x\r\n" + std::string(kRawSignedHeaders) +
                  "X-Amz-Target: DynamoDB_20120810.ListTables\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n");
  Received r = ReadUntilClosed(fd, std::chrono::seconds(10));
  ::close(fd);
  EXPECT_TRUE(r.closed);
  EXPECT_EQ(0u, r.bytes.find("HTTP/1.1 400 ")) << r.bytes;
  EXPECT_NE(std::string::npos, r.bytes.find("The request did not arrive within the request deadline")) << r.bytes;
}

// A client trickling its request head a byte at a time is disconnected at the deadline.
TEST(RequestDeadlineTest, SlowHeaderClientIsDisconnected) {
  TestServer server(ShortDeadline());
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  auto start = Clock::now();
  std::string head = "POST / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + std::string(200, 'a');
  bool closed = false;
  for (char c : head) {
    if (::send(fd, &c, 1, MSG_NOSIGNAL) != 1) {
      closed = true;
      break;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) > 0) {
      char buf[4096];
      if (::recv(fd, buf, sizeof(buf), 0) <= 0) {
        closed = true;
        break;
      }
    }
    if (Clock::now() - start > std::chrono::seconds(5)) break;
  }
  if (!closed) closed = ReadUntilClosed(fd, std::chrono::seconds(1)).closed;
  ::close(fd);
  EXPECT_TRUE(closed);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
}

// A request whose parts arrive apart, but within the deadline, is served.
TEST(RequestDeadlineTest, RequestInPiecesWithinTheDeadlineIsServed) {
  TestServer server(ShortDeadline());
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  std::string request = RawRequest("ListTables", "{}", "Connection: close\r\n");
  SendAll(fd, request.substr(0, 20));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  SendAll(fd, request.substr(20));
  Received r = ReadUntilClosed(fd, std::chrono::seconds(5));
  ::close(fd);
  EXPECT_EQ(0u, r.bytes.find("HTTP/1.1 200 ")) << r.bytes;
}

}  // namespace
}  // namespace dynapage
