#include "server/http/answer_text.h"

#include <libdeflate.h>

#include <cstdint>
#include <ctime>
#include <random>

#include "engine/base/check.h"

namespace dynapage {

std::string NewRequestId() {
  static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string id(52, '0');
  // One character from each byte of a draw, by a multiply and a shift instead of a division: seven draws.
  // (A byte maps to 36 characters unevenly, 8 or 7 bytes each: an id need be unique, not uniform.)
  for (size_t i = 0; i < id.size(); i += 8) {
    uint64_t bits = rng();
    for (size_t j = i; j < i + 8 && j < id.size(); j++, bits >>= 8) id[j] = kAlphabet[((bits & 0xFF) * 36) >> 8];
  }
  return id;
}

const std::string& DateHeaderLine() {
  thread_local time_t formatted_at = -1;
  thread_local std::string line;
  time_t now = std::time(nullptr);
  if (now != formatted_at) {
    tm parts;
    gmtime_r(&now, &parts);
    char text[64];
    size_t n = std::strftime(text, sizeof(text), "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts);
    line.assign(text, n);
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
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nx-amzn-RequestId: " + NewRequestId() +
         "\r\nx-amz-crc32: " + std::to_string(libdeflate_crc32(0, body.data(), body.size())) + "\r\n" +
         DateHeaderLine() + "\r\n" + body;
}

std::string OverLimitAnswer(size_t max_connections) {
  return ClosingAnswer(503, ("Too many open connections: this server accepts at most " +
                             std::to_string(max_connections) + " (--max-connections)")
                                .c_str());
}

}  // namespace dynapage
