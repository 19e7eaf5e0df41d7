#include "server/http/connection_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstring>

namespace dynapage {

namespace {
void AddressOf(const sockaddr_storage& addr, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(addr);
    inet_ntop(AF_INET, &v4.sin_addr, text, sizeof(text));
    port = ntohs(v4.sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(addr);
    inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof(text));
    port = ntohs(v6.sin6_port);
  } else {
    port = 0;
  }
  ip = text;
}
}  // namespace

ConnectionStream::ConnectionStream(socket_t sock, ClientCpuAffinity::Connection* client_cpu,
                                   std::chrono::milliseconds request_deadline, std::chrono::seconds idle_shed,
                                   std::chrono::seconds keep_alive)
    : sock_(sock),
      client_cpu_(client_cpu),
      read_buffer_(new char[kReadBufferBytes]),
      request_deadline_(request_deadline),
      idle_shed_(idle_shed),
      keep_alive_(keep_alive) {}

// Reads block (up to the socket's receive timeout) instead of polling first: a poll() per read is a system
// call per request that buys nothing on a blocking socket.
bool ConnectionStream::is_readable() const { return !failed_; }
bool ConnectionStream::is_writable() const { return !failed_; }

ssize_t ConnectionStream::read(char* ptr, size_t size) {
  // cpp-httplib reads the request line and headers a byte at a time, ~400 calls a request: a byte already
  // received is handed over without the register saves of the general case. Holding back what is pending is
  // safe here, because nothing waits on the client: the pending bytes go out before any recv().
  if (size == 1 && read_begin_ < read_end_) {
    *ptr = read_buffer_[read_begin_++];
    return 1;
  }
  return ReadMore(ptr, size);
}

std::string_view ConnectionStream::Buffered() {
  if (read_begin_ == read_end_) {
    char byte;
    if (ReadMore(&byte, 1) != 1) return std::string_view();
    read_begin_--;  // the byte is still in the buffer: ReadMore received into it
  }
  return std::string_view(read_buffer_.get() + read_begin_, read_end_ - read_begin_);
}

ssize_t ConnectionStream::ReadMore(char* ptr, size_t size) {
  if (size == 0) return 0;
  if (!pending_.empty() && !Flush()) return -1;
  if (read_begin_ == read_end_) {
    if (failed_) return -1;
    // A large read (a request body) goes straight to the caller; small ones (header bytes) through the buffer.
    bool direct = size >= kReadBufferBytes;
    ssize_t n = Receive(direct ? ptr : read_buffer_.get(), direct ? size : kReadBufferBytes);
    if (n <= 0) {
      if (n < 0) failed_ = true;
      return n;
    }
    if (client_cpu_) client_cpu_->AfterReceive();
    if (direct) return n;
    read_begin_ = 0;
    read_end_ = static_cast<size_t>(n);
  }
  size_t take = std::min(size, read_end_ - read_begin_);
  std::memcpy(ptr, read_buffer_.get() + read_begin_, take);
  read_begin_ += take;
  return static_cast<ssize_t>(take);
}

