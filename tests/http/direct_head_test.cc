// The direct path of the HTTP layer (server/http/direct_head.h, direct_exchange.cc): which heads it takes from
// cpp-httplib, and that its answers are the ones cpp-httplib's path gives.

#include "server/http/direct_head.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"
#include "tests/http/raw_http_util.h"

namespace dynapage {
namespace {

const std::string kLine = "POST / HTTP/1.1\r\n";
const std::string kHost = "Host: localhost:8000\r\n";

// REQUIRES: head outlives *out's views.
bool Parses(const std::string& head, DirectHead* out = nullptr) {
  DirectHead ignored;
  return ParseDirectHead(head, out ? out : &ignored);
}

TEST(DirectHeadTest, TakesWhatAnSdkSends) {
  DirectHead head;
  const std::string text = kLine + kHost +
                           "Content-Type:application/x-amz-json-1.0\r\nX-Amz-Target: \tDynamoDB_20120810.Query \r\n"
                           "authorization: AWS4 x\r\nx-amz-date: 20260101T000000Z\r\nCONTENT-LENGTH: 12\r\n"
                           "Connection: close\r\n\r\n";
  ASSERT_TRUE(Parses(text, &head));
  EXPECT_EQ(12u, head.content_length);
  EXPECT_TRUE(head.close_connection);
  EXPECT_EQ("POST", head.request.method);
  EXPECT_EQ("/", head.request.path);
  EXPECT_EQ("localhost:8000", head.request.host);
  EXPECT_EQ("application/x-amz-json-1.0", head.request.content_type);
  EXPECT_EQ("DynamoDB_20120810.Query", head.request.target);
  EXPECT_EQ("AWS4 x", head.request.authorization);
  EXPECT_TRUE(head.request.has_amz_date);
  ASSERT_TRUE(
      Parses(kLine + kHost + "Content-Length: 0\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n", &head));
  EXPECT_FALSE(head.close_connection);
  // A long value (checked 16 bytes at a time) may hold tabs, spaces and obs-text anywhere.
  ASSERT_TRUE(Parses(kLine + kHost + "X-Long: " + std::string(37, 'a') + "\t \xc3\xa9\x80\xff" + std::string(21, '~') +
                         "\t\r\nContent-Length: 0\r\n\r\n",
                     &head));
}

// A name is a header's in any case, and only when every byte matches: a name one byte off (at its start, in its
// middle, at its end, where the bytes are compared a word at a time) is another header.
TEST(DirectHeadTest, NamesOneByteOffAreOtherHeaders) {
  DirectHead head;  // views the text it was parsed from, which must outlive it
  const std::string any_case = kLine + "hOsT: a:1\r\nX-AMZ-TARGET: t\r\nAuthorizatioN: s\r\ncontent-length: 0\r\n\r\n";
  ASSERT_TRUE(Parses(any_case, &head));
  EXPECT_EQ("a:1", head.request.host);
  EXPECT_EQ("t", head.request.target);
  EXPECT_EQ("s", head.request.authorization);
  for (const char* name :
       {"Dontent-Length", "Content-Lengtg", "Content_Length", "Content-Lfngth", "Content-Length\x0d"}) {
    EXPECT_FALSE(Parses(kLine + kHost + name + ": 2\r\n\r\n")) << name << ": not Content-Length";
  }
  const std::string near_misses = kLine + kHost +
                                  "Content-Length: 0\r\nY-Amz-Target: t\r\nX-Amz-Targes: t\r\n"
                                  "Authorizatiom: s\r\nHosu: b\r\nTransfer-Encodinh: chunked\r\nRangf: x\r\n\r\n";
  ASSERT_TRUE(Parses(near_misses, &head));
  EXPECT_EQ("", head.request.target);
  EXPECT_EQ("", head.request.authorization);
  EXPECT_EQ("localhost:8000", head.request.host);
}

// FindHeadEnd finds what find("\r\n\r\n") finds, wherever it falls against its 16-byte blocks, among near
// misses, and past the end of a block by the bytes before it.
TEST(DirectHeadTest, FindsTheHeadsEndAsFindDoes) {
  std::vector<std::string> texts = {
      "",       "\r\n\r\n",  "\n\r\n", "\r\n\n", "\r\r\n\r\n", "\n\n\r\n\r\n\r\n\r\n", "x\r\n\rx\n\r\n",
      "\r\n\r", "\n\r\n\r\n"};
  for (size_t before = 0; before < 40; before++) {
    for (const char* end : {"\r\n\r\n", "\r\n\r\nbody\r\n\r\n", "\r\n\rX\n\r\n", "\r\n\r", "\n\r\n\r\n"}) {
      texts.push_back(std::string(before, 'a') + "\r\n" + std::string(before % 5, 'b') + end);
    }
  }
  texts.push_back(kLine + kHost + "Content-Length: 2\r\n\r\n{}" + kLine);
  for (const std::string& text : texts) {
    EXPECT_EQ(text.find("\r\n\r\n"), FindHeadEnd(text)) << "[" << text << "]";
  }
}

// Everything else is cpp-httplib's to parse, refuse or serve: the direct path refuses nothing itself.
TEST(DirectHeadTest, LeavesEverythingElseToCppHttplib) {
  const std::string length = "Content-Length: 2\r\n";
  for (const std::string& head : {
           "GET / HTTP/1.1\r\n" + kHost + length + "\r\n",                    // another method
           "POST /x HTTP/1.1\r\n" + kHost + length + "\r\n",                  // another path
           "POST /?a=1 HTTP/1.1\r\n" + kHost + length + "\r\n",               // a query
           "POST / HTTP/1.0\r\n" + kHost + length + "\r\n",                   // HTTP/1.0
           "POST  / HTTP/1.1\r\n" + kHost + length + "\r\n",                  // two spaces
           kLine + length + "\r\n",                                           // no Host
           kLine + kHost + "\r\n",                                            // no Content-Length
           kLine + kHost + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n",  // conflicting lengths
           kLine + kHost + "Content-Length: 2x\r\n\r\n",
           kLine + kHost + "Content-Length: 16777217\r\n\r\n",  // over 16 MB
           kLine + kHost + length + "Transfer-Encoding: chunked\r\n\r\n",
           kLine + kHost + length + "Content-Encoding: gzip\r\n\r\n",
           kLine + kHost + length + "Expect: 100-continue\r\n\r\n",
           kLine + kHost + length + "Origin: http://a\r\n\r\n",
           kLine + kHost + length + "Range: bytes=0-1\r\n\r\n",
           kLine + kHost + length + "Content-Type: multipart/form-data\r\n\r\n",
           kLine + kHost + length + "Content-Type: application/x-www-form-urlencoded\r\n\r\n",
           kLine + kHost + "Content-Length : 2\r\n\r\n",          // whitespace before the colon
           kLine + kHost + " X-Folded: v\r\n" + length + "\r\n",  // a folded line
           kLine + kHost + "No colon\r\n" + length + "\r\n",
           kLine + kHost + ": v\r\n" + length + "\r\n",                                          // an empty name
           kLine + kHost + "X-Bad: a\x01z\r\n" + length + "\r\n",                                // a control byte
           kLine + kHost + "X-Bad: a\nz\r\n" + length + "\r\n",                                  // a bare LF
           kLine + kHost + "X-Bad: a\rz\r\n" + length + "\r\n",                                  // a bare CR
           kLine + kHost + "X-Bad: a\x7fz\r\n" + length + "\r\n",                                // DEL
           kLine + kHost + "X-Bad: " + std::string(40, 'a') + '\0' + "z\r\n" + length + "\r\n",  // NUL, 16 at a time
           kLine + kHost + "X-Bad: " + std::string(40, 'a') + "\x1f\r\n" + length + "\r\n",      // in the last block
           kLine + kHost + "X-Bad: " + std::string(20, 'a') + "\x7f" + std::string(20, 'a') + "\r\n" + length + "\r\n",
           kLine + kHost + "X-Bad: " + std::string(31, 'a') + "\n" + std::string(20, 'b') + "\r\n" + length + "\r\n",
           kLine + kHost + "X-Long: " + std::string(9000, 'a') + "\r\n" + length + "\r\n",
       }) {
    EXPECT_FALSE(Parses(head)) << head;
  }
  std::string many;
  for (int i = 0; i < 100; i++) many += "X-H" + std::to_string(i) + ": v\r\n";
  EXPECT_FALSE(Parses(kLine + kHost + many + length + "\r\n")) << "over 100 headers";
}

// The answer with its request id and date masked, and its header lines sorted (cpp-httplib keeps headers in a hash
// map: their order means nothing).
std::string Masked(std::string answer) {
  for (const char* name : {"x-amzn-RequestId: ", "Date: "}) {
    size_t at = answer.find(name);
    if (at == std::string::npos) continue;
    size_t end = answer.find("\r\n", at);
    answer.replace(at, end - at, std::string(name) + "*");
  }
  size_t first = answer.find("\r\n"), head_end = answer.find("\r\n\r\n");
  if (first == std::string::npos || head_end == std::string::npos || head_end <= first) return answer;
  std::vector<std::string> lines;
  for (size_t at = first + 2; at < head_end + 2;) {
    size_t end = answer.find("\r\n", at);
    lines.push_back(answer.substr(at, end - at));
    at = end + 2;
  }
  std::sort(lines.begin(), lines.end());
  std::string sorted = answer.substr(0, first + 2);
  for (const std::string& line : lines) sorted += line + "\r\n";
  return sorted + answer.substr(head_end + 2);
}

// The same request on the direct path ("POST / HTTP/1.1") and on cpp-httplib's ("POST /? HTTP/1.1", the same path
// with an empty query) gets the same answer back, but for its request id and date: status line, header lines, body,
// keep-alive or close.
TEST(DirectAnswerTest, IsTheAnswerOfCppHttplibsPath) {
  TestServer server;
  HttpResult created = server.CreateTable("tab", "pk", "S");
  ASSERT_EQ(200, created.status) << created.Describe();
  for (const auto& [operation, body] : std::initializer_list<std::pair<std::string, std::string>>{
           {"ListTables", "{}"},
           {"PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"a"},"n":{"N":"1"}}})"},
           {"GetItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"}}})"},
           {"GetItem", R"({"TableName":"nope","Key":{"pk":{"S":"a"}}})"},
           {"NoSuchOperation", "{}"},
           {"ListTables", "{"},
       }) {
    for (const std::string& connection : {std::string(), std::string("Connection: close\r\n")}) {
      SCOPED_TRACE(operation + " " + body + " " + connection);
      std::string direct = RawRequest(operation, body, connection);
      std::string indirect = direct;
      indirect.replace(0, 6, "POST /?");
      std::string answers[2];
      for (int i = 0; i < 2; i++) {
        int fd = ConnectLoopback(server.port());
        ASSERT_GE(fd, 0);
        const std::string& request = i == 0 ? direct : indirect;
        ASSERT_EQ(static_cast<ssize_t>(request.size()), ::send(fd, request.data(), request.size(), MSG_NOSIGNAL));
        answers[i] = Masked(ReadRawAnswer(fd));
        ::close(fd);
      }
      EXPECT_EQ(answers[1], answers[0]);
      EXPECT_EQ(0u, answers[0].find("HTTP/1.1 ")) << answers[0];
    }
  }
}

