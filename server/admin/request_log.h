// RequestLog: one JSON line per request (--request-log FILE, or - for stdout), and the most recent lines for
// GET /_dynapage/requests (docs/testing-pagination.md, "The request log"). Each line belongs to a namespace
// (NamespaceName), so that a caller reads its own. The recent lines kept are bounded in number and in bytes.
//
// Thread-safe: lines are written whole, in the order requests finish.

#ifndef DYNAPAGE_SERVER_ADMIN_REQUEST_LOG_H_
#define DYNAPAGE_SERVER_ADMIN_REQUEST_LOG_H_

#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

namespace dynapage {

constexpr size_t kRecentRequests = 1000;
// The most bytes of recent lines kept; the oldest go first.
constexpr size_t kRecentRequestBytes = 4 * 1024 * 1024;

// A text field of a log line is cut to this many bytes, with a marker saying how long it was ("…[8388608 bytes]").
constexpr size_t kMaxLogFieldBytes = 1024;

// One request as the request log shows it (docs/testing-pagination.md, "The request log").
struct LoggedRequest {
  std::string time;  // ISO 8601, UTC, milliseconds
  std::string_view request_id, access_key, region, operation;
  std::string table;  // the tables it names, comma-separated
  std::string_view index;
  int status = 200;  // 0: the connection was dropped
  std::string_view error, message;
  double latency_ms = 0;
  uint64_t items_returned = 0, items_evaluated = 0, bytes_read = 0, items_written = 0;
  bool exclusive_start_key = false, last_evaluated_key = false;
  // Query and Scan: why the page ended: "limit", "size" (1 MB), "max-page-bytes", "chaos" or "end"; else empty.
  std::string_view page_end;
  std::string injected;
  // The continuation the request sent (ExclusiveStartKey, NextToken, ShardIterator, ExclusiveStartTableName) and
  // the one its answer handed out (LastEvaluatedKey, NextToken, NextShardIterator, LastEvaluatedTableName), as JSON
  // text; empty when there is none. The console links the pages of a chain by them (docs/console.md).
  std::string start_key, next_key;
};
// The JSON object of one line (without a newline), long text fields cut.
std::string RequestLogJson(const LoggedRequest& request);
// One line a person reads (--log-format text), without a newline, long text fields cut:
//   2026-11-27T18:50:00.123Z AKID/us-east-1 Query tab index by_g -> 200 in 1.2 ms, 10 items (10 evaluated),
//   page ended: limit
std::string RequestLogText(const LoggedRequest& request);

class RequestLog {
 public:
  RequestLog() = default;
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  // Appends to the file at path, or writes to stdout for "-". Returns "" or what went wrong.
  std::string Open(const std::string& path);
  // Keeps json_line, of namespace scope, and writes file_line (when not empty; else json_line) to the file.
  // REQUIRES: json_line is one JSON object without a newline; file_line has none.
  void Write(std::string json_line, const std::string& scope, const std::string& file_line = "");
  // {"requests": [ … ]}: the last `limit` lines (at most kRecentRequests) of scope, or of every namespace when
  // scope is null, oldest first.
  std::string RecentJson(size_t limit, const std::string* scope) const;
  // Forgets the recent lines of scope, or every one when scope is null.
  void Clear(const std::string* scope);

 private:
  mutable std::mutex mu_;
  FILE* file_ = nullptr;  // guarded by mu_
  bool owns_file_ = false;
  struct Line {
    std::string scope, text;
  };
  std::deque<Line> recent_;  // guarded by mu_
  size_t recent_bytes_ = 0;  // guarded by mu_; of recent_'s texts
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_REQUEST_LOG_H_
