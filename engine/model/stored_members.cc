#include "engine/model/stored_members.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dynapage {

namespace {

// The first '"' or '\\' in [p, end), or end. Strings are most of an item's bytes (a payload of 150 bytes in the
// benchmark's items), so they are crossed 16 bytes at a time where SSE2 is there, never reading past end.
const char* FindQuoteOrBackslash(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  for (; end - p >= 16; p += 16) {
    __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    int mask = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
  }
#endif
  for (; p < end; p++) {
    if (*p == '"' || *p == '\\') return p;
  }
  return end;
}

// REQUIRES: p is just past a string's opening quote. The position just past its closing quote, or end.
const char* SkipStringBody(const char* p, const char* end) {
  while (true) {
    p = FindQuoteOrBackslash(p, end);
    if (p == end) return end;
    if (*p == '"') return p + 1;
    p += 2;  // an escape: its next byte is never the closing quote
    if (p >= end) return end;
  }
}

// REQUIRES: p is at a member's value. The position of the ',' or '}' that ends it (depth 0), or end.
const char* SkipValue(const char* p, const char* end) {
  size_t depth = 0;
  while (p < end) {
    char c = *p;
    if (c == '"') {
      p = SkipStringBody(p + 1, end);
      continue;
    }
    if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return p;
      depth--;
    } else if (c == ',' && depth == 0) {
      return p;
    }
    p++;
  }
  return end;
}

}  // namespace

bool SelectStoredMembers(std::string_view json, const std::vector<std::string>& names, std::string* out) {
  const char* p = json.data();
  const char* end = p + json.size();
  out->assign(1, '{');
  if (p == end || *p != '{') return false;
  p++;
  if (p < end && *p == '}') {
    out->push_back('}');
    return p + 1 == end;
  }
  size_t found = 0;
  while (true) {
    if (p == end || *p != '"') return false;
    const char* name_begin = p + 1;
    const char* name_end = FindQuoteOrBackslash(name_begin, end);
    if (name_end == end || *name_end != '"') return false;  // cut short, or an escaped name
    std::string_view name(name_begin, name_end - name_begin);
    p = name_end + 1;
    if (p == end || *p != ':') return false;
    const char* value_begin = p + 1;
    p = SkipValue(value_begin, end);
    if (p == end || p == value_begin) return false;
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      if (found++ > 0) out->push_back(',');
      out->append(name_begin - 1, p - (name_begin - 1));  // "name":value
      if (found == names.size()) break;  // the rest is not read
    }
    if (*p == '}') break;
    p++;  // ','
  }
  out->push_back('}');
  return found == names.size() || p + 1 == end;
}

}  // namespace dynapage