// The browser guard (server/admin/browser_guard.h) refuses on the direct path what it refuses on cpp-httplib's: a
// DNS-rebound Host, with a head the direct path takes, is a 403 and deletes nothing.
TEST(DirectAnswerTest, RefusesAForeignHostAsCppHttplibsPathDoes) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tab", "pk", "S").status);
  std::string rebound = RawRequest("DeleteTable", R"({"TableName":"tab"})");
  const std::string loopback_host = "Host: localhost\r\n";
  ASSERT_NE(std::string::npos, rebound.find(loopback_host));
  rebound.replace(rebound.find(loopback_host), loopback_host.size(), "Host: evil.example:8000\r\n");
  std::string head = rebound.substr(0, rebound.find("\r\n\r\n") + 4);
  ASSERT_TRUE(Parses(head)) << "not a head the direct path serves: " << head;
  std::string indirect = rebound;
  indirect.replace(0, 6, "POST /?");
  for (const std::string& request : {rebound, indirect}) {
    SCOPED_TRACE(request.substr(0, 8));
    int fd = ConnectLoopback(server.port());
    ASSERT_GE(fd, 0);
    ASSERT_EQ(static_cast<ssize_t>(request.size()), ::send(fd, request.data(), request.size(), MSG_NOSIGNAL));
    std::string answer = ReadRawAnswer(fd);
    ::close(fd);
    EXPECT_EQ(0u, answer.find("HTTP/1.1 403 Forbidden\r\n")) << answer;
    EXPECT_NE(std::string::npos, answer.find("AccessDeniedException")) << answer;
    EXPECT_NE(std::string::npos, answer.find("--allow-host evil.example")) << answer;
  }
  HttpResult described = server.Call("DescribeTable", R"({"TableName":"tab"})");
  EXPECT_EQ(200, described.status) << described.Describe();
}

