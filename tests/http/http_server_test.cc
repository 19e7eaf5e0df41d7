// HttpServer's connection handling: keep-alive, pipelining, 100-continue, and Stop() with idle clients.

#include "server/http/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kListTables[] =
    "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
    "X-Amz-Target: DynamoDB_20120810.ListTables\r\nX-Amz-Date: 20260101T000000Z\r\n"
    "Authorization: AWS4-HMAC-SHA256 Credential=a/20260101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=host, Signature=x\r\n";

std::string ListTablesRequest(const std::string& extra_headers) {
  return std::string(kListTables) + extra_headers + "Content-Length: 2\r\n\r\n{}";
}

int CountOf(const std::string& text, const std::string& what) {
  int count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) count++;
  return count;
}

int Connect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Reads until `count` complete ListTables answers (each ends with its JSON body) have arrived, or EOF.
std::string ReadAnswers(int fd, int count) {
  std::string answer;
  char buffer[4096];
  while (CountOf(answer, "{\"TableNames\":[]}") < count) {
    ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    answer.append(buffer, static_cast<size_t>(n));
  }
  return answer;
}

TEST(HttpServerTest, PipelinedRequestsAreAnsweredInOrder) {
  TestServer server;
  // Both requests in one segment: the second is already in the server's read buffer after the first.
  HttpResult r = server.SendRaw(ListTablesRequest("") + ListTablesRequest("Connection: close\r\n"));
  EXPECT_EQ(200, r.status) << r.Describe();
  // SendRaw splits off the first answer's headers; its body holds the first JSON and the whole second answer.
  EXPECT_EQ(0u, r.body.find("{\"TableNames\":[]}HTTP/1.1 200 OK\r\n")) << r.Describe();
  EXPECT_EQ(2, CountOf(r.body, "{\"TableNames\":[]}"));
}

// "Date: Mon, 30 Nov 2026 07:05:09 GMT" (RFC 9110's IMF-fixdate), the time the answer was made, as the C library
// formats it (the server works it out without the C library, which reads /etc/localtime for it).
std::string HttpDateLine(time_t at) {
  tm parts{};
  gmtime_r(&at, &parts);
  char text[64];
  size_t n = std::strftime(text, sizeof(text), "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts);
  return std::string(text, n);
}

TEST(HttpServerTest, AnswersAreDatedInHttpForm) {
  TestServer server;
  time_t before = std::time(nullptr);
  HttpResult r = server.SendRaw(ListTablesRequest("Connection: close\r\n"));
  time_t after = std::time(nullptr);
  ASSERT_EQ(200, r.status) << r.Describe();
  std::string line = "Date: " + r.Header("Date") + "\r\n";
  bool matched = false;
  for (time_t t = before; t <= after; ++t) matched = matched || line == HttpDateLine(t);
  EXPECT_TRUE(matched) << line << " is not " << HttpDateLine(before);
}

TEST(HttpServerTest, KeepAliveConnectionServesManyRequests) {
  TestServer server;
  int fd = Connect(server.port());
  ASSERT_GE(fd, 0);
  for (int i = 0; i < 20; i++) {  // cpp-httplib's default would close the connection after 5
    std::string request = ListTablesRequest("");
    ASSERT_EQ(static_cast<ssize_t>(request.size()), send(fd, request.data(), request.size(), 0));
    std::string answer = ReadAnswers(fd, 1);
    ASSERT_EQ(0u, answer.find("HTTP/1.1 200 OK\r\n")) << "request " << i << ": " << answer;
    // What the connection really allows, not cpp-httplib's default "timeout=5, max=5".
    EXPECT_NE(std::string::npos, answer.find("Keep-Alive: timeout=" + std::to_string(kKeepAliveSeconds) + ", max="))
        << answer;
    EXPECT_EQ(std::string::npos, answer.find("max=5\r\n")) << answer;
  }
  close(fd);
}

TEST(HttpServerTest, ExpectContinueGetsAnInterimAnswerBeforeTheBody) {
  TestServer server;
  int fd = Connect(server.port());
  ASSERT_GE(fd, 0);
  std::string head = std::string(kListTables) + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\n";
  ASSERT_EQ(static_cast<ssize_t>(head.size()), send(fd, head.data(), head.size(), 0));
  char buffer[4096];
  ssize_t n = recv(fd, buffer, sizeof(buffer), 0);  // the server must not wait for the body to answer this
  ASSERT_GT(n, 0);
  EXPECT_EQ(0u, std::string(buffer, static_cast<size_t>(n)).find("HTTP/1.1 100 Continue\r\n"));
  ASSERT_EQ(2, send(fd, "{}", 2, 0));
  std::string answer = ReadAnswers(fd, 1);
  EXPECT_NE(std::string::npos, answer.find("HTTP/1.1 200 OK\r\n")) << answer;
  close(fd);
}

TEST(HttpServerTest, StopClosesIdleKeepAliveConnections) {
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(DatabaseOptions(), &db).ok());
  HttpServer server;
  int port = server.Bind("127.0.0.1", 0);
  ASSERT_GT(port, 0);
  Service service(db.get());
  std::thread runner([&] { server.Run(&service); });
  int fd = -1;
  std::string answer;
  for (int attempt = 0; attempt < 1000 && answer.empty(); attempt++) {  // until the accept loop runs
    if (fd >= 0) close(fd);
    fd = Connect(port);
    ASSERT_GE(fd, 0);
    std::string request = ListTablesRequest("");
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    answer = ReadAnswers(fd, 1);
  }
  ASSERT_EQ(0u, answer.find("HTTP/1.1 200 OK\r\n")) << answer;

  server.Stop();  // the connection is idle, kept alive by the client
  runner.join();
  char c;
  EXPECT_EQ(0, recv(fd, &c, 1, 0)) << "the server should have closed the idle connection";
  close(fd);
  server.WaitForRequests();
}

