#include "engine/transfer/import_reader.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <string>

#include "engine/model/attribute_value_json.h"

namespace dynapage {

void ReadDynamoDbJsonObjects(std::string_view text, const ImportObjectVisitor& each) {
  // A copy that ends in a NUL byte, as RapidJSON's string stream reads up to one.
  std::string copy(text);
  rapidjson::StringStream stream(copy.c_str());
  size_t index = 0;
  for (;;) {
    while (stream.Tell() < copy.size() &&
           (stream.Peek() == ' ' || stream.Peek() == '\n' || stream.Peek() == '\r' || stream.Peek() == '\t')) {
      stream.Take();
    }
    if (stream.Tell() >= copy.size()) return;
    rapidjson::Document document;
    document.ParseStream<rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag>(stream);
    if (document.HasParseError()) {
      each(index,
           Status::Validation(std::string("Unexpected data: ") + rapidjson::GetParseError_En(document.GetParseError()) +
                              " at offset " + std::to_string(document.GetErrorOffset())),
           nullptr);
      return;  // the rest of the object is skipped
    }
    each(index++, Status::OK(), &document);
  }
}

Status DecodeRecordItem(const rapidjson::Value& object, AttributeMap* item) {
  const rapidjson::Value* json_item = nullptr;
  if (object.IsObject()) {
    auto member = object.FindMember("Item");
    if (member != object.MemberEnd()) json_item = &member->value;
  }
  if (!json_item || !json_item->IsObject()) {
    return Status::Validation("Unexpected data: an object without an \"Item\" object");
  }
  return DecodeAttributeMap(*json_item, item);
}

void ReadDynamoDbJsonItems(std::string_view text, const ImportItemVisitor& each) {
  ReadDynamoDbJsonObjects(text, [&](size_t index, const Status& parsed, const rapidjson::Value* object) {
    AttributeMap item;
    Status s = parsed.ok() ? DecodeRecordItem(*object, &item) : parsed;
    each(index, s, &item);
  });
}

}  // namespace dynapage
