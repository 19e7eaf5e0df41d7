// The JSON form of AttributeValues and items: {"S":"x"}, {"N":"1"}, {"B":"<base64>"}, {"L":[…]}, {"M":{…}}, …
//
// Decoding from a request validates like DynamoDB (spec §8.6, §8.7): JSON type errors first (Serialization),
// then the value rules (Validation) in DynamoDB's order, with exact messages. Numbers are canonicalised.
// Encoding writes the canonical form; the storage layer keeps items in exactly this form so that a page of
// results can be copied into a response without re-encoding.

#ifndef DYNAPAGE_ENGINE_ATTRIBUTE_VALUE_JSON_H_
#define DYNAPAGE_ENGINE_ATTRIBUTE_VALUE_JSON_H_

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/status.h"

namespace dynapage {

// RapidJSON's writer, plus a way to copy an already-encoded value (a stored item) into the output as one block:
// Writer::RawValue copies it a byte at a time.
class JsonWriter : public rapidjson::Writer<rapidjson::StringBuffer> {
 public:
  using rapidjson::Writer<rapidjson::StringBuffer>::Writer;

  // REQUIRES: json is one complete JSON value of the given type.
  void RawJson(std::string_view json, rapidjson::Type type) {
    Prefix(type);
    std::memcpy(os_->Push(json.size()), json.data(), json.size());
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
    WriteString(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    os_->Put('}');
    EndValue(true);
  }

  // Makes room for bytes more of output at once, for a caller that expects that much (a page of items):
  // growing the buffer a step at a time copies it at every step.
  void Reserve(size_t bytes) { os_->Reserve(bytes); }
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

#endif  // DYNAPAGE_ENGINE_ATTRIBUTE_VALUE_JSON_H_
