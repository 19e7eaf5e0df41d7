#include "engine/model/attribute_value_json.h"

#include <algorithm>
#include <set>

#include "engine/base/base64.h"
#include "engine/base/messages.h"
#include "engine/model/json_types.h"
#include "engine/model/number.h"
#include "engine/model/value_compare.h"

namespace dynapage {

namespace {

bool Present(const rapidjson::Value::ConstMemberIterator& m) { return !m->value.IsNull(); }

// Pass 1: JSON types only (SerializationException), recursively. Below kMaxNestingDepth it does not look:
// pass 2 refuses the value there, before recursing deeper (the depth of the JSON is the client's).
Status TypeCheck(const rapidjson::Value& json, int depth) {
  if (depth > kMaxNestingDepth) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonObject(json));
  for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m) {
    if (!Present(m)) continue;
    std::string_view name(m->name.GetString(), m->name.GetStringLength());
    const rapidjson::Value& v = m->value;
    if (name == "S" || name == "N") {
      DP_RETURN_IF_ERROR(CheckJsonString(v));
    } else if (name == "B") {
      DP_RETURN_IF_ERROR(CheckJsonString(v));
      std::string bytes;
      DP_RETURN_IF_ERROR(Base64Decode(std::string_view(v.GetString(), v.GetStringLength()), &bytes));
    } else if (name == "BOOL" || name == "NULL") {
      DP_RETURN_IF_ERROR(CheckJsonBoolean(v));
    } else if (name == "SS" || name == "NS" || name == "BS") {
      DP_RETURN_IF_ERROR(CheckJsonList(v));
      for (const auto& e : v.GetArray()) {
        if (e.IsNull()) continue;
        DP_RETURN_IF_ERROR(CheckJsonString(e));
        if (name == "BS") {
          std::string bytes;
          DP_RETURN_IF_ERROR(Base64Decode(std::string_view(e.GetString(), e.GetStringLength()), &bytes));
        }
      }
    } else if (name == "L") {
      DP_RETURN_IF_ERROR(CheckJsonList(v));
      for (const auto& e : v.GetArray()) {
        if (!e.IsNull()) DP_RETURN_IF_ERROR(TypeCheck(e, depth + 1));
      }
    } else if (name == "M") {
      DP_RETURN_IF_ERROR(CheckJsonObject(v));
      for (auto e = v.MemberBegin(); e != v.MemberEnd(); ++e) {
        if (!e->value.IsNull()) DP_RETURN_IF_ERROR(TypeCheck(e->value, depth + 1));
      }
    }
  }
  return Status::OK();
}

// A set's members as DynamoDB quotes them in a duplicates message: ["a", "a"] (SS), ["AQ==","AQ=="] (BS, base64).
std::string JoinForMessage(const std::vector<std::string>& elements, bool base64) {
  std::string out = "[";
  for (size_t i = 0; i < elements.size(); i++) {
    if (i) out += base64 ? "," : ", ";
    out += '"';
    out += base64 ? Base64Encode(elements[i]) : elements[i];
    out += '"';
  }
  return out + "]";
}

bool HasDuplicates(std::vector<std::string> elements) {
  std::sort(elements.begin(), elements.end());
  return std::adjacent_find(elements.begin(), elements.end()) != elements.end();
}

// The default-constructed value of member `name` in *map, for Build to fill: a new entry, or a repeated name's
// entry cleared (the last occurrence of a name wins).
AttributeValue& Slot(std::string_view name, AttributeMap* map) {
  auto [it, inserted] = map->try_emplace(std::string(name));
  if (!inserted) it->second = AttributeValue();
  return it->second;
}

// A member name as the C string RapidJSON holds: a name with an escaped NUL ends there, as it always has.
std::string_view CName(const rapidjson::Value& name) { return std::string_view(name.GetString()); }

