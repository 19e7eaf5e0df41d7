#include "server/http/direct_head.h"

#include <cstdint>
#include <cstring>

#include "engine/base/byte_scan.h"
#include "server/http/request_framing.h"

namespace dynapage {

namespace {

constexpr size_t kMaxHeaders = 100;      // cpp-httplib's CPPHTTPLIB_HEADER_MAX_COUNT
constexpr size_t kMaxHeaderLine = 8192;  // cpp-httplib's CPPHTTPLIB_HEADER_MAX_LENGTH
constexpr size_t kMaxLengthDigits = 19;

// RFC 9110 §5.6.2: tchar, as a table made at compile time (a table made at first use cost a guard check for each
// byte of each header name, ~250 instructions of a no-op request).
struct TokenTable {
  bool is_token[256] = {};
  constexpr TokenTable() {
    for (int c = '0'; c <= '9'; c++) is_token[c] = true;
    for (int c = 'a'; c <= 'z'; c++) is_token[c] = is_token[c - 'a' + 'A'] = true;
    for (const char* p = "!#$%&'*+-.^_`|~"; *p; p++) is_token[static_cast<unsigned char>(*p)] = true;
  }
};
constexpr TokenTable kTokenTable;

bool IsTokenChar(unsigned char c) { return kTokenTable.is_token[c]; }

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

// Whether a and b, T-sized words of name and lower, are equal when a's letters are lower-cased (see NameIs).
template <typename T>
bool WordIs(const char* a, const char* b) {
  T x, y;
  std::memcpy(&x, a, sizeof(T));
  std::memcpy(&y, b, sizeof(T));
  return (x | static_cast<T>(0x2020202020202020ULL)) == y;
}

// Whether name, a header name (token characters, RFC 9110 §5.6.2), is lower in any case; lower is lower-case
// letters, digits and '-'. Setting bit 0x20 lower-cases a letter and leaves digits and '-' as they are, and maps no
// other token character onto one of lower's (only control bytes): so a name compares a word at a time, where a
// byte at a time was ~5% of a no-op request.
template <size_t N>
bool NameIs(std::string_view name, const char (&lower)[N]) {
  constexpr size_t n = N - 1;
  static_assert(n >= 4, "a name of at least 4 characters");
  if (name.size() != n) return false;
  const char* p = name.data();
  if (n < 8) return WordIs<uint32_t>(p, lower) && WordIs<uint32_t>(p + n - 4, lower + n - 4);
  for (size_t i = 0; i + 8 < n; i += 8) {
    if (!WordIs<uint64_t>(p + i, lower + i)) return false;
  }
  return WordIs<uint64_t>(p + n - 8, lower + n - 8);  // the last 8 bytes, overlapping the words before
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

size_t FindHeadEnd(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  // Whether the '\n' at `at` closes "\r\n\r\n".
  auto closes_head = [p](size_t at) { return at >= 3 && p[at - 1] == '\r' && p[at - 2] == '\n' && p[at - 3] == '\r'; };
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i line_feed = _mm_set1_epi8('\n');
  for (; i + 16 <= n; i += 16) {
    __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    for (unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, line_feed))); mask != 0;
         mask &= mask - 1) {
      size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
      if (closes_head(at)) return at - 3;
    }
  }
#endif
  for (; i < n; i++) {
    if (p[i] == '\n' && closes_head(i)) return i - 3;
  }
  return std::string_view::npos;
}

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
