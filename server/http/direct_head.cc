#include "server/http/direct_head.h"

#include <cstring>

#include "engine/base/byte_scan.h"
#include "server/http/request_framing.h"

namespace dynapage {

namespace {

constexpr size_t kMaxHeaders = 100;      // cpp-httplib's CPPHTTPLIB_HEADER_MAX_COUNT
constexpr size_t kMaxHeaderLine = 8192;  // cpp-httplib's CPPHTTPLIB_HEADER_MAX_LENGTH
constexpr size_t kMaxLengthDigits = 19;

// RFC 9110 §5.6.2: tchar.
bool IsTokenChar(unsigned char c) {
  static const bool* table = [] {
    static bool t[256] = {};
    for (int c = '0'; c <= '9'; c++) t[c] = true;
    for (int c = 'a'; c <= 'z'; c++) t[c] = t[c - 'a' + 'A'] = true;
    for (const char* p = "!#$%&'*+-.^_`|~"; *p; p++) t[static_cast<unsigned char>(*p)] = true;
    return t;
  }();
  return table[c];
}

// RFC 9110 §5.5 field-content, as cpp-httplib's is_field_value: visible characters, obs-text, space and tab. A
// value is checked 16 bytes at a time for any other byte (control bytes but tab, and DEL): a signed request's
// Authorization value alone is ~200 bytes, which a byte at a time was most of a no-op request's head parse.
struct NotFieldValueByte {
  static bool Byte(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7F; }
#if defined(__SSE2__)
  static __m128i Block(__m128i v) {
    __m128i control = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), BytesInRange(v, 0x00, 0x1F));
    return _mm_or_si128(control, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
  }
#endif
};

// name (ASCII letters in any case) equals lower, which is lower-case.
template <size_t N>
bool NameIs(std::string_view name, const char (&lower)[N]) {
  return EqualsIgnoringCase(name, lower, N - 1);
}

bool ParseLength(std::string_view text, size_t* out) {
  if (text.empty() || text.size() > kMaxLengthDigits) return false;
  unsigned long long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > kMaxRequestBytes) return false;
  *out = static_cast<size_t>(value);
  return true;
}

}  // namespace

bool ParseDirectHead(std::string_view head, DirectHead* out) {
  static constexpr std::string_view kRequestLine = "POST / HTTP/1.1\r\n";
  if (head.size() < kRequestLine.size() + 2 || head.substr(0, kRequestLine.size()) != kRequestLine) return false;
  *out = DirectHead();
  HttpRequestView& request = out->request;
  request.method = head.substr(0, 4);
  request.path = head.substr(5, 1);
  std::string_view length_text;
  bool have_length = false, have_host = false, have_type = false, have_target = false, have_authorization = false;
  bool have_connection = false;
  size_t headers = 0;
  size_t at = kRequestLine.size();
  const size_t end = head.size() - 2;  // the blank line's CRLF
  while (at < end) {
    const char* line = head.data() + at;
    const void* cr = std::memchr(line, '\r', end - at);
    if (!cr) return false;
    size_t line_size = static_cast<size_t>(static_cast<const char*>(cr) - line);
    if (line[line_size + 1] != '\n' || line_size >= kMaxHeaderLine || ++headers > kMaxHeaders) return false;
    size_t colon = 0;
    while (colon < line_size && IsTokenChar(static_cast<unsigned char>(line[colon]))) colon++;
    if (colon == 0 || colon == line_size || line[colon] != ':') return false;
    std::string_view name(line, colon);
    size_t value_begin = colon + 1, value_end = line_size;
    if (AnyByteOf<NotFieldValueByte>(std::string_view(line + value_begin, value_end - value_begin))) return false;
    while (value_begin < value_end && (line[value_begin] == ' ' || line[value_begin] == '\t')) value_begin++;
    while (value_end > value_begin && (line[value_end - 1] == ' ' || line[value_end - 1] == '\t')) value_end--;
    std::string_view value(line + value_begin, value_end - value_begin);
    at += line_size + 2;
    switch (name.size()) {
      case 4:
        if (!have_host && NameIs(name, "host")) {
          request.host = value;
          have_host = true;
        } else if (NameIs(name, "date")) {
          request.has_amz_date = true;
        }
        break;
      case 5:
        if (NameIs(name, "range")) return false;
        break;
      case 6:
        if (NameIs(name, "expect") || NameIs(name, "origin")) return false;
        break;
      case 10:
        if (NameIs(name, "x-amz-date")) {
          request.has_amz_date = true;
        } else if (!have_connection && NameIs(name, "connection")) {
          out->close_connection = value == "close";
          have_connection = true;
        }
        break;
      case 12:
        if (NameIs(name, "content-type")) {
          // cpp-httplib reads these bodies itself (and refuses a multipart body without a boundary).
          if (value.find("multipart/form-data") != std::string_view::npos ||
              value.find("application/x-www-form-urlencoded") != std::string_view::npos) {
            return false;
          }
          if (!have_type) request.content_type = value;
          have_type = true;
        } else if (!have_target && NameIs(name, "x-amz-target")) {
          request.target = value;
          have_target = true;
        }
        break;
      case 13:
        if (!have_authorization && NameIs(name, "authorization")) {
          request.authorization = value;
          have_authorization = true;
        }
        break;
      case 14:
        if (NameIs(name, "content-length")) {
          if (have_length && value != length_text) return false;
          length_text = value;
          have_length = true;
        }
        break;
      case 16:
        if (NameIs(name, "content-encoding")) return false;
        break;
      case 17:
        if (NameIs(name, "transfer-encoding")) return false;
        break;
      default:
        break;
    }
  }
  return at == end && have_host && have_length && ParseLength(length_text, &out->content_length);
}

}  // namespace dynapage
