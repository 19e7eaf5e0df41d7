#include "server/http/connection_stream.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <thread>

#include "tests/http/loopback_util.h"

namespace dynapage {
namespace {

// A connected pair of stream sockets: ours (wrapped by the ConnectionStream) and the peer's.
class ConnectionStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, fds));
    ours_ = fds[0];
    peer_ = fds[1];
  }
  void TearDown() override {
    if (ours_ >= 0) close(ours_);
    if (peer_ >= 0) close(peer_);
  }

  // What the peer can read right now without waiting ("" if nothing).
  std::string PeerReadNow() {
    char buffer[65536];
    ssize_t n = recv(peer_, buffer, sizeof(buffer), MSG_DONTWAIT);
    return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
  }
  void PeerSend(const std::string& bytes) {
    ASSERT_EQ(static_cast<ssize_t>(bytes.size()), send(peer_, bytes.data(), bytes.size(), 0));
  }

  int ours_ = -1;
  int peer_ = -1;
};

TEST_F(ConnectionStreamTest, SmallWritesAreHeldUntilFlushAndLeaveTogether) {
  ConnectionStream stream(ours_);
  EXPECT_EQ(17, stream.write("HTTP/1.1 200 OK\r\n", 17));
  EXPECT_EQ(2, stream.write("\r\n", 2));
  EXPECT_EQ(2, stream.write("{}", 2));
  EXPECT_EQ("", PeerReadNow());
  ASSERT_TRUE(stream.Flush());
  EXPECT_EQ("HTTP/1.1 200 OK\r\n\r\n{}", PeerReadNow());
  EXPECT_TRUE(stream.Flush());  // nothing pending: nothing sent
  EXPECT_EQ("", PeerReadNow());
}

TEST_F(ConnectionStreamTest, AReadSendsWhatIsPendingFirst) {
  // An interim answer (100 Continue) must reach the client before the server waits for the body.
  ConnectionStream stream(ours_);
  stream.write("HTTP/1.1 100 Continue\r\n\r\n", 25);
  PeerSend("x");
  char c = 0;
  ASSERT_EQ(1, stream.read(&c, 1));
  EXPECT_EQ('x', c);
  EXPECT_EQ("HTTP/1.1 100 Continue\r\n\r\n", PeerReadNow());
}

TEST_F(ConnectionStreamTest, ALargeBodyFollowsThePendingHeadersInOrder) {
  ConnectionStream stream(ours_);
  std::string body(3 * ConnectionStream::kCoalesceBytes + 7, '\0');
  for (size_t i = 0; i < body.size(); i++) body[i] = static_cast<char>('a' + i % 26);
  std::string received;
  std::thread reader([&] {
    char buffer[8192];
    while (received.size() < 5 + body.size()) {
      ssize_t n = recv(peer_, buffer, sizeof(buffer), 0);
      if (n <= 0) break;
      received.append(buffer, static_cast<size_t>(n));
    }
  });
  stream.write("head:", 5);
  EXPECT_EQ(static_cast<ssize_t>(body.size()), stream.write(body.data(), body.size()));
  EXPECT_TRUE(stream.Flush());
  reader.join();
  EXPECT_EQ("head:" + body, received);
}

// An answer's body goes out at once after its pending head, whatever its size, and nothing stays pending.
TEST_F(ConnectionStreamTest, SendWithPendingSendsTheHeadThenTheBodyAtOnce) {
  ConnectionStream stream(ours_);
  for (size_t size : {size_t{0}, size_t{1}, size_t{6000}}) {
    std::string body(size, 'b');
    stream.write("head:", 5);
    EXPECT_EQ(static_cast<ssize_t>(size), stream.SendWithPending(body.data(), body.size()));
    EXPECT_EQ("head:" + body, PeerReadNow()) << size;
    EXPECT_TRUE(stream.Flush());
    EXPECT_EQ("", PeerReadNow()) << size;
  }
}

TEST_F(ConnectionStreamTest, ReadsServeByteByByteFromOneReceive) {
  ConnectionStream stream(ours_);
  PeerSend("POST / HTTP/1.1\r\n");
  std::string line;
  char c;
  while (line.size() < 17 && stream.read(&c, 1) == 1) line += c;
  EXPECT_EQ("POST / HTTP/1.1\r\n", line);
}

TEST_F(ConnectionStreamTest, ALargeReadTakesBufferedBytesThenReadsDirectly) {
  ConnectionStream stream(ours_);
  std::string big(ConnectionStream::kReadBufferBytes * 2, 'b');
  PeerSend("a" + big);
  char c;
  ASSERT_EQ(1, stream.read(&c, 1));
  EXPECT_EQ('a', c);
  std::string rest;
  std::string buffer(ConnectionStream::kReadBufferBytes * 4, '\0');
  while (rest.size() < big.size()) {
    ssize_t n = stream.read(&buffer[0], buffer.size());
    ASSERT_GT(n, 0);
    rest.append(buffer.data(), static_cast<size_t>(n));
  }
  EXPECT_EQ(big, rest);
}

TEST_F(ConnectionStreamTest, EndOfStreamReadsAsZero) {
  ConnectionStream stream(ours_);
  PeerSend("z");
  close(peer_);
  peer_ = -1;
  char c;
  EXPECT_EQ(1, stream.read(&c, 1));
  EXPECT_EQ(0, stream.read(&c, 1));
}

TEST_F(ConnectionStreamTest, AReceiveTimeoutIsAnError) {
  timeval short_wait{0, 20000};
  ASSERT_EQ(0, setsockopt(ours_, SOL_SOCKET, SO_RCVTIMEO, &short_wait, sizeof(short_wait)));
  ConnectionStream stream(ours_);
  char c;
  EXPECT_EQ(-1, stream.read(&c, 1));
  EXPECT_FALSE(stream.is_readable());
}

TEST_F(ConnectionStreamTest, WritingToAClosedPeerFailsWithoutSignal) {
  ConnectionStream stream(ours_);
  close(peer_);
  peer_ = -1;
  stream.write("lost", 4);
  EXPECT_FALSE(stream.Flush());  // EPIPE, and no SIGPIPE kills the test
  EXPECT_EQ(-1, stream.write("more", 4));
}

TEST(ConnectionStreamAddressTest, AddressesAreThoseOfTheTcpConnection) {
  LoopbackConnection connection;
  ASSERT_TRUE(connection.ok());
  sockaddr_in client_addr{};
  socklen_t len = sizeof(client_addr);
  ASSERT_EQ(0, getsockname(connection.client, reinterpret_cast<sockaddr*>(&client_addr), &len));

  ConnectionStream stream(connection.server);
  std::string ip;
  int port = 0;
  stream.get_remote_ip_and_port(ip, port);
  EXPECT_EQ("127.0.0.1", ip);
  EXPECT_EQ(ntohs(client_addr.sin_port), port);
  stream.get_local_ip_and_port(ip, port);
  EXPECT_EQ("127.0.0.1", ip);
  EXPECT_EQ(ntohs(connection.address.sin_port), port);
  EXPECT_EQ(connection.server, stream.socket());
}

}  // namespace
}  // namespace dynapage
