#include "engine/model/json_types.h"

#include <string>

namespace dynapage {

namespace {
Status ScalarMismatch(const rapidjson::Value& v, const std::string& java_type) {
  if (v.IsBool()) {
    return Status::Serialization(std::string(v.GetBool() ? "TRUE_VALUE" : "FALSE_VALUE") + " cannot be converted to " +
                                 java_type);
  }
  if (v.IsNumber()) return Status::Serialization("NUMBER_VALUE cannot be converted to " + java_type);
  if (v.IsString()) return Status::Serialization("STRING_VALUE cannot be converted to " + java_type);
  if (v.IsArray()) return Status::Serialization("Unrecognized collection type class java.lang." + java_type);
  return Status::Serialization("Start of structure or map found where not expected");
}
}  // namespace

Status CheckJsonString(const rapidjson::Value& v) {
  if (v.IsString()) return Status::OK();
  return ScalarMismatch(v, "String");
}

Status CheckJsonBoolean(const rapidjson::Value& v) {
  if (v.IsBool()) return Status::OK();
  if (v.IsString()) return Status::Serialization("Unexpected token received from parser");
  return ScalarMismatch(v, "Boolean");
}

Status CheckJsonInteger(const rapidjson::Value& v, const char* java_type) {
  if (v.IsInt64() || v.IsUint64()) return Status::OK();
  if (v.IsDouble()) return Status::OK();  // Coral truncates fractional integers; callers floor them.
  return ScalarMismatch(v, java_type);
}

Status CheckJsonObject(const rapidjson::Value& v) {
  if (v.IsObject()) return Status::OK();
  if (v.IsArray()) return Status::Serialization("Start of list found where not expected");
  return Status::Serialization("Unexpected field type");
}

Status CheckJsonList(const rapidjson::Value& v) {
  if (v.IsArray()) return Status::OK();
  if (v.IsObject()) return Status::Serialization("Start of structure or map found where not expected");
  return Status::Serialization("Unexpected field type");
}

}  // namespace dynapage
