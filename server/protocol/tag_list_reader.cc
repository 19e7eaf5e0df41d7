#include "server/protocol/tag_list_reader.h"

#include <string_view>

#include "engine/model/json_types.h"

namespace dynapage {

namespace {
const char kTagPattern[] = "Member must satisfy regular expression pattern: [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*";

// The number of characters (code points) of UTF-8 text: the bytes that do not continue a character.
size_t CharacterCount(std::string_view text) {
  size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80;
  return count;
}

// True if text holds only tag characters. Non-ASCII characters are taken as letters: dynapage has no Unicode
// tables, and a tag is rarely written in other scripts' punctuation.
bool TagCharacters(std::string_view text) {
  for (unsigned char c : text) {
    bool ok = c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              std::string_view(" _.:/=+-@").find(static_cast<char>(c)) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}
}  // namespace

Status ReadTagList(const RequestReader& r, std::vector<std::pair<std::string, std::string>>* tags, bool* present,
                   ConstraintErrors* errors) {
  const rapidjson::Value* list = r.Get("Tags");
  *present = list != nullptr;
  if (!list) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonList(*list));
  for (const auto& e : list->GetArray()) {
    if (e.IsNull()) continue;
    DP_RETURN_IF_ERROR(CheckJsonObject(e));
    RequestReader t(e);
    std::optional<std::string> key, value;
    DP_RETURN_IF_ERROR(t.GetString("Key", &key));
    DP_RETURN_IF_ERROR(t.GetString("Value", &value));
    const std::string path = "tags." + std::to_string(tags->size() + 1) + ".member";
    if (!key) {
      errors->AddNull(path + ".key");
    } else if (key->empty()) {
      errors->Add("", path + ".key", "Member must have length greater than or equal to 1");
    } else if (CharacterCount(*key) > 128) {
      errors->Add(*key, path + ".key", "Member must have length less than or equal to 128");
    } else if (!TagCharacters(*key)) {
      errors->Add(*key, path + ".key", kTagPattern);
    }
    if (!value) {
      errors->AddNull(path + ".value");
    } else if (CharacterCount(*value) > 256) {
      errors->Add(*value, path + ".value", "Member must have length less than or equal to 256");
    } else if (!TagCharacters(*value)) {
      errors->Add(*value, path + ".value", kTagPattern);
    }
    tags->emplace_back(key.value_or(""), value.value_or(""));
  }
  return Status::OK();
}

}  // namespace dynapage