// Pass 2: value rules (ValidationException) in dynalite's order, building the value in place (into a value
// the caller has just default-constructed: a temporary moved into place costs a move of every member, and
// values are built once per attribute of every item written). REQUIRES: *out is default-constructed.
Status Build(const rapidjson::Value& json, int depth, AttributeValue* out) {
  if (depth > kMaxNestingDepth) {
    return Status::Validation(kNestingTooDeep);
  }
  int types = 0;
  for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m) {
    if (!Present(m)) continue;
    AttrType type;
    if (!AttrTypeFromName(CName(m->name), &type)) continue;  // unknown members are ignored
    types++;
    const rapidjson::Value& v = m->value;
    // With two types the value is refused below, so what the second leaves in *out does not matter.
    switch (type) {
      case AttrType::kS:
        out->type = type;
        out->scalar.assign(v.GetString(), v.GetStringLength());
        break;
      case AttrType::kN:
        DP_RETURN_IF_ERROR(Decimal::Canonicalize(JsonText(v), &out->scalar));
        out->type = type;
        break;
      case AttrType::kB:
        out->type = type;
        Base64Decode(JsonText(v), &out->scalar);  // already checked in pass 1
        break;
      case AttrType::kBool:
        out->type = type;
        out->boolean = v.GetBool();
        break;
      case AttrType::kNull:
        if (!v.GetBool()) {
          return Status::Validation(std::string(kInvalidParameterPrefix) +
                                    "Null attribute value types must have the value of true")
              .WithDetail(ErrorDetail::kNullNotTrue);
        }
        out->type = type;
        out->boolean = true;
        break;
      case AttrType::kSS:
      case AttrType::kNS:
      case AttrType::kBS: {
        std::vector<std::string> elements;
        for (const auto& e : v.GetArray()) {
          if (e.IsNull()) continue;
          if (type == AttrType::kNS) {
            // An empty member is echoed after ": " (an empty N is not, dialects.md §2.7).
            if (e.GetStringLength() == 0) return Status::Validation(std::string(kNotNumeric) + ": ");
            DP_RETURN_IF_ERROR(Decimal::Canonicalize(JsonText(e), &elements.emplace_back()));
          } else if (type == AttrType::kBS) {
            std::string bytes;
            Base64Decode(JsonText(e), &bytes);
            elements.push_back(std::move(bytes));
          } else {
            elements.emplace_back(JsonText(e));
          }
        }
        if (elements.empty()) {
          if (type == AttrType::kSS) {
            return Status::Validation(std::string(kInvalidParameterPrefix) + "An string set  may not be empty")
                .WithDetail(ErrorDetail::kEmptyStringSet);
          }
          if (type == AttrType::kNS) {
            return Status::Validation(std::string(kInvalidParameterPrefix) + "An number set  may not be empty")
                .WithDetail(ErrorDetail::kEmptyNumberSet);
          }
          return Status::Validation(std::string(kInvalidParameterPrefix) + "Binary sets should not be empty")
              .WithDetail(ErrorDetail::kEmptyBinarySet);
        }
        if (HasDuplicates(elements)) {
          if (type == AttrType::kNS) return Status::Validation("Input collection contains duplicates");
          if (type == AttrType::kSS) {
            return Status::Validation(std::string(kInvalidParameterPrefix) + "Input collection " +
                                      JoinForMessage(elements, false) + " contains duplicates.");
          }
          return Status::Validation(std::string(kInvalidParameterPrefix) + "Input collection " +
                                    JoinForMessage(elements, true) + "of type BS contains duplicates.");
        }
        SortSetMembers(type, &elements);
        out->type = type;
        out->set = std::move(elements);
        break;
      }
      case AttrType::kL: {
        std::vector<AttributeValue> elements;
        elements.reserve(v.Size());
        for (const auto& e : v.GetArray()) {
          if (e.IsNull()) continue;
          DP_RETURN_IF_ERROR(Build(e, depth + 1, &elements.emplace_back()));
        }
        out->type = type;
        out->list = std::move(elements);
        break;
      }
      case AttrType::kM: {
        AttributeMap members;
        for (auto e = v.MemberBegin(); e != v.MemberEnd(); ++e) {
          if (e->value.IsNull()) continue;
          DP_RETURN_IF_ERROR(Build(e->value, depth + 1, &Slot(JsonText(e->name), &members)));
        }
        out->type = type;
        out->map = std::move(members);
        break;
      }
    }
  }
  if (types == 0) {
    return Status::Validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")
        .WithDetail(ErrorDetail::kEmptyAttributeValue);
  }
  if (types > 1) {
    return Status::Validation(
               "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported "
               "datatypes")
        .WithDetail(ErrorDetail::kMultipleTypes);
  }
  return Status::OK();
}

bool BuildStored(const rapidjson::Value& json, AttributeValue* out) {
  if (!json.IsObject() || json.MemberCount() != 1) return false;
  auto m = json.MemberBegin();
  AttrType type;
  if (!AttrTypeFromName(CName(m->name), &type)) return false;
  const rapidjson::Value& v = m->value;
  switch (type) {
    case AttrType::kS:
    case AttrType::kN:
      if (!v.IsString()) return false;
      out->type = type;
      out->scalar.assign(v.GetString(), v.GetStringLength());
      return true;
    case AttrType::kB:
      if (!v.IsString()) return false;
      out->type = type;
      return Base64Decode(JsonText(v), &out->scalar).ok();
    case AttrType::kBool:
    case AttrType::kNull:
      if (!v.IsBool()) return false;
      out->type = type;
      out->boolean = v.GetBool();
      return true;
    case AttrType::kSS:
    case AttrType::kNS:
    case AttrType::kBS:
      if (!v.IsArray()) return false;
      out->type = type;
      out->set.reserve(v.Size());
      for (const auto& e : v.GetArray()) {
        if (!e.IsString()) return false;
        if (type == AttrType::kBS) {
          std::string bytes;
          if (!Base64Decode(JsonText(e), &bytes).ok()) return false;
          out->set.push_back(std::move(bytes));
        } else {
          out->set.emplace_back(e.GetString(), e.GetStringLength());
        }
      }
      return true;
    case AttrType::kL:
      if (!v.IsArray()) return false;
      out->type = type;
      out->list.resize(v.Size());
      for (rapidjson::SizeType i = 0; i < v.Size(); i++) {
        if (!BuildStored(v[i], &out->list[i])) return false;
      }
      return true;
    case AttrType::kM:
      out->type = type;
      return DecodeStoredAttributeMap(v, &out->map);
  }
  return false;
}

}  // namespace

