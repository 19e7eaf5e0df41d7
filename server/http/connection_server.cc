#include "server/http/connection_server.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>

#include "server/http/answer_text.h"
#include "server/http/connection_stream.h"
#include "server/http/request_framing.h"

namespace dynapage {

namespace {
constexpr auto kShutdownGrace = std::chrono::milliseconds(500);
// A connection thread's stack. The kernel gives a thread only the stack pages it touches, so the size costs no
// memory by itself; it bounds how deep a request's work may go.
constexpr size_t kConnectionStackBytes = 8 * 1024 * 1024;
// A connection idle this long gives back the memory its requests touched (ConnectionStream).
constexpr std::chrono::seconds kIdleShed(2);

thread_local socket_t current_socket = INVALID_SOCKET;
}  // namespace

int CurrentConnectionSocket() { return current_socket; }

void ConnectionServer::CloseConnections() {
  std::lock_guard<std::mutex> lock(mu_);
  closing_ = true;
  for (socket_t sock : open_) ::shutdown(sock, SHUT_RD);
}

void ConnectionServer::StartConnection(int sock, size_t max_connections) {
  std::shared_ptr<Count> count = count_;
  {
    std::lock_guard<std::mutex> lock(count->mu);
    if (count->open >= max_connections) {
      Refuse(sock, max_connections);
      return;
    }
    count->open++;
  }
  auto* work = new std::function<void()>([this, sock, count] {
    process_and_close_socket(sock);
    std::lock_guard<std::mutex> lock(count->mu);
    count->open--;
    count->changed.notify_all();
  });
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kConnectionStackBytes);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  int rc = pthread_create(
      &thread, &attr,
      [](void* arg) -> void* {
        std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(arg));
        (*fn)();
        return nullptr;
      },
      work);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    delete work;
    {
      std::lock_guard<std::mutex> lock(count->mu);
      count->open--;
    }
    Refuse(sock, max_connections);
  }
}

void ConnectionServer::WaitForConnections() {
  std::unique_lock<std::mutex> lock(count_->mu);
  count_->changed.wait_for(lock, kShutdownGrace, [&] { return count_->open == 0; });
}

size_t ConnectionServer::open_connections() const {
  std::lock_guard<std::mutex> lock(count_->mu);
  return count_->open;
}

void ConnectionServer::Refuse(int sock, size_t max_connections) {
  SendBestEffort(sock, OverLimitAnswer(max_connections));
  ::shutdown(sock, SHUT_WR);
  // Read what the client sent already, so that closing does not reset the connection before it reads the answer.
  char discard[4096];
  while (::recv(sock, discard, sizeof(discard), MSG_DONTWAIT) > 0) {
  }
  ::close(sock);
}

bool ConnectionServer::process_and_close_socket(socket_t sock) {
  int yes = 1;
  setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  timeval idle_shed{kIdleShed.count(), 0};
  setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &idle_shed, sizeof(idle_shed));
  timeval keep_alive{kKeepAliveSeconds, 0};
  setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &keep_alive, sizeof(keep_alive));
  bool ok = false;
  current_socket = sock;
  if (Register(sock)) {
    ClientCpuAffinity::Connection client_cpu(&client_cpus_, sock);
    ConnectionStream stream(sock, &client_cpu, request_deadline_, kIdleShed, std::chrono::seconds(kKeepAliveSeconds));
    std::string remote_ip, local_ip;  // for the request's remote_addr and local_addr
    int remote_port = 0, local_port = 0;
    stream.get_remote_ip_and_port(remote_ip, remote_port);
    stream.get_local_ip_and_port(local_ip, local_port);
    std::function<void(httplib::Request&)> check_framing = CheckFraming;
    bool refused = false;
    while (true) {
      bool connection_closed = false;
      ResetFraming();
      DirectOutcome direct = direct_ ? direct_(stream, &connection_closed) : DirectOutcome::kNotDirect;
      if (direct == DirectOutcome::kNotDirect) {
        ok = process_request(stream, remote_ip, remote_port, local_ip, local_port, /*close_connection=*/false,
                             connection_closed, check_framing);
      } else {
        ok = direct == DirectOutcome::kAnswered;
      }
      ok = stream.Flush() && ok;
      if (!ok && stream.unanswered_request()) {
        // A request begun but never framed: its line too long to read, or its rest not arrived within the
        // deadline. The client gets the 400 any bad request gets, not a bare close; one past the deadline is not
        // waited for any longer (no lingering close).
        bool late = stream.deadline_passed();
        SendBestEffort(sock, ClosingAnswer(400, late ? "The request did not arrive within the request deadline"
                                                     : "Malformed HTTP request"));
        if (late) break;
        Unregister(sock);
        CloseLingering(sock);
        return false;
      }
      stream.EndRequest();
      refused = ok && CurrentFraming().close_connection;
      if (!ok || connection_closed || CurrentFraming().close_connection || Closing()) break;
      client_cpu.AfterResponse();
    }
    Unregister(sock);
    if (refused) {
      CloseLingering(sock);
      return ok;
    }
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return ok;
}

bool ConnectionServer::Register(socket_t sock) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closing_) return false;
  open_.insert(sock);
  return true;
}

void ConnectionServer::Unregister(socket_t sock) {
  std::lock_guard<std::mutex> lock(mu_);
  open_.erase(sock);
}

bool ConnectionServer::Closing() {
  std::lock_guard<std::mutex> lock(mu_);
  return closing_;
}

}  // namespace dynapage
