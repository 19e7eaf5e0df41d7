// The request JSON reader (server/protocol/request_json.h) and the AttributeValue reader
// (engine/model/attribute_value_json.h). Input: a request body. Properties: reading never crashes, whatever the
// depth; what is accepted is valid UTF-8; an accepted item (the body's "Item", or the body itself as one) is
// within the nesting limit, sizes without crashing, and comes back unchanged through the stored form.

#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/utf8.h"
#include "engine/model/attribute_value_json.h"
#include "fuzz/fuzz_check.h"
#include "server/protocol/request_json.h"

namespace dynapage {
namespace {

int Depth(const AttributeValue& v) {
  int deepest = 0;
  for (const AttributeValue& e : v.list) deepest = std::max(deepest, 1 + Depth(e));
  for (const auto& [name, e] : v.map) deepest = std::max(deepest, 1 + Depth(e));
  return deepest;
}

void CheckItem(const rapidjson::Value& json) {
  AttributeMap item;
  if (!DecodeAttributeMap(json, &item).ok()) return;
  for (const auto& [name, value] : item) {
    FUZZ_CHECK(IsValidUtf8(name));
    FUZZ_CHECK(Depth(value) <= kMaxNestingDepth);
  }
  (void)ItemSize(item);
  std::string stored = EncodeAttributeMap(item);
  FUZZ_CHECK(IsValidUtf8(stored));
  AttributeMap back;
  FUZZ_CHECK(DecodeStoredAttributeMap(stored, &back));
  FUZZ_CHECK(back == item);
}

}  // namespace
}  // namespace dynapage

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dynapage;
  std::string_view body(reinterpret_cast<const char*>(data), size);
  if (body.empty()) return 0;
  std::string text;
  rapidjson::Document document;
  if (!ParseRequestJson(body, &text, &document)) return 0;
  FUZZ_CHECK(IsValidUtf8(body));
  CheckItem(document);
  auto item = document.FindMember("Item");
  if (item != document.MemberEnd()) CheckItem(item->value);
  auto value = document.FindMember("Value");
  if (value != document.MemberEnd()) {
    AttributeValue v;
    if (DecodeAttributeValue(value->value, &v).ok()) FUZZ_CHECK(Depth(v) <= kMaxNestingDepth);
  }
  return 0;
}
