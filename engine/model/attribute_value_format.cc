#include "engine/model/attribute_value_format.h"

#include "engine/base/base64.h"

namespace dynapage {

namespace {

void Append(const AttributeValue& v, std::string* out) {
  *out += '{';
  *out += AttrTypeName(v.type);
  *out += ':';
  switch (v.type) {
    case AttrType::kS:
    case AttrType::kN: *out += v.scalar; break;
    case AttrType::kB: Base64EncodeAppend(v.scalar, out); break;
    case AttrType::kBool: *out += v.boolean ? "true" : "false"; break;
    case AttrType::kNull: *out += "true"; break;
    case AttrType::kSS:
    case AttrType::kNS:
    case AttrType::kBS: {
      *out += '[';
      for (size_t i = 0; i < v.set.size(); i++) {
        if (i > 0) *out += ", ";
        if (v.type == AttrType::kBS) {
          Base64EncodeAppend(v.set[i], out);
        } else {
          *out += v.set[i];
        }
      }
      *out += ']';
      break;
    }
    case AttrType::kL: {
      *out += '[';
      for (size_t i = 0; i < v.list.size(); i++) {
        if (i > 0) *out += ", ";
        Append(v.list[i], out);
      }
      *out += ']';
      break;
    }
    case AttrType::kM: {
      *out += '{';
      bool first = true;
      for (const auto& [name, member] : v.map) {
        if (!first) *out += ", ";
        first = false;
        *out += name;
        *out += '=';
        Append(member, out);
      }
      *out += '}';
      break;
    }
  }
  *out += '}';
}

}  // namespace

std::string FormatValueBody(const AttributeValue& value) {
  std::string out;
  Append(value, &out);
  return out;
}

std::string FormatAttributeValue(const AttributeValue& value) {
  std::string out = "AttributeValue: ";
  Append(value, &out);
  return out;
}

}  // namespace dynapage
