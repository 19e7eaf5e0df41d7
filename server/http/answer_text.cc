#include "server/http/answer_text.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>

#include "engine/base/check.h"
#include "engine/base/random_seed.h"
#include "engine/base/utc_time.h"

namespace dynapage {

namespace {

constexpr char kIdAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr size_t kIdBase = sizeof(kIdAlphabet) - 1;

bool IsIdCharacter(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }

}  // namespace

RequestId RequestId::Random() {
  RequestId id;
  // One character from each byte of a draw, by a multiply and a shift instead of a division. (A byte maps to 36
  // characters unevenly, 8 or 7 bytes each: an id need be unique, not uniform.)
  std::mt19937_64 rng(RandomSeed());
  for (size_t i = 0; i < kLength; i += 8) {
    uint64_t bits = rng();
    for (size_t j = i; j < i + 8 && j < kLength; j++, bits >>= 8) {
      id.text_[j] = kIdAlphabet[((bits & 0xFF) * kIdBase) >> 8];
    }
  }
  return id;
}

RequestId RequestId::FromText(std::string_view text) {
  DP_DCHECK(text.size() == kLength && std::all_of(text.begin(), text.end(), IsIdCharacter));
  RequestId id;
  std::memcpy(id.text_, text.data(), kLength);
  return id;
}

RequestId RequestId::Next() const {
  RequestId next = *this;
  for (size_t i = kLength; i-- > 0;) {
    char c = next.text_[i];
    size_t value = static_cast<size_t>(c <= '9' ? c - '0' : c - 'A' + 10) + 1;
    next.text_[i] = kIdAlphabet[value % kIdBase];
    if (value < kIdBase) break;  // no carry
  }
  return next;
}

RequestId NewRequestId() {
  thread_local RequestId last = RequestId::Random();
  last = last.Next();
  return last;
}

const std::string& DateHeaderLine() {
  static constexpr char kWeekdays[][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr char kMonths[][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  thread_local time_t formatted_at = -1;
  thread_local std::string line;
  time_t now = std::time(nullptr);
  if (now != formatted_at) {
    // Not gmtime_r + strftime: glibc's first gmtime_r reads /etc/localtime, on the server's first answer.
    const UtcTime t = UtcTimeOfMillis(static_cast<int64_t>(now) * 1000);
    char text[64];
    int n = std::snprintf(text, sizeof(text), "Date: %s, %02d %s %04lld %02d:%02d:%02d GMT\r\n", kWeekdays[t.weekday],
                          t.day, kMonths[t.month - 1], static_cast<long long>(t.year), t.hour, t.minute, t.second);
    line.assign(text, n > 0 ? static_cast<size_t>(n) : 0);
    formatted_at = now;
  }
  return line;
}

std::string RefusalBody(int status, const char* reason) {
  std::string type, message;
  const char* message_key = "message";
  if (status == 413) {
    type = "com.amazon.coral.service#RequestEntityTooLargeException";
    message = "Request size exceeds " + std::to_string(kMaxRequestBytes) + " bytes";
  } else if (status == 503) {
    type = "com.amazon.coral.service#ServiceUnavailableException";
    message = reason ? reason : "The server is shutting down";
  } else {
    type = "com.amazon.coral.service#SerializationException";
    message = reason ? reason : "Malformed HTTP request";
    message_key = "Message";  // SerializationException's spelling (docs/behaviour.md §8.3)
  }
  return R"({"__type":")" + type + R"(",")" + message_key + R"(":")" + message + R"("})";
}

bool OriginAllowed(const std::vector<std::string>& origins, std::string_view origin) {
  for (const std::string& allowed : origins) {
    if (allowed == "*" || allowed == origin) return true;
  }
  return false;
}

std::string ClosingAnswer(int status, const char* reason) {
  DP_DCHECK(status == 400 || status == 503);
  std::string body = RefusalBody(status, reason);
  const char* status_line = status == 503 ? "HTTP/1.1 503 Service Unavailable" : "HTTP/1.1 400 Bad Request";
  return status_line + std::string("\r\nConnection: close\r\nContent-Type: ") + kJsonType +
         "\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nx-amzn-RequestId: " + std::string(NewRequestId().view()) +
         "\r\nx-amz-crc32: " + std::to_string(libdeflate_crc32(0, body.data(), body.size())) + "\r\n" +
         DateHeaderLine() + "\r\n" + body;
}

std::string OverLimitAnswer(size_t max_connections) {
  return ClosingAnswer(503, ("Too many open connections: this server accepts at most " +
                             std::to_string(max_connections) + " (--max-connections)")
                                .c_str());
}

}  // namespace dynapage
