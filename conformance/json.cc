#include "conformance/json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace conformance {

Json::Json(const std::string& object_text) {
  doc_.Parse(object_text.c_str(), object_text.size());
  if (doc_.HasParseError() || !doc_.IsObject()) {
    std::fprintf(stderr, "conformance: bad JSON object in a case: %s\n", object_text.c_str());
    std::abort();
  }
}

Json::Json(const Json& other) { doc_.CopyFrom(other.doc_, doc_.GetAllocator()); }

Json& Json::operator=(const Json& other) {
  if (this != &other) {
    rapidjson::Document fresh;
    fresh.CopyFrom(other.doc_, fresh.GetAllocator());
    doc_.Swap(fresh);
  }
  return *this;
}

Json& Json::SetValue(const char* name, const rapidjson::Value& value) {
  auto& a = doc_.GetAllocator();
  rapidjson::Value copy(value, a);
  auto it = doc_.FindMember(name);
  if (it != doc_.MemberEnd()) {
    it->value = copy;
  } else {
    doc_.AddMember(rapidjson::Value(name, a), copy, a);
  }
  return *this;
}

Json& Json::Set(const char* name, const std::string& value) {
  rapidjson::Value v(value.c_str(), static_cast<rapidjson::SizeType>(value.size()), doc_.GetAllocator());
  return SetValue(name, v);
}

Json& Json::Set(const char* name, int64_t value) { return SetValue(name, rapidjson::Value(value)); }

Json& Json::SetBool(const char* name, bool value) { return SetValue(name, rapidjson::Value(value)); }

Json& Json::SetRaw(const char* name, const std::string& json_text) {
  rapidjson::Document parsed;
  parsed.Parse(json_text.c_str(), json_text.size());
  if (parsed.HasParseError()) {
    std::fprintf(stderr, "conformance: bad JSON value in a case: %s\n", json_text.c_str());
    std::abort();
  }
  return SetValue(name, parsed);
}

Json& Json::Remove(const char* name) {
  doc_.RemoveMember(name);
  return *this;
}

std::string Json::str() const { return ToJson(doc_); }

std::string ToJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string Quote(const std::string& s) {
  rapidjson::Value v(rapidjson::StringRef(s.c_str(), s.size()));
  return ToJson(v);
}

std::string AttrS(const std::string& s) { return "{\"S\":" + Quote(s) + "}"; }
std::string AttrN(const std::string& n) { return "{\"N\":" + Quote(n) + "}"; }

const rapidjson::Value* Member(const rapidjson::Value& v, const char* name) {
  if (!v.IsObject()) return nullptr;
  auto it = v.FindMember(name);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

std::string AttrType(const rapidjson::Value& item, const char* name) {
  const rapidjson::Value* av = Member(item, name);
  if (!av || !av->IsObject() || av->MemberCount() != 1) return "";
  return av->MemberBegin()->name.GetString();
}

std::string AttrText(const rapidjson::Value& item, const char* name) {
  const rapidjson::Value* av = Member(item, name);
  if (!av || !av->IsObject() || av->MemberCount() != 1) return "";
  const rapidjson::Value& v = av->MemberBegin()->value;
  if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  return "";
}

std::vector<std::string> MemberNames(const rapidjson::Value& object) {
  std::vector<std::string> names;
  if (!object.IsObject()) return names;
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) names.emplace_back(it->name.GetString());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace conformance
