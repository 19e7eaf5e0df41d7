#include "server/http/request_framing.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "server/http/answer_text.h"

namespace dynapage {

bool EqualsIgnoringCase(std::string_view text, const char* lower, size_t lower_size) {
  if (text.size() != lower_size) return false;
  for (size_t i = 0; i < lower_size; i++) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

namespace {

bool HasWhitespace(const std::string& name) {
  for (char c : name) {
    if (c == ' ' || c == '\t') return true;
  }
  return false;
}

bool AllDigits(const std::string& s) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

FramingState& CurrentFraming() {
  thread_local FramingState state;
  return state;
}

void ReadRequestHeaders(const httplib::Headers& headers, HttpRequestView* request) {
  bool have_type = false, have_target = false, have_authorization = false, have_host = false, have_origin = false;
  for (const auto& [name, value] : headers) {
    if (!have_type && EqualsIgnoringCase(name, "content-type", 12)) {
      request->content_type = value;
      have_type = true;
    } else if (!have_target && EqualsIgnoringCase(name, "x-amz-target", 12)) {
      request->target = value;
      have_target = true;
    } else if (!have_authorization && EqualsIgnoringCase(name, "authorization", 13)) {
      request->authorization = value;
      have_authorization = true;
    } else if (!have_host && EqualsIgnoringCase(name, "host", 4)) {
      request->host = value;
      have_host = true;
    } else if (!have_origin && EqualsIgnoringCase(name, "origin", 6)) {
      request->origin = value;
      have_origin = true;
    } else if (EqualsIgnoringCase(name, "x-amz-date", 10) || EqualsIgnoringCase(name, "date", 4)) {
      request->has_amz_date = true;
    }
  }
}

void CheckFraming(httplib::Request& req) {
  FramingState& x = CurrentFraming();
  const std::string* length = nullptr;
  const std::string* encoding = nullptr;
  int lengths = 0, transfer_encodings = 0, content_encodings = 0;
  for (const auto& [name, value] : req.headers) {
    // RFC 9112 §5.1: no whitespace between a field name and its colon (cpp-httplib keeps it in the name), and none
    // before the name (an obsolete line folding, §5.2).
    if (HasWhitespace(name)) {
      x.refusal_status = 400;
      x.refusal = "Whitespace in a header field name or before its colon";
      return;
    }
    // Cheap filters first: these three names have lengths 14, 16 and 17.
    if (name.size() == 14 && EqualsIgnoringCase(name, "content-length", 14)) {
      if (length && *length != value) {
        x.refusal_status = 400;
        x.refusal = "Conflicting Content-Length headers";
        return;
      }
      length = &value;
      lengths++;
    } else if (name.size() == 17 && EqualsIgnoringCase(name, "transfer-encoding", 17)) {
      transfer_encodings++;
      if (!(value.size() == 7 && EqualsIgnoringCase(value, "chunked", 7)) || transfer_encodings > 1) {
        x.refusal_status = 400;
        x.refusal = "Unsupported Transfer-Encoding: only chunked is accepted";
        return;
      }
    } else if (name.size() == 16 && EqualsIgnoringCase(name, "content-encoding", 16)) {
      encoding = &value;
      content_encodings++;
    }
  }
  if (length && transfer_encodings > 0) {
    x.refusal_status = 400;
    x.refusal = "A request may not have both Content-Length and Transfer-Encoding";
    return;
  }
  if (length && !AllDigits(*length)) {
    x.refusal_status = 400;
    x.refusal = "Invalid Content-Length";
    return;
  }
  if (length && std::strtoull(length->c_str(), nullptr, 10) > kMaxRequestBytes) {
    x.refusal_status = 413;
    return;
  }
  if (encoding) {
    x.encoding = content_encodings == 1 ? ParseContentEncoding(*encoding) : ContentEncoding::kUnknown;
    if (x.encoding == ContentEncoding::kUnknown) {
      x.refusal_status = 400;
      x.refusal = "Unsupported Content-Encoding: gzip, deflate and identity are accepted";
      return;
    }
    req.headers.erase("Content-Encoding");
  }
  if (!length && transfer_encodings == 0) req.headers.emplace("Content-Length", "0");
}

// Stops at end of stream, after kLingerIdle without data, after kLingerBytes or after kLingerTime.
void CloseLingering(int sock) {
  constexpr auto kLingerTime = std::chrono::seconds(2);
  constexpr int kLingerIdleMs = 100;
  constexpr size_t kLingerBytes = 64 * 1024 * 1024;
  ::shutdown(sock, SHUT_WR);
  auto deadline = std::chrono::steady_clock::now() + kLingerTime;
  size_t discarded = 0;
  char buffer[64 * 1024];
  while (discarded < kLingerBytes && std::chrono::steady_clock::now() < deadline) {
    pollfd fd{sock, POLLIN, 0};
    if (::poll(&fd, 1, kLingerIdleMs) <= 0) break;
    ssize_t n = ::recv(sock, buffer, sizeof(buffer), MSG_DONTWAIT);
    if (n <= 0) break;
    discarded += static_cast<size_t>(n);
  }
  ::close(sock);
}

void SendBestEffort(int sock, const std::string& text) {
  size_t sent = 0;
  while (sent < text.size()) {
    ssize_t n = ::send(sock, text.data() + sent, text.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

}  // namespace dynapage
