#include "server/http/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "server/http/answer_text.h"
#include "server/http/connection_server.h"

namespace dynapage {

namespace {
// Open files kept for the database, the listeners and the process when the connection limit is derived from the
// open-file limit.
constexpr size_t kReservedFiles = 1024;

// The lowest signal of signals, or 0 if it holds none.
int FirstSignalOf(const sigset_t& signals) {
  for (int sig = 1; sig < NSIG; sig++) {
    if (sigismember(&signals, sig) == 1) return sig;
  }
  return 0;
}

bool IsLoopbackAddress(const sockaddr* address) {
  if (address->sa_family == AF_INET) {
    return (ntohl(reinterpret_cast<const sockaddr_in*>(address)->sin_addr.s_addr) >> 24) == 127;
  }
  return address->sa_family == AF_INET6 &&
         IN6_IS_ADDR_LOOPBACK(&reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr);
}

}  // namespace

size_t DefaultMaxConnections() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
  size_t files = static_cast<size_t>(limit.rlim_cur);
  size_t reserved = std::min(kReservedFiles, files / 2);
  return files - reserved;
}

void RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

HttpServer::HttpServer() : server_(new ConnectionServer()) {
  set_options(HttpOptions());
  InstallHandlers();
}

HttpServer::~HttpServer() {
  for (int fd : listeners_) ::close(fd);
  for (int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

void HttpServer::set_options(const HttpOptions& options) {
  options_ = options;
  if (options_.max_connections == 0) options_.max_connections = DefaultMaxConnections();
  cors_header_lines_.clear();
  if (OriginAllowed(options_.cors_origins, "*")) {
    cors_header_lines_ =
        std::string("Access-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: ") + kExposedHeaders + "\r\n";
  }
  server_->client_cpus().set_enabled(options_.follow_client_cpu);
  server_->set_request_deadline(options_.request_deadline);
}

void HttpServer::set_follow_client_cpu(bool follow) {
  options_.follow_client_cpu = follow;
  server_->client_cpus().set_enabled(follow);
}

size_t HttpServer::open_connections() const { return server_->open_connections(); }

int HttpServer::Listen(const void* addr, unsigned addr_len, bool v6_only) {
  const auto* address = static_cast<const sockaddr*>(addr);
  int fd = ::socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  // SO_REUSEADDR only (cpp-httplib's default also sets SO_REUSEPORT, which lets a second server bind a port
  // already in use and silently share its connections; a busy port must be an error instead).
  int yes = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  if (address->sa_family == AF_INET6) {
    int v6only = v6_only ? 1 : 0;  // "::" takes IPv4 clients too; "::1" leaves 127.0.0.1 to its own socket
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
  }
  // The kernel's largest accept queue: connections made while the database opens wait there.
  if (::bind(fd, address, addr_len) != 0 || ::listen(fd, SOMAXCONN) != 0) {
    ::close(fd);
    return -1;
  }
  if (!IsLoopbackAddress(address)) non_loopback_listener_ = true;
  sockaddr_storage bound{};
  socklen_t len = sizeof(bound);
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  int port = bound.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in&>(bound).sin_port)
                                        : ntohs(reinterpret_cast<sockaddr_in6&>(bound).sin6_port);
  listeners_.push_back(fd);
  return port;
}

int HttpServer::Bind(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return -1;
  int bound = -1;
  for (addrinfo* a = found; a && bound < 0; a = a->ai_next) {
    bound = Listen(a->ai_addr, a->ai_addrlen, /*v6_only=*/false);
  }
  freeaddrinfo(found);
  return bound;
}

int HttpServer::BindLoopback(int port) {
  // With port 0, the port 127.0.0.1 is given may be taken on ::1: try a few.
  for (int attempt = 0; attempt < 8; attempt++) {
    sockaddr_in v4{};
    v4.sin_family = AF_INET;
    v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    v4.sin_port = htons(static_cast<uint16_t>(port));
    int bound = Listen(&v4, sizeof(v4), false);
    if (bound < 0) return -1;
    sockaddr_in6 v6{};
    v6.sin6_family = AF_INET6;
    v6.sin6_addr = in6addr_loopback;
    v6.sin6_port = htons(static_cast<uint16_t>(bound));
    if (Listen(&v6, sizeof(v6), true) >= 0) return bound;
    int error = errno;
    if (error == EADDRNOTAVAIL || error == EAFNOSUPPORT) return bound;  // no IPv6 here: 127.0.0.1 only
    if (port != 0) return -1;
    ::close(listeners_.back());
    listeners_.pop_back();
  }
  return -1;
}

void HttpServer::Run(RequestHandler* handler) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || listeners_.empty()) {
      run_returned_ = true;
      returned_.notify_all();
      return;
    }
    if (::pipe2(wake_, O_CLOEXEC) != 0) {
      run_returned_ = true;
      returned_.notify_all();
      return;
    }
    run_started_ = true;
  }
  handler_ = handler;
  std::vector<pollfd> fds;
  for (int fd : listeners_) fds.push_back({fd, POLLIN, 0});
  const size_t listener_count = fds.size();
  int signal_fd = -1;
  std::thread signal_watcher;
  if (stop_signals_ && signal_reader_ == SignalReader::kSignalFd) {
    signal_fd = ::signalfd(-1, &*stop_signals_, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signal_fd < 0) {
      std::fprintf(stderr, "dynapage: cannot read signals from a signalfd (%s); a thread waits for them instead\n",
                   std::strerror(errno));
    }
  }
  // The signal that ends the watcher's sigwait() when Run() returns for another reason.
  const int watcher_wake_signal = stop_signals_ ? FirstSignalOf(*stop_signals_) : 0;
  if (watcher_wake_signal != 0 && signal_fd < 0) signal_watcher = std::thread([this] { WatchSignals(); });
  if (signal_fd >= 0) fds.push_back({signal_fd, POLLIN, 0});
  fds.push_back({wake_[0], POLLIN, 0});
  bool running = true;
  while (running) {
    int n = ::poll(fds.data(), fds.size(), -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds.back().revents) break;
    if (signal_fd >= 0 && fds[listener_count].revents) {
      std::lock_guard<std::mutex> lock(mu_);
      BeginStopping();
      break;
    }
    for (size_t i = 0; i < listener_count; i++) {
      if (!fds[i].revents) continue;
      while (true) {
        int sock = ::accept4(fds[i].fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (sock >= 0) {
          server_->StartConnection(sock, options_.max_connections);
          continue;
        }
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
          // Out of files: let connections end before accepting more (they wait in the accept queue meanwhile).
          pollfd wake{wake_[0], POLLIN, 0};
          if (::poll(&wake, 1, 10) > 0) running = false;
        }
        break;  // EAGAIN: none left; anything else: try again at the next poll
      }
    }
  }
  for (int fd : listeners_) ::close(fd);
  listeners_.clear();
  if (signal_fd >= 0) ::close(signal_fd);
  if (signal_watcher.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      run_ending_ = true;
    }
    // Sent to the watcher alone, it ends its sigwait() (unless a signal has ended it already).
    pthread_kill(signal_watcher.native_handle(), watcher_wake_signal);
    signal_watcher.join();
  }
  server_->WaitForConnections();
  std::lock_guard<std::mutex> lock(mu_);
  run_returned_ = true;
  returned_.notify_all();
}

