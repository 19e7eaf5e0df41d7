#include "engine/base/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstring>

#include "engine/base/check.h"

namespace dynapage {

namespace {

// The length of the valid UTF-8 sequence starting at p[0] (a byte >= 0x80), or 0 if there is none.
// REQUIRES: n >= 1.
size_t MultiByteSequenceLength(const unsigned char* p, size_t n) {
  unsigned char c = p[0];
  auto continuation = [&](size_t i) { return i < n && (p[i] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return continuation(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (n < 2) return 0;
    unsigned char c1 = p[1];
    if (c == 0xE0 && c1 < 0xA0) return 0;  // overlong
    if (c == 0xED && c1 > 0x9F) return 0;  // a surrogate
    return continuation(1) && continuation(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (n < 2) return 0;
    unsigned char c1 = p[1];
    if (c == 0xF0 && c1 < 0x90) return 0;  // overlong
    if (c == 0xF4 && c1 > 0x8F) return 0;  // above U+10FFFF
    return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;  // a continuation byte, an overlong lead (0xC0, 0xC1) or 0xF5..0xFF
}

// The number of ASCII bytes at the start of p[0..n).
size_t AsciiPrefixLength(const unsigned char* p, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    int high = _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
    if (high != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(high)));
  }
#endif
  while (i < n && p[i] < 0x80) i++;
  return i;
}

// The value of the four hex digits at p, or -1.
int HexQuad(const char* p) {
  int value = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    int digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return -1;
    }
    value = value * 16 + digit;
  }
  return value;
}

bool IsHighSurrogate(int u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLowSurrogate(int u) { return u >= 0xDC00 && u <= 0xDFFF; }

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  size_t i = 0;
  while (true) {
    i += AsciiPrefixLength(p + i, n - i);
    if (i == n) return true;
    size_t length = MultiByteSequenceLength(p + i, n - i);
    if (length == 0) return false;
    i += length;
  }
}

bool HasLoneSurrogateEscape(std::string_view json) {
  const char* p = json.data();
  size_t n = json.size();
  size_t i = 0;
  while (true) {
    const void* found = std::memchr(p + i, '\\', n - i);
    if (found == nullptr) return false;
    i = static_cast<size_t>(static_cast<const char*>(found) - p);
    if (i + 1 >= n) return false;  // a trailing backslash: not JSON, the parser refuses it
    if (p[i + 1] != 'u' || i + 6 > n) {
      i += 2;  // an escape of one character (or a truncated \u, which the parser refuses)
      continue;
    }
    int unit = HexQuad(p + i + 2);
    i += 6;
    if (IsLowSurrogate(unit)) return true;
    if (!IsHighSurrogate(unit)) continue;
    if (i + 6 > n || p[i] != '\\' || p[i + 1] != 'u' || !IsLowSurrogate(HexQuad(p + i + 2))) return true;
    i += 6;
  }
}

std::string_view Utf8CharacterAt(std::string_view text, size_t i) {
  DP_DCHECK(i < text.size());
  unsigned char lead = static_cast<unsigned char>(text[i]);
  size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  return text.substr(i, length);
}

std::string ToValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    size_t ascii = AsciiPrefixLength(p + i, n - i);
    out.append(text.data() + i, ascii);
    i += ascii;
    if (i == n) break;
    size_t length = MultiByteSequenceLength(p + i, n - i);
    if (length == 0) {
      out.push_back('?');
      i++;
    } else {
      out.append(text.data() + i, length);
      i += length;
    }
  }
  return out;
}

}  // namespace dynapage
