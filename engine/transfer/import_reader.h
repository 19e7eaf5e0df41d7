// Reading the items of one import object in DYNAMODB_JSON (docs/export-import.md): a stream of {"Item":{…}} objects,
// one per line or simply concatenated ({…}{…}), as DynamoDB's ImportTable reads them.
//
// Each object's outcome goes to a callback: its item, or why it is not one (no "Item", a value DynamoDB refuses).
// Text that does not parse ends the object: one error, and the rest of it is skipped, as DynamoDB does. Parsing is
// iterative (RapidJSON's kParseIterativeFlag), so no input nesting drives recursion; values nested deeper than
// DynamoDB allows are refused by DecodeAttributeMap.

#ifndef DYNAPAGE_ENGINE_TRANSFER_IMPORT_READER_H_
#define DYNAPAGE_ENGINE_TRANSFER_IMPORT_READER_H_

#include <rapidjson/document.h>

#include <functional>
#include <string_view>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

// item_index counts the objects of text from 0. status is OK with the item, or the error (item then empty).
using ImportItemVisitor = std::function<void(size_t item_index, const Status& status, AttributeMap* item)>;

void ReadDynamoDbJsonItems(std::string_view text, const ImportItemVisitor& each);

// The same stream, object by object, for readers of more members than "Item" (a bulk put's per-record condition):
// status is OK with the parsed object, or the parse error (object then null).
using ImportObjectVisitor =
    std::function<void(size_t object_index, const Status& status, const rapidjson::Value* object)>;
void ReadDynamoDbJsonObjects(std::string_view text, const ImportObjectVisitor& each);
// The item of one such object (its "Item" member), or why there is none.
Status DecodeRecordItem(const rapidjson::Value& object, AttributeMap* item);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_IMPORT_READER_H_