ssize_t ConnectionStream::Receive(char* into, size_t size) {
  // Waiting for a new request blocks up to the socket's receive timeout (the keep-alive time).
  if (!mid_request_) {
    ssize_t n;
    while (true) {
      n = ::recv(sock_, into, size, 0);
      if (n >= 0 || errno != EINTR) {
        if (n >= 0 || shed_ || idle_shed_.count() == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) break;
        // Idle for idle_shed_: give memory back, and wait the rest of the keep-alive time.
        ShedIdleMemory();
        shed_ = true;
        timeval rest{static_cast<long>((keep_alive_ - idle_shed_).count()), 0};
        setsockopt(sock_, SOL_SOCKET, SO_RCVTIMEO, &rest, sizeof(rest));
      }
    }
    if (n > 0) {
      mid_request_ = true;
      if (shed_) {
        shed_ = false;
        timeval again{static_cast<long>(idle_shed_.count()), 0};
        setsockopt(sock_, SOL_SOCKET, SO_RCVTIMEO, &again, sizeof(again));
      }
    }
    return n;
  }
  // The rest of a request: usually already here. Otherwise wait, but not past the request's deadline.
  while (true) {
    ssize_t n = ::recv(sock_, into, size, MSG_DONTWAIT);
    if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return n;
    if (errno == EINTR) continue;
    auto now = std::chrono::steady_clock::now();
    if (!waited_) {
      waited_ = true;
      deadline_ = now + request_deadline_;
    }
    if (now >= deadline_) {
      deadline_passed_ = true;
      errno = ETIMEDOUT;
      return -1;
    }
    pollfd fd{sock_, POLLIN, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now).count() + 1;
    if (::poll(&fd, 1, static_cast<int>(left)) < 0 && errno != EINTR) return -1;
  }
}

void ConnectionStream::ShedIdleMemory() {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  auto release = [page](uintptr_t begin, uintptr_t end) {
    begin = (begin + page - 1) & ~(page - 1);
    end &= ~(page - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
  };
  // The receive buffer holds nothing unread (a new request is awaited), and nothing is pending to send.
  auto buffer = reinterpret_cast<uintptr_t>(read_buffer_.get());
  release(buffer, buffer + kReadBufferBytes);
  std::string().swap(pending_);
  // The stack below this frame (stacks grow down), less a margin for the calls still to come from here.
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* stack_low = nullptr;
  size_t stack_size = 0;
  pthread_attr_getstack(&attr, &stack_low, &stack_size);
  pthread_attr_destroy(&attr);
  char here;
  constexpr uintptr_t kMargin = 4 * 1024;  // the calls below need a few hundred bytes
  auto low = reinterpret_cast<uintptr_t>(stack_low), sp = reinterpret_cast<uintptr_t>(&here);
  if (sp > low + kMargin && sp < low + stack_size) release(low, sp - kMargin);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  if (failed_) return -1;
  answered_ = true;
  if (pending_.size() + size <= kCoalesceBytes) {
    pending_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  return SendWithPending(ptr, size);
}

ssize_t ConnectionStream::SendWithPending(const char* ptr, size_t size) {
  if (failed_) return -1;
  answered_ = true;
  bool sent = SendAll(pending_.data(), pending_.size(), ptr, size);
  pending_.clear();
  return sent ? static_cast<ssize_t>(size) : -1;
}

bool ConnectionStream::Flush() {
  if (failed_) return false;
  if (pending_.empty()) return true;
  bool sent = SendAll(pending_.data(), pending_.size(), nullptr, 0);
  pending_.clear();
  return sent;
}

bool ConnectionStream::SendAll(const char* first, size_t first_size, const char* second, size_t second_size) {
  iovec parts[2] = {{const_cast<char*>(first), first_size}, {const_cast<char*>(second), second_size}};
  int count = second_size > 0 ? 2 : 1;
  iovec* next = parts;
  while (count > 0) {
    msghdr message{};
    message.msg_iov = next;
    message.msg_iovlen = static_cast<size_t>(count);
    ssize_t n = ::sendmsg(sock_, &message, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      failed_ = true;
      return false;
    }
    size_t left = static_cast<size_t>(n);
    while (count > 0 && left >= next->iov_len) {
      left -= next->iov_len;
      ++next;
      --count;
    }
    if (count > 0) {
      next->iov_base = static_cast<char*>(next->iov_base) + left;
      next->iov_len -= left;
    }
  }
  return true;
}

// cpp-httplib (0.18) asks for these once per connection. Its own functions format the address with
// getnameinfo(), whose code in libc would add ~0.1 MB to the resident memory of an idle server; inet_ntop is
// the part of it that a numeric address needs.
void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getpeername(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) AddressOf(addr, ip, port);
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) AddressOf(addr, ip, port);
}

}  // namespace dynapage
