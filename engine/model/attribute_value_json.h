// The JSON form of AttributeValues and items: {"S":"x"}, {"N":"1"}, {"B":"<base64>"}, {"L":[…]}, {"M":{…}}, …
//
// Decoding from a request validates like DynamoDB (docs/behaviour.md §8.6, §8.7): JSON type errors first
// (Serialization), then the value rules (Validation) in DynamoDB's order, with exact messages. Numbers are
// canonicalised. Encoding writes the canonical form; the storage layer keeps items in exactly this form so that a page
// of results can be copied into a response without re-encoding.

#ifndef DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_JSON_H_
#define DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_JSON_H_

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/byte_scan.h"
#include "engine/base/status.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

// RapidJSON's writer, with strings escaped correctly and quickly, and a way to copy an already-encoded value (a
// stored item) into the output as one block: Writer::RawValue copies it a byte at a time. Every JSON dynapage
// writes goes through it.
class JsonWriter : public rapidjson::Writer<rapidjson::StringBuffer> {
  using Base = rapidjson::Writer<rapidjson::StringBuffer>;

 public:
  using Base::Base;

  // Base::String and Base::Key in all their forms, escaping as they do but correctly (see WriteQuoted), and
  // quicker: text that needs no escaping (attribute names, keys, numbers, most strings) is copied in one
  // piece, where RapidJSON writes a byte at a time every byte its 16-byte scan does not cover (all of a short
  // string, the ends of a long one).
  bool String(const Ch* str, rapidjson::SizeType length, bool copy = false) {
    (void)copy;
    Prefix(rapidjson::kStringType);
    WriteQuoted(std::string_view(str, length));
    return EndValue(true);
  }
  bool String(const std::string& str) { return String(str.data(), static_cast<rapidjson::SizeType>(str.size())); }
  bool String(const Ch* const& str) { return String(str, static_cast<rapidjson::SizeType>(std::strlen(str))); }
  bool Key(const Ch* str, rapidjson::SizeType length, bool copy = false) { return String(str, length, copy); }
  bool Key(const std::string& str) { return String(str); }
  bool Key(const Ch* const& str) { return String(str); }

  // REQUIRES: json is one complete JSON value of the given type.
  void RawJson(std::string_view json, rapidjson::Type type) {
    Prefix(type);
    std::memcpy(os_->Push(json.size()), json.data(), json.size());
    EndValue(true);
  }

  // Writes one complete JSON value of the given type and of exactly size bytes, which fill(char* out) writes at
  // out: a caller that knows the whole value's bytes writes them in one piece, without the bookkeeping of a
  // value at a time. REQUIRES: fill writes size bytes that are one JSON value of that type.
  template <typename Fill>
  void RawJsonOfSize(size_t size, rapidjson::Type type, Fill fill) {
    Prefix(type);
    fill(os_->Push(size));
    EndValue(true);
  }

  // Writes the object {"<name>":"<text>"} as one value, text escaped as String() escapes it. The same output as
  // StartObject, Key, String and EndObject, whose bookkeeping (four prefixes, a level pushed and popped) costs
  // more than the bytes of a short value. REQUIRES: name needs no escaping (an AttributeValue type name).
  void SingleStringMemberObject(std::string_view name, std::string_view text) {
    Prefix(rapidjson::kObjectType);
    char* open = os_->Push(name.size() + 4);
    open[0] = '{';
    open[1] = '"';
    std::memcpy(open + 2, name.data(), name.size());
    open[name.size() + 2] = '"';
    open[name.size() + 3] = ':';
    WriteQuoted(text);
    os_->Put('}');
    EndValue(true);
  }

  // Makes room for bytes more of output at once, for a caller that expects that much (a page of items):
  // growing the buffer a step at a time copies it at every step.
  void Reserve(size_t bytes) { os_->Reserve(bytes); }

  // True if a byte of text must be escaped in a JSON string: a control character, '"' or '\\' (every other
  // byte is written as it is, UTF-8 and '/' included, as RapidJSON's writer does).
  static bool NeedsEscape(std::string_view text) { return AnyByteOf<EscapedByte>(text); }

 private:
  struct EscapedByte {
    static bool Byte(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }
#if defined(__SSE2__)
    static __m128i Block(__m128i v) {
      __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
      __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
      return _mm_or_si128(BytesInRange(v, 0x00, 0x1F), _mm_or_si128(quote, backslash));
    }
#endif
  };

