#include "engine/model/stored_members.h"

#include <algorithm>
#include <cstdint>

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

// Whether p starts the writer's S or N up to its text: {"S":" or {"N":".
inline bool AtTypedString(const char* p, const char* end) {
  return end - p >= 6 && p[0] == '{' && p[1] == '"' && (p[2] == 'S' || p[2] == 'N') && p[3] == '"' && p[4] == ':' &&
         p[5] == '"';
}

// REQUIRES: p is at a member's value. The position of the ',' or '}' that ends it (depth 0), or end.
const char* SkipValue(const char* p, const char* end) {
  size_t depth = 0;
  // Most values are an S or an N, {"S":"text"}: crossed as the loop below would cross them, but with one search
  // for the end of the text instead of a step a byte for each of their brackets, quotes and colon.
  if (AtTypedString(p, end)) {
    const char* after_text = SkipStringBody(p + 6, end);
    if (after_text != end && *after_text == '}') p = after_text + 1;
  }
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

// Calls visit(index in names, "name":value) for each member of json named in names, in json's order, and stops
// at the last one; false where the text is not of the writer's shape, or a name holds an escape, or visit
// returned false.
template <typename Visit>
bool VisitStoredMembers(std::string_view json, const std::vector<std::string>& names, Visit visit) {
  const char* p = json.data();
  const char* end = p + json.size();
  if (p == end || *p != '{') return false;
  p++;
  if (p < end && *p == '}') return p + 1 == end;
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
    auto needed = std::find(names.begin(), names.end(), name);
    if (needed != names.end()) {
      found++;
      if (!visit(static_cast<size_t>(needed - names.begin()), std::string_view(name_begin - 1, p - (name_begin - 1)),
                 std::string_view(value_begin, p - value_begin))) {
        return false;
      }
      if (found == names.size()) return true;  // the rest is not read
    }
    if (*p == '}') return p + 1 == end;
    p++;  // ','
  }
}

// value as the writer writes a scalar: {"S":"text"} or {"N":"text"} with no escape in text, {"BOOL":true},
// {"BOOL":false} or {"NULL":true}. False for any other value.
bool DecodeScalar(std::string_view value, AttributeValue* out) {
  constexpr std::string_view kTrue = "{\"BOOL\":true}", kFalse = "{\"BOOL\":false}", kNull = "{\"NULL\":true}";
  AttrType type;
  std::string_view text;
  bool boolean = true;
  if (value.size() >= 8 && AtTypedString(value.data(), value.data() + value.size()) && value[value.size() - 2] == '"' &&
      value.back() == '}') {
    type = value[2] == 'S' ? AttrType::kS : AttrType::kN;
    text = value.substr(6, value.size() - 8);
    if (FindQuoteOrBackslash(text.data(), text.data() + text.size()) != text.data() + text.size()) return false;
  } else if (value == kTrue || value == kFalse) {
    type = AttrType::kBool;
    boolean = value == kTrue;
  } else if (value == kNull) {
    type = AttrType::kNull;
  } else {
    return false;
  }
  out->type = type;
  out->scalar.assign(text.data(), text.size());
  out->boolean = boolean;
  out->list.clear();
  out->map.clear();
  out->set.clear();
  return true;
}

}  // namespace

bool SelectStoredMembers(std::string_view json, const std::vector<std::string>& names, std::string* out) {
  out->assign(1, '{');
  bool whole = VisitStoredMembers(json, names, [out](size_t, std::string_view member, std::string_view) {
    if (out->size() > 1) out->push_back(',');
    out->append(member);
    return true;
  });
  out->push_back('}');
  return whole;
}

bool DecodeStoredScalarMembers(std::string_view json, const std::vector<std::string>& names, AttributeMap* out) {
  if (names.size() > 64) return false;
  uint64_t found = 0;
  bool whole = VisitStoredMembers(json, names, [&](size_t index, std::string_view, std::string_view value) {
    found |= uint64_t{1} << index;
    auto at = out->find(names[index]);
    if (at == out->end()) at = out->emplace(names[index], AttributeValue()).first;
    return DecodeScalar(value, &at->second);
  });
  if (!whole) return false;
  for (size_t i = 0; i < names.size(); i++) {
    if ((found & (uint64_t{1} << i)) == 0) out->erase(names[i]);
  }
  return true;
}

}  // namespace dynapage
