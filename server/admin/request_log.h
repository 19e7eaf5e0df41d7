// RequestLog: one JSON line per request (--request-log FILE, or - for stdout), and the most recent lines for
// GET /_dynapage/requests (docs/testing-pagination.md, "The request log").
//
// Thread-safe: lines are written whole, in the order requests finish.

#ifndef DYNAPAGE_SERVER_ADMIN_REQUEST_LOG_H_
#define DYNAPAGE_SERVER_ADMIN_REQUEST_LOG_H_

#include <cstdio>
#include <deque>
#include <mutex>
#include <string>

namespace dynapage {

constexpr size_t kRecentRequests = 1000;

class RequestLog {
 public:
  RequestLog() = default;
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  // Appends to the file at path, or writes to stdout for "-". Returns "" or what went wrong.
  std::string Open(const std::string& path);
  // REQUIRES: line is one JSON object without a newline.
  void Write(std::string line);
  // {"requests": [ … ]}: the last `limit` lines (at most kRecentRequests), oldest first.
  std::string RecentJson(size_t limit) const;
  void Clear();

 private:
  mutable std::mutex mu_;
  FILE* file_ = nullptr;  // guarded by mu_
  bool owns_file_ = false;
  std::deque<std::string> recent_;  // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_REQUEST_LOG_H_
