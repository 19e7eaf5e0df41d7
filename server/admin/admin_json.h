// Small helpers the admin layer's reports share.

#ifndef DYNAPAGE_SERVER_ADMIN_ADMIN_JSON_H_
#define DYNAPAGE_SERVER_ADMIN_ADMIN_JSON_H_

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace dynapage {

// "key": "value", or "key": null when value is empty.
inline void WriteOptionalText(rapidjson::Writer<rapidjson::StringBuffer>* w, const char* key, std::string_view value) {
  w->Key(key);
  if (value.empty()) {
    w->Null();
  } else {
    w->String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  }
}

// "key": N, or "key": null when it is not known.
inline void WriteOptionalCount(rapidjson::Writer<rapidjson::StringBuffer>* w, const char* key,
                               std::optional<uint64_t> value) {
  w->Key(key);
  if (value) {
    w->Uint64(*value);
  } else {
    w->Null();
  }
}

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_ADMIN_JSON_H_
