#include "engine/partiql/statement_token.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include <string_view>
#include <utility>

#include "engine/base/base64.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

uint64_t StatementFingerprint(const PartiqlStatementRequest& request) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::string_view bytes) {
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  };
  mix(request.statement);
  for (const AttributeValue& p : request.parameters) mix(EncodeAttributeMap(AttributeMap{{"p", p}}));
  return h;
}

std::string EncodeNextToken(uint64_t fingerprint, const SelectPosition& position) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("f");
  w.String(std::to_string(fingerprint));
  w.Key("p");
  w.Uint64(position.partition);
  if (position.key) {
    w.Key("k");
    WriteAttributeMap(*position.key, &w);
  }
  if (!position.cursors.empty()) {
    w.Key("m");
    w.StartArray();
    for (const PartitionCursor& c : position.cursors) {
      if (c.done) {
        w.Bool(true);
      } else if (c.after) {
        WriteAttributeMap(*c.after, &w);
      } else {
        w.Null();
      }
    }
    w.EndArray();
  }
  w.EndObject();
  return Base64Encode(std::string_view(buffer.GetString(), buffer.GetSize()));
}

Status DecodeNextToken(const std::string& token, uint64_t fingerprint, SelectPosition* position) {
  const Status invalid = Status::Validation("Invalid NextToken");
  std::string json;
  if (!Base64Decode(token, &json).ok()) return invalid;
  rapidjson::Document doc;
  // Iterative: a token is the client's text, and its nesting must not drive the parser's recursion.
  doc.Parse<rapidjson::kParseIterativeFlag>(json.c_str(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) return invalid;
  auto f = doc.FindMember("f");
  auto p = doc.FindMember("p");
  if (f == doc.MemberEnd() || !f->value.IsString() || p == doc.MemberEnd() || !p->value.IsUint64()) return invalid;
  if (f->value.GetString() != std::to_string(fingerprint)) {
    return Status::Validation("NextToken does not match request");
  }
  position->partition = p->value.GetUint64();
  auto k = doc.FindMember("k");
  if (k != doc.MemberEnd()) {
    AttributeMap start;
    if (!k->value.IsObject() || !DecodeAttributeMap(k->value, &start).ok()) return invalid;
    position->key = std::move(start);
  }
  auto m = doc.FindMember("m");
  if (m != doc.MemberEnd()) {
    if (!m->value.IsArray() || m->value.Empty()) return invalid;
    for (const auto& entry : m->value.GetArray()) {
      PartitionCursor c;
      if (entry.IsTrue()) {
        c.done = true;
      } else if (entry.IsObject()) {
        c.after.emplace();
        if (!DecodeAttributeMap(entry, &*c.after).ok()) return invalid;
      } else if (!entry.IsNull()) {
        return invalid;
      }
      position->cursors.push_back(std::move(c));
    }
  }
  return Status::OK();
}

}  // namespace dynapage