// main() binds before it opens the database: clients that connect meanwhile must wait, not be refused, and not
// be dropped when several arrive at once (cpp-httplib's own backlog is 5; a dropped SYN is retried after 1 s).
TEST(HttpServerTest, ConnectionsMadeBeforeRunAreAnsweredOnceItRuns) {
  HttpServer server;
  int port = server.Bind("127.0.0.1", 0);
  ASSERT_GT(port, 0);
  constexpr int kClients = 16;
  int fds[kClients];
  for (int i = 0; i < kClients; i++) {
    fds[i] = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fds[i], 0);
    timeval timeout{0, 500 * 1000};  // also bounds connect(): a dropped SYN makes it time out
    setsockopt(fds[i], SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    timeval read_timeout{10, 0};
    setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &read_timeout, sizeof(read_timeout));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(0, connect(fds[i], reinterpret_cast<sockaddr*>(&addr), sizeof(addr))) << "client " << i;
    std::string request = ListTablesRequest("");
    ASSERT_EQ(static_cast<ssize_t>(request.size()), send(fds[i], request.data(), request.size(), MSG_NOSIGNAL));
  }
  // Only now does the database exist.
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(DatabaseOptions(), &db).ok());
  Service service(db.get());
  std::thread runner([&] { server.Run(&service); });
  for (int i = 0; i < kClients; i++) {
    std::string answer = ReadAnswers(fds[i], 1);
    EXPECT_EQ(0u, answer.find("HTTP/1.1 200 OK\r\n")) << "client " << i << ": " << answer;
    close(fds[i]);
  }
  server.Stop();
  runner.join();
  server.WaitForRequests();
}

// What main() does with SIGTERM, in a child process (a death test, so that the signal reaches no other test's
// threads): blocked before any thread starts, read by Run(), which answers a request, then returns when the signal
// arrives. Exits 0 if it did; 3 if Run() ignored the signal for 10 s.
void ServeUntilSigterm(HttpServer::SignalReader reader) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::unique_ptr<Database> db;
  if (!Database::Open(DatabaseOptions(), &db).ok()) std::_Exit(1);
  HttpServer server;
  int port = server.Bind("127.0.0.1", 0);
  if (port <= 0) std::_Exit(1);
  Service service(db.get());
  server.StopOnSignals(signals, reader);
  std::thread client([port] {
    int fd = Connect(port);
    std::string request = ListTablesRequest("Connection: close\r\n");
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    if (ReadAnswers(fd, 1).find("HTTP/1.1 200 OK\r\n") != 0) std::_Exit(2);
    close(fd);
    kill(getpid(), SIGTERM);
    std::this_thread::sleep_for(std::chrono::seconds(10));
    std::_Exit(3);
  });
  client.detach();
  server.Run(&service);
  std::_Exit(0);
}

TEST(HttpServerTest, ASignalStopsRunReadFromASignalfd) {
  EXPECT_EXIT(ServeUntilSigterm(HttpServer::SignalReader::kSignalFd), testing::ExitedWithCode(0), "");
}

// Where the signalfd cannot be made, Run() waits for the signals in a thread instead: they must still stop it.
TEST(HttpServerTest, ASignalStopsRunReadByAWatcherThread) {
  EXPECT_EXIT(ServeUntilSigterm(HttpServer::SignalReader::kWatcherThread), testing::ExitedWithCode(0), "");
}

// Runs a server whose stop signals (blocked in its thread, so that only sigwait() takes them) a watcher thread
// reads, and stops it with Stop(), which returns once Run() has: once Run() has ended its watcher, if it has one.
void RunThenStopWithAWatcher(const sigset_t& signals) {
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(DatabaseOptions(), &db).ok());
  HttpServer server;
  ASSERT_GT(server.Bind("127.0.0.1", 0), 0);
  Service service(db.get());
  server.StopOnSignals(signals, HttpServer::SignalReader::kWatcherThread);
  std::thread runner([&] {
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);  // the watcher is started by Run(), in this thread
    server.Run(&service);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  server.Stop();
  runner.join();
  server.WaitForRequests();
}

// A server stopped otherwise ends its signal watcher too.
TEST(HttpServerTest, StopEndsTheSignalWatcher) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGUSR2);
  RunThenStopWithAWatcher(signals);
}

// With no signal to wait for, Run() starts no watcher, and Stop() is not kept waiting for one.
TEST(HttpServerTest, AnEmptySignalSetStartsNoWatcher) {
  sigset_t none;
  sigemptyset(&none);
  RunThenStopWithAWatcher(none);
}

}  // namespace
}  // namespace dynapage