void HttpServer::StopOnSignals(const sigset_t& signals, SignalReader reader) {
  stop_signals_ = signals;
  signal_reader_ = reader;
}

void HttpServer::WatchSignals() {
  int sig = 0;
  // sigwait() retries interruptions itself: an error means that no signal of the set can be read.
  if (sigwait(&*stop_signals_, &sig) != 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (run_ending_) return;
  BeginStopping();
  WakeAcceptLoop();
}

void HttpServer::BeginStopping() {
  stopping_ = true;
  // Connections are ended first, so that Run() need not wait its grace period for idle ones.
  server_->CloseConnections();
}

void HttpServer::WakeAcceptLoop() {
  char byte = 0;
  if (::write(wake_[1], &byte, 1) < 0) {
    // A full pipe means a byte is waiting already: the accept loop wakes all the same.
  }
}

void HttpServer::Stop() {
  std::unique_lock<std::mutex> lock(mu_);
  BeginStopping();
  if (!run_started_) return;
  WakeAcceptLoop();
  returned_.wait(lock, [this] { return run_returned_; });
}

void HttpServer::WaitForRequests() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [this] { return in_flight_ == 0; });
}

bool HttpServer::BeginRequest() {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return false;
  in_flight_++;
  return true;
}

void HttpServer::EndRequest() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--in_flight_ == 0) idle_.notify_all();
}

}  // namespace dynapage
