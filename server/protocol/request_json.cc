#include "server/protocol/request_json.h"

#include "engine/base/byte_scan.h"
#include "engine/base/utf8.h"

namespace dynapage {

namespace {

// A byte that JSON never allows raw but that RapidJSON would let pass: NUL, which it takes for the end of the
// text, and 0x1A..0x1F, which its 16-byte string scan (RapidJSON 1.1.0) takes for ordinary characters (the other
// control characters it refuses itself).
bool IsMisreadByte(unsigned char c) { return c == 0 || (c >= 0x1A && c <= 0x1F); }

// What one pass over a body finds, 16 bytes at a time where SSE2 is there: every body is scanned, and three
// passes cost three times one.
struct BodyScan {
  bool misread_byte = false;  // a byte of IsMisreadByte
  bool ascii = true;          // every byte < 0x80 (then it is valid UTF-8)
  size_t brackets = 0;        // '{' and '[' bytes: at least the depth to which the JSON can nest
};

BodyScan Scan(std::string_view body) {
  BodyScan scan;
  const char* p = body.data();
  size_t n = body.size();
  size_t i = 0;
#if defined(__SSE2__)
  int high = 0;
  const __m128i sign = _mm_set1_epi8(static_cast<char>(0x80));
  const __m128i below_space = _mm_set1_epi8(static_cast<char>(0x20 ^ 0x80));
  const __m128i case_bit = _mm_set1_epi8(0x20);
  const __m128i open_brace = _mm_set1_epi8('{');
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    // Control bytes are rare (a pretty-printed body's line breaks and tabs): one signed compare finds whether the
    // block has any (bytes below 0x20), and only then are they told apart.
    __m128i control = _mm_cmplt_epi8(_mm_xor_si128(v, sign), below_space);
    if (_mm_movemask_epi8(control) != 0) {
      __m128i misread = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_setzero_si128()), BytesInRange(v, 0x1A, 0x1F));
      if (_mm_movemask_epi8(misread) != 0) {
        scan.misread_byte = true;
        return scan;
      }
    }
    high |= _mm_movemask_epi8(v);
    // '[' (0x5B) and '{' (0x7B) differ only in bit 0x20, which no other byte sets to make either.
    __m128i open = _mm_cmpeq_epi8(_mm_or_si128(v, case_bit), open_brace);
    // Brackets are few, and x86-64's baseline has no popcount instruction: one step per bracket found.
    for (unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(open)); mask != 0; mask &= mask - 1) scan.brackets++;
  }
  scan.ascii = high == 0;
#endif
  for (; i < n; i++) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    if (IsMisreadByte(c)) {
      scan.misread_byte = true;
      return scan;
    }
    if (c >= 0x80) scan.ascii = false;
    if (c == '{' || c == '[') scan.brackets++;
  }
  return scan;
}

// RapidJSON's recursive parse takes a few hundred bytes of stack per level of nesting, and overflows a thread's
// stack at ~131,000 levels; its iterative parse keeps its state on the heap, at any depth, but costs ~2,000 more
// instructions for a 1 KB PutItem (~10% of the parse). A body with at most this many brackets cannot nest deeper,
// and is parsed recursively; any other iteratively.
constexpr size_t kMaxBracketsParsedRecursively = 2000;

}  // namespace

bool ParseRequestJson(std::string_view body, std::string* text, rapidjson::Document* document) {
  BodyScan scan = Scan(body);
  if (scan.misread_byte) return false;
  // Outside strings JSON is ASCII, so the whole body is checked for text that is not UTF-8: raw bytes, and \u
  // escapes of a lone surrogate (ASCII themselves, but RapidJSON decodes a lone \uDC00 into bytes that are not
  // UTF-8).
  if ((!scan.ascii && !IsValidUtf8(body)) || HasLoneSurrogateEscape(body)) return false;
  text->assign(body.data(), body.size());
  // In place: strings are not copied again, and are scanned 16 bytes at a time.
  if (scan.brackets <= kMaxBracketsParsedRecursively) {
    document->ParseInsitu(&(*text)[0]);
  } else {
    document->ParseInsitu<rapidjson::kParseIterativeFlag>(&(*text)[0]);
  }
  return !document->HasParseError() && document->IsObject();
}

}  // namespace dynapage