// A body that arrives after its head, in pieces, is read whole; and requests pipelined behind it are answered in
// order.
TEST(DirectAnswerTest, BodyInPiecesAndPipelinedRequests) {
  TestServer server;
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  std::string first = RawRequest("ListTables", R"({"Limit": 5})");
  size_t head = first.find("\r\n\r\n") + 4;
  ASSERT_EQ(static_cast<ssize_t>(head), ::send(fd, first.data(), head, MSG_NOSIGNAL));
  usleep(50 * 1000);
  ASSERT_EQ(3, ::send(fd, first.data() + head, 3, MSG_NOSIGNAL));
  usleep(50 * 1000);
  std::string rest = first.substr(head + 3) + RawRequest("ListTables", "{}") + RawRequest("ListTables", "{}");
  ASSERT_EQ(static_cast<ssize_t>(rest.size()), ::send(fd, rest.data(), rest.size(), MSG_NOSIGNAL));
  std::string answers;
  char buf[65536];
  auto count = [&answers](const std::string& what) {
    int n = 0;
    for (size_t at = answers.find(what); at != std::string::npos; at = answers.find(what, at + 1)) n++;
    return n;
  };
  while (count("{\"TableNames\":[]}") < 3) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) break;
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    answers.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  EXPECT_EQ(3, count("HTTP/1.1 200 OK\r\n")) << answers;
  EXPECT_EQ(3, count("{\"TableNames\":[]}")) << answers;
}

}  // namespace
}  // namespace dynapage
