#include "engine/model/wire_item.h"

#include <algorithm>
#include <cstring>

#include "engine/model/json_types.h"
#include "engine/model/number.h"

namespace dynapage {

namespace {

// The type of a value written as exactly one member S, N, BOOL or NULL, whose JSON type DecodeAttributeMap
// accepts; false for anything else.
bool ScalarType(const rapidjson::Value& value, AttrType* type) {
  if (!value.IsObject() || value.MemberCount() != 1) return false;
  const auto& member = *value.MemberBegin();
  std::string_view name = JsonText(member.name);
  if (name == "S" || name == "N") {
    *type = name == "S" ? AttrType::kS : AttrType::kN;
    return member.value.IsString();
  }
  if (name == "BOOL" || name == "NULL") {
    *type = name == "BOOL" ? AttrType::kBool : AttrType::kNull;
    // DynamoDB refuses NULL false; DecodeAttributeMap words that.
    return member.value.IsBool() && (*type == AttrType::kBool || member.value.GetBool());
  }
  return false;
}

// The first 8 bytes of name (fewer if it is shorter, then zeros) as a big-endian number: if two names differ
// there, the numbers order as the names do (a shorter name's zero is at most the other's byte, and if equal the
// numbers tie).
uint64_t NameOrder(std::string_view name) {
  uint64_t order = 0;
  std::memcpy(&order, name.data(), std::min<size_t>(name.size(), sizeof(order)));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  order = __builtin_bswap64(order);
#endif
  return order;
}

// Writes bytes at out; returns the end of what it wrote. REQUIRES: bytes.data() is not null, as no string
// RapidJSON parsed is (an empty one included), nor a literal.
char* Append(char* out, std::string_view bytes) {
  std::memcpy(out, bytes.data(), bytes.size());
  return out + bytes.size();
}

}  // namespace

bool WireItem::FromJson(const rapidjson::Value& json, WireItem* out) {
  if (!json.IsObject()) return false;
  Attribute* attributes = out->MakeRoom(json.MemberCount());
  size_t filled = 0;
  out->canonical_numbers_.clear();
  out->size_ = 0;
  std::string canonical;
  for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m) {
    Attribute& a = attributes[filled++];
    a = Attribute();
    if (!ScalarType(m->value, &a.type)) return false;
    const rapidjson::Value& v = m->value.MemberBegin()->value;
    a.name = JsonText(m->name);
    // A name DynamoDB refuses: left to the full decoding, which says why.
    if (a.name.empty() || a.name.size() > 65535) return false;
    a.name_order = NameOrder(a.name);
    if (a.type == AttrType::kS) {
      a.text = JsonText(v);
    } else if (a.type == AttrType::kN) {
      a.text = JsonText(v);
      // A plain integer, the common number, is its own canonical text: it is not copied to be compared.
      if (!Decimal::IsPlainInteger(a.text)) {
        if (!Decimal::Canonicalize(a.text, &canonical).ok()) return false;
        if (canonical != a.text) {
          out->canonical_numbers_.push_front(std::move(canonical));
          a.text = out->canonical_numbers_.front();
        }
      }
    } else {
      a.boolean = v.GetBool();
    }
    out->size_ += a.name.size() + ScalarValueSize(a.type, a.text);
  }
  auto by_name = [](const Attribute& x, const Attribute& y) {
    return x.name_order != y.name_order ? x.name_order < y.name_order : x.name < y.name;
  };
  std::sort(attributes, attributes + filled, by_name);
  auto same_name = [](const Attribute& x, const Attribute& y) {
    return x.name_order == y.name_order && x.name == y.name;
  };
  // A name given twice: DecodeAttributeMap keeps the last.
  return std::adjacent_find(attributes, attributes + filled, same_name) == attributes + filled;
}

WireItem::Attribute* WireItem::MakeRoom(size_t count) {
  count_ = count;
  if (count <= kInlineAttributes) {
    more_attributes_.clear();
    return inline_attributes_.data();
  }
  more_attributes_.resize(count);
  return more_attributes_.data();
}

AttributeValue WireItem::Attribute::ToValue() const {
  AttributeValue value;
  value.type = type;
  value.scalar = text;
  value.boolean = boolean;
  return value;
}

bool WireItem::Find(std::string_view name, AttributeValue* out) const {
  for (const Attribute& a : *this) {
    if (a.name == name) {
      // Field by field: a whole AttributeValue made and moved in costs more than the copy of the text.
      out->type = a.type;
      out->scalar.assign(a.text);
      out->boolean = a.boolean;
      out->list.clear();
      out->map.clear();
      out->set.clear();
      return true;
    }
  }
  return false;
}

void WireItem::Write(JsonWriter* writer) const {
  // Most items have nothing to escape: then their JSON is sized first and written in one piece, the bytes the
  // writer would write a value at a time (~40% of the instructions of a short item's encoding).
  size_t bytes = 2 + (count_ == 0 ? 0 : count_ - 1);  // the braces and the commas
  bool plain = true;
  for (const Attribute& a : *this) {
    std::string_view constant = ConstantScalarJson(a.type, a.boolean);
    plain = plain && !JsonWriter::NeedsEscape(a.name) && (!constant.empty() || !JsonWriter::NeedsEscape(a.text));
    bytes += a.name.size() + 3 + (constant.empty() ? a.text.size() + 8 : constant.size());  // "name":{"S":"text"}
  }
  if (plain) {
    writer->RawJsonOfSize(bytes, rapidjson::kObjectType, [this](char* out) {
      *out++ = '{';
      for (const Attribute& a : *this) {
        if (&a != begin()) *out++ = ',';
        *out++ = '"';
        out = Append(out, a.name);
        out = Append(out, "\":");
        std::string_view constant = ConstantScalarJson(a.type, a.boolean);
        if (!constant.empty()) {
          out = Append(out, constant);
          continue;
        }
        out = Append(out, a.type == AttrType::kS ? R"({"S":")" : R"({"N":")");
        out = Append(out, a.text);
        out = Append(out, "\"}");
      }
      *out = '}';
    });
    return;
  }
  writer->StartObject();
  for (const Attribute& a : *this) {
    writer->Key(a.name.data(), static_cast<rapidjson::SizeType>(a.name.size()));
    WriteScalarAttributeValue(a.type, a.text, a.boolean, writer);
  }
  writer->EndObject();
}

AttributeMap WireItem::ToAttributeMap() const {
  AttributeMap map;
  for (const Attribute& a : *this) map.emplace_hint(map.end(), std::string(a.name), a.ToValue());
  return map;
}

}  // namespace dynapage