Status DecodeAttributeValue(const rapidjson::Value& json, AttributeValue* out) {
  DP_RETURN_IF_ERROR(TypeCheck(json, 0));
  *out = AttributeValue();
  return Build(json, 0, out);
}

Status DecodeAttributeMap(const rapidjson::Value& json, AttributeMap* out) {
  DP_RETURN_IF_ERROR(CheckJsonObject(json));
  out->clear();
  for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m) {
    if (!m->value.IsNull()) DP_RETURN_IF_ERROR(TypeCheck(m->value, 0));
  }
  for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m) {
    if (m->value.IsNull()) continue;
    DP_RETURN_IF_ERROR(Build(m->value, 0, &Slot(JsonText(m->name), out)));
  }
  return Status::OK();
}

void WriteScalarAttributeValue(AttrType type, std::string_view text, bool boolean, JsonWriter* w) {
  switch (type) {
    case AttrType::kS: w->SingleStringMemberObject("S", text); return;
    case AttrType::kN: w->SingleStringMemberObject("N", text); return;
    default: w->RawJson(ConstantScalarJson(type, boolean), rapidjson::kObjectType); return;
  }
}

void WriteAttributeValue(const AttributeValue& value, JsonWriter* w) {
  switch (value.type) {
    case AttrType::kS:
    case AttrType::kN:
    case AttrType::kBool:
    case AttrType::kNull: WriteScalarAttributeValue(value.type, value.scalar, value.boolean, w); return;
    default: break;
  }
  w->StartObject();
  w->Key(AttrTypeName(value.type));
  switch (value.type) {
    case AttrType::kS:
    case AttrType::kN:
    case AttrType::kBool:
    case AttrType::kNull: break;  // written above
    case AttrType::kB: {
      std::string b64 = Base64Encode(value.scalar);
      w->String(b64.data(), static_cast<rapidjson::SizeType>(b64.size()));
      break;
    }
    case AttrType::kL:
      w->StartArray();
      for (const auto& e : value.list) WriteAttributeValue(e, w);
      w->EndArray();
      break;
    case AttrType::kM: WriteAttributeMap(value.map, w); break;
    case AttrType::kSS:
    case AttrType::kNS:
    case AttrType::kBS:
      w->StartArray();
      for (const auto& e : value.set) {
        if (value.type == AttrType::kBS) {
          std::string b64 = Base64Encode(e);
          w->String(b64.data(), static_cast<rapidjson::SizeType>(b64.size()));
        } else {
          w->String(e.data(), static_cast<rapidjson::SizeType>(e.size()));
        }
      }
      w->EndArray();
      break;
  }
  w->EndObject();
}

void WriteAttributeMap(const AttributeMap& item, JsonWriter* w) {
  w->StartObject();
  for (const auto& [name, value] : item) {
    w->Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    WriteAttributeValue(value, w);
  }
  w->EndObject();
}

std::string EncodeAttributeMap(const AttributeMap& item) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteAttributeMap(item, &writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

bool DecodeStoredAttributeMap(const rapidjson::Value& json, AttributeMap* out) {
  if (!json.IsObject()) return false;
  out->clear();
  for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m) {
    AttributeValue value;
    if (!BuildStored(m->value, &value)) return false;
    out->emplace(std::string(m->name.GetString(), m->name.GetStringLength()), std::move(value));
  }
  return true;
}

bool DecodeStoredAttributes(const rapidjson::Value& json, const std::vector<std::string>& names, AttributeMap* out) {
  if (!json.IsObject()) return false;
  out->clear();
  for (const auto& name : names) {
    auto m = json.FindMember(rapidjson::StringRef(name.data(), name.size()));
    if (m == json.MemberEnd()) continue;
    AttributeValue value;
    if (!BuildStored(m->value, &value)) return false;
    out->emplace(name, std::move(value));
  }
  return true;
}

bool ParseStoredJson(std::string_view json, std::string* scratch, rapidjson::Document* doc) {
  // The stored form never holds a raw NUL (the writer escapes control characters), so the copy is one
  // NUL-terminated string that RapidJSON reads in place, strings 16 bytes at a time, instead of byte by byte
  // through a bounded stream and into copies.
  scratch->assign(json.data(), json.size());
  doc->ParseInsitu(&(*scratch)[0]);
  return !doc->HasParseError();
}

bool DecodeStoredAttributeMap(std::string_view json, AttributeMap* out) {
  rapidjson::Document doc;
  std::string scratch;
  if (!ParseStoredJson(json, &scratch, &doc)) return false;
  return DecodeStoredAttributeMap(doc, out);
}

}  // namespace dynapage
