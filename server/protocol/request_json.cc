#include "server/protocol/request_json.h"

#include "engine/base/byte_scan.h"
#include "engine/base/utf8.h"

namespace dynapage {

namespace {

// True if body holds a byte that JSON never allows raw but that RapidJSON would let pass: NUL, which it takes for
// the end of the text, and 0x1A..0x1F, which its 16-byte string scan (RapidJSON 1.1.0) takes for ordinary
// characters (the other control characters it refuses itself).
struct MisreadByte {
  static bool Byte(unsigned char c) { return c == 0 || (c >= 0x1A && c <= 0x1F); }
#if defined(__SSE2__)
  static __m128i Block(__m128i v) {
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_setzero_si128()), BytesInRange(v, 0x1A, 0x1F));
  }
#endif
};

// True if the body's strings, once parsed, could hold text that is not valid UTF-8: raw bytes that are not UTF-8
// (outside strings JSON is ASCII, so the whole body is checked, ASCII 16 bytes at a time), or an escaped lone
// surrogate (ASCII itself, but RapidJSON decodes a lone \uDC00 into bytes that are not UTF-8).
bool HasTextThatIsNotUtf8(std::string_view body) { return !IsValidUtf8(body) || HasLoneSurrogateEscape(body); }

// RapidJSON's iterative parse: the nesting depth of the body costs heap, never stack. (The default parse recurses
// once per level and overflows the stack at ~131,000 levels.) In place: strings are not copied again, and are
// scanned 16 bytes at a time.
constexpr unsigned kRequestParseFlags = rapidjson::kParseIterativeFlag;

}  // namespace

bool ParseRequestJson(std::string_view body, std::string* text, rapidjson::Document* document) {
  if (AnyByteOf<MisreadByte>(body) || HasTextThatIsNotUtf8(body)) return false;
  text->assign(body.data(), body.size());
  document->ParseInsitu<kRequestParseFlags>(&(*text)[0]);
  return !document->HasParseError() && document->IsObject();
}

}  // namespace dynapage
