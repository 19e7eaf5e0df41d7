// ConnectionStream: cpp-httplib's Stream over one accepted, blocking TCP socket, with one receive and one send
// per request in the common case.
//
// cpp-httplib's own socket stream polls before every read and write and sends a response as two segments
// (headers, then body). On loopback each of those system calls, and each extra wake-up of the client, costs
// more than a whole Query page of our own work. Here: reads come from a buffer refilled by one recv() of up to
// kReadBufferBytes; writes are held and go out together with one send() (or writev() for a large body) when
// the response is complete — that is, at Flush() or before the next recv(), so that an interim response
// (100 Continue) is never held back. Time limits are the socket's SO_RCVTIMEO/SO_SNDTIMEO, set by the owner,
// and the request deadline: once part of a request has arrived, the rest must arrive within request_deadline of
// the first time a receive finds nothing waiting (a client trickling its head or body a byte at a time cannot hold
// the connection). Only that slow case costs a poll(): a receive first looks without waiting.
//
// An idle connection gives its memory back: a thread per connection keeps the stack pages its requests touched,
// and thousands of idle keep-alive connections would add up. When no new request has come within kIdleShedSeconds
// (the socket's receive timeout, set by the owner), the stack below the current frame, the receive buffer's pages
// and the send buffer are returned to the system, and the wait goes on for the rest of the keep-alive time. A busy
// connection never pays for this: it costs system calls only once per idle period.
//
// Not thread-safe: one connection, one thread.

#ifndef DYNAPAGE_SERVER_HTTP_CONNECTION_STREAM_H_
#define DYNAPAGE_SERVER_HTTP_CONNECTION_STREAM_H_

#include <httplib.h>

#include "server/http/client_cpu_affinity.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "engine/base/check.h"

namespace dynapage {

class ConnectionStream : public httplib::Stream {
 public:
  static constexpr size_t kReadBufferBytes = 16 * 1024;
  // Writes are copied into the pending buffer up to this size; a larger body goes out straight from the
  // caller's memory, together with what is pending.
  static constexpr size_t kCoalesceBytes = 16 * 1024;

  // REQUIRES: sock is a connected, blocking stream socket that outlives this object; so does client_cpu, if
  // given, which is told of every receive.
  // REQUIRES: the socket's receive timeout (SO_RCVTIMEO) is idle_shed, and idle_shed < keep_alive.
  explicit ConnectionStream(socket_t sock, ClientCpuAffinity::Connection* client_cpu = nullptr,
                            std::chrono::milliseconds request_deadline = std::chrono::seconds(30),
                            std::chrono::seconds idle_shed = std::chrono::seconds(0),
                            std::chrono::seconds keep_alive = std::chrono::seconds(0));

  using httplib::Stream::write;

  bool is_readable() const override;
  bool is_writable() const override;
  // Returns 0 at end of stream, -1 on error or timeout.
  ssize_t read(char* ptr, size_t size) override;
  // Returns size, or -1 if the connection failed.
  ssize_t write(const char* ptr, size_t size) override;
  // Sends what is pending and then the size bytes at ptr, at once and from where they are: the last part of an
  // answer (its body), which write() would first copy into the pending buffer. Returns size, or -1 if the
  // connection failed.
  ssize_t SendWithPending(const char* ptr, size_t size);
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

  // Sends what is pending. Returns false if the connection failed.
  bool Flush();
  // What has been received and not yet read; when nothing is, first receives (waiting as read() does). Empty at the
  // end of the stream or on failure.
  std::string_view Buffered();
  // Marks the first size bytes of Buffered() read. REQUIRES: size <= Buffered().size().
  void Consume(size_t size) {
    DP_DCHECK(size <= read_end_ - read_begin_);
    read_begin_ += size;
  }
  // Between requests: what is received next starts a new request (and the next request deadline).
  void EndRequest() {
    mid_request_ = read_begin_ < read_end_;  // a pipelined request has begun already
    waited_ = false;
    answered_ = false;
  }
  // Part of the current request has been received, and nothing has been written in answer to it: a request that
  // fails now is refused with an answer of the connection's own (ConnectionServer), not dropped.
  bool unanswered_request() const { return mid_request_ && !answered_; }
  // True if a receive failed because the request deadline passed.
  bool deadline_passed() const { return deadline_passed_; }

 private:
  // read() beyond a byte already received. Kept out of line so that read()'s common case stays a few
  // instructions.
  [[gnu::noinline]] ssize_t ReadMore(char* ptr, size_t size);
  bool SendAll(const char* first, size_t first_size, const char* second, size_t second_size);
  // recv() with the request deadline applied; returns as recv() does.
  ssize_t Receive(char* into, size_t size);
  // Gives the memory of an idle connection back (above). Called on the connection's own thread.
  void ShedIdleMemory();

  socket_t sock_;
  ClientCpuAffinity::Connection* client_cpu_;
  std::unique_ptr<char[]> read_buffer_;
  size_t read_begin_ = 0;
  size_t read_end_ = 0;
  std::string pending_;
  bool failed_ = false;
  std::chrono::milliseconds request_deadline_;
  bool mid_request_ = false;  // part of the current request has been received
  bool waited_ = false;       // a receive of the current request found nothing waiting: deadline_ is set
  bool deadline_passed_ = false;
  bool answered_ = false;  // something has been written since the current request began
  std::chrono::steady_clock::time_point deadline_;
  std::chrono::seconds idle_shed_;  // 0: never shed
  std::chrono::seconds keep_alive_;
  bool shed_ = false;  // the receive timeout is the rest of the keep-alive time, not idle_shed_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_CONNECTION_STREAM_H_
