#include "server/admin/request_log.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "server/admin/admin_json.h"

namespace dynapage {

namespace {

// text, or its first kMaxLogFieldBytes bytes (whole UTF-8 characters) and "…[N bytes]".
std::string Cut(std::string_view text) {
  if (text.size() <= kMaxLogFieldBytes) return std::string(text);
  size_t keep = kMaxLogFieldBytes;
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) keep--;
  return std::string(text.substr(0, keep)) + "\u2026[" + std::to_string(text.size()) + " bytes]";
}

void Field(rapidjson::Writer<rapidjson::StringBuffer>* w, const char* key, std::string_view value) {
  WriteOptionalText(w, key, Cut(value));
}

void Count(rapidjson::Writer<rapidjson::StringBuffer>* w, const char* key, uint64_t value) {
  w->Key(key);
  w->Uint64(value);
}

}  // namespace

std::string RequestLogJson(const LoggedRequest& r) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("time");
  w.String(r.time.c_str());
  Field(&w, "request_id", r.request_id);
  Field(&w, "access_key", r.access_key);
  Field(&w, "region", r.region);
  Field(&w, "operation", r.operation);
  Field(&w, "table", r.table);
  Field(&w, "index", r.index);
  w.Key("status");
  w.Int(r.status);
  Field(&w, "error", r.error);
  Field(&w, "message", r.message);
  w.Key("latency_ms");
  w.Double(r.latency_ms);
  Count(&w, "items_returned", r.items_returned);
  Count(&w, "items_evaluated", r.items_evaluated);
  Count(&w, "bytes_read", r.bytes_read);
  Count(&w, "items_written", r.items_written);
  w.Key("exclusive_start_key");
  w.Bool(r.exclusive_start_key);
  w.Key("last_evaluated_key");
  w.Bool(r.last_evaluated_key);
  Field(&w, "page_end", r.page_end);
  Field(&w, "injected", r.injected);
  Field(&w, "start_key", r.start_key);
  Field(&w, "next_key", r.next_key);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string RequestLogText(const LoggedRequest& r) {
  std::string line = r.time;
  line.append(" ").append(r.access_key.empty() ? "(unsigned)" : Cut(r.access_key)).append("/").append(Cut(r.region));
  line.append(" ").append(Cut(r.operation));
  if (!r.table.empty()) line.append(" ").append(Cut(r.table));
  if (!r.index.empty()) line.append(" index ").append(Cut(r.index));
  char latency[32];
  std::snprintf(latency, sizeof(latency), "%.1f", r.latency_ms);
  line.append(" -> ").append(r.status ? std::to_string(r.status) : "no answer").append(" in ").append(latency);
  line.append(" ms");
  if (!r.error.empty()) line.append(": ").append(Cut(r.error));
  if (!r.message.empty()) line.append(": ").append(Cut(r.message));
  if (r.status == 200 && (r.items_returned || r.items_evaluated)) {
    line.append(", ").append(std::to_string(r.items_returned)).append(" items (");
    line.append(std::to_string(r.items_evaluated)).append(" evaluated)");
  }
  if (r.items_written) line.append(", ").append(std::to_string(r.items_written)).append(" written");
  if (r.exclusive_start_key) line.append(", continued");
  if (!r.page_end.empty()) line.append(", page ended: ").append(r.page_end);
  if (!r.injected.empty()) line.append(", injected: ").append(Cut(r.injected));
  // A request's text may hold a newline: the file keeps one line per request.
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line;
}

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

void RequestLog::Write(std::string line, const std::string& scope, const std::string& file_line) {
  std::lock_guard<std::mutex> lock(mu_);
  if (file_) {
    const std::string& written = file_line.empty() ? line : file_line;
    std::fwrite(written.data(), 1, written.size(), file_);
    std::fputc('\n', file_);
    std::fflush(file_);
  }
  recent_bytes_ += line.size();
  recent_.push_back(Line{scope, std::move(line)});
  while (recent_.size() > kRecentRequests || (recent_bytes_ > kRecentRequestBytes && recent_.size() > 1)) {
    recent_bytes_ -= recent_.front().text.size();
    recent_.pop_front();
  }
}

std::string RequestLog::RecentJson(size_t limit, const std::string* scope) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const std::string*> lines;  // newest first
  for (auto it = recent_.rbegin(); it != recent_.rend() && lines.size() < limit; ++it) {
    if (!scope || it->scope == *scope) lines.push_back(&it->text);
  }
  std::string out = "{\"requests\":[";
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (it != lines.rbegin()) out += ",";
    out += **it;
  }
  return out + "]}";
}

void RequestLog::Clear(const std::string* scope) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = recent_.begin(); it != recent_.end();) {
    if (scope && it->scope != *scope) {
      ++it;
      continue;
    }
    recent_bytes_ -= it->text.size();
    it = recent_.erase(it);
  }
}

}  // namespace dynapage
