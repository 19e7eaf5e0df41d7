// Type checks on request JSON, with the SerializationException texts of DynamoDB's (Coral) deserializer.
//
// DynamoDB rejects a member of the wrong JSON type before any validation: a number where a string belongs is
// "NUMBER_VALUE cannot be converted to String", an array where a string belongs is "Unrecognized collection
// type class java.lang.String", and so on (docs/behaviour.md §8.5 step 6). Null members count as absent and are never
// passed to these checks.

#ifndef DYNAPAGE_ENGINE_MODEL_JSON_TYPES_H_
#define DYNAPAGE_ENGINE_MODEL_JSON_TYPES_H_

#include <rapidjson/document.h>

#include <string_view>

#include "engine/base/status.h"

namespace dynapage {

Status CheckJsonString(const rapidjson::Value& v);
Status CheckJsonBoolean(const rapidjson::Value& v);
// An integral member such as Limit or Segment ("Integer") or a Long.
Status CheckJsonInteger(const rapidjson::Value& v, const char* java_type = "Integer");
// A structure (object with known members) or a map (object with arbitrary keys): both JSON objects.
Status CheckJsonObject(const rapidjson::Value& v);
// A list: a JSON array.
Status CheckJsonList(const rapidjson::Value& v);

// The characters of a JSON string, NULs included. REQUIRES: v.IsString() (RapidJSON asserts it in debug builds).
inline std::string_view JsonText(const rapidjson::Value& v) {
  return std::string_view(v.GetString(), v.GetStringLength());
}

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_JSON_TYPES_H_