  // The quoted string: '"', '\\' and the control characters escaped as RapidJSON's WriteString escapes them
  // (\b \t \n \f \r, else \u00XX), every other byte as it is. Not WriteString itself: in RapidJSON 1.1.0
  // (Debian's) its 16-byte scan takes 0x1A..0x1F for ordinary bytes and writes them unescaped, which strict
  // parsers (Python's json, and RapidJSON's own reader when the byte is not in a 16-byte block) refuse.
  void WriteQuoted(std::string_view text) {
    if (!NeedsEscape(text)) {
      char* out = os_->Push(text.size() + 2);
      out[0] = '"';
      // An empty view may have no data at all, and memcpy from null is undefined even for no bytes.
      if (!text.empty()) std::memcpy(out + 1, text.data(), text.size());
      out[text.size() + 1] = '"';
      return;
    }
    static const char kHex[] = "0123456789ABCDEF";
    os_->Reserve(text.size() * 6 + 2);
    os_->PutUnsafe('"');
    for (char ch : text) {
      unsigned char c = static_cast<unsigned char>(ch);
      if (c >= 0x20 && c != '"' && c != '\\') {
        os_->PutUnsafe(ch);
        continue;
      }
      os_->PutUnsafe('\\');
      switch (c) {
        case '"': os_->PutUnsafe('"'); break;
        case '\\': os_->PutUnsafe('\\'); break;
        case '\b': os_->PutUnsafe('b'); break;
        case '\t': os_->PutUnsafe('t'); break;
        case '\n': os_->PutUnsafe('n'); break;
        case '\f': os_->PutUnsafe('f'); break;
        case '\r': os_->PutUnsafe('r'); break;
        default:
          os_->PutUnsafe('u');
          os_->PutUnsafe('0');
          os_->PutUnsafe('0');
          os_->PutUnsafe(kHex[c >> 4]);
          os_->PutUnsafe(kHex[c & 0xF]);
      }
    }
    os_->PutUnsafe('"');
  }
};

// Maximum nesting of L and M values.
constexpr int kMaxNestingDepth = 32;

// Decodes and validates one wire AttributeValue.
Status DecodeAttributeValue(const rapidjson::Value& json, AttributeValue* out);
// Decodes and validates a map of attribute name -> AttributeValue (an Item, a Key, ExpressionAttributeValues).
Status DecodeAttributeMap(const rapidjson::Value& json, AttributeMap* out);

// An S, N, BOOL or NULL value given by its parts (text: S's string or N's canonical text; boolean: BOOL's
// value, true for NULL), as WriteAttributeValue writes the equal AttributeValue.
// REQUIRES: type is kS, kN, kBool or kNull.
void WriteScalarAttributeValue(AttrType type, std::string_view text, bool boolean, JsonWriter* writer);
// What WriteScalarAttributeValue writes for a BOOL ({"BOOL":true} or {"BOOL":false}) or a NULL ({"NULL":true}),
// the same for any text; empty for an S or an N. REQUIRES: type is kS, kN, kBool or kNull.
inline std::string_view ConstantScalarJson(AttrType type, bool boolean) {
  switch (type) {
    case AttrType::kS:
    case AttrType::kN: return {};
    case AttrType::kBool: return boolean ? R"({"BOOL":true})" : R"({"BOOL":false})";
    default: return R"({"NULL":true})";
  }
}
void WriteAttributeValue(const AttributeValue& value, JsonWriter* writer);
void WriteAttributeMap(const AttributeMap& item, JsonWriter* writer);
// The item as a JSON object text.
std::string EncodeAttributeMap(const AttributeMap& item);

// Parses an item's stored JSON into *doc, in place in a copy kept in *scratch: doc's strings point into
// *scratch, so REQUIRES: *scratch is left alone while doc is used. Returns false if the text is corrupt.
bool ParseStoredJson(std::string_view json, std::string* scratch, rapidjson::Document* doc);
// Decodes an item that this program encoded (storage); no validation. Returns false if the text is corrupt.
bool DecodeStoredAttributeMap(std::string_view json, AttributeMap* out);
bool DecodeStoredAttributeMap(const rapidjson::Value& json, AttributeMap* out);
// Decodes only the named top-level attributes of a stored item (those present).
bool DecodeStoredAttributes(const rapidjson::Value& json, const std::vector<std::string>& names, AttributeMap* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_JSON_H_
