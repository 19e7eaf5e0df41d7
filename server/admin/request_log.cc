#include "server/admin/request_log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace dynapage {

RequestLog::~RequestLog() {
  if (owns_file_ && file_) std::fclose(file_);
}

std::string RequestLog::Open(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  if (path == "-") {
    file_ = stdout;
    return "";
  }
  file_ = std::fopen(path.c_str(), "a");
  if (!file_) return "cannot open request log " + path + ": " + std::strerror(errno);
  owns_file_ = true;
  return "";
}

void RequestLog::Write(std::string line) {
  std::lock_guard<std::mutex> lock(mu_);
  if (file_) {
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fputc('\n', file_);
    std::fflush(file_);
  }
  if (recent_.size() == kRecentRequests) recent_.pop_front();
  recent_.push_back(std::move(line));
}

std::string RequestLog::RecentJson(size_t limit) const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = std::min(limit, recent_.size());
  std::string out = "{\"requests\":[";
  for (size_t i = recent_.size() - n; i < recent_.size(); i++) {
    if (i != recent_.size() - n) out += ",";
    out += recent_[i];
  }
  return out + "]}";
}

void RequestLog::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  recent_.clear();
}

}  // namespace dynapage
