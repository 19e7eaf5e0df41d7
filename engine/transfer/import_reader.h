// Reading the items of one import object in DYNAMODB_JSON (docs/export-import.md): a stream of {"Item":{…}} objects,
// one per line or simply concatenated ({…}{…}), as DynamoDB's ImportTable reads them.
//
// Each object's outcome goes to a callback: its item, or why it is not one (no "Item", a value DynamoDB refuses).
// Text that does not parse ends the object: one error, and the rest of it is skipped, as DynamoDB does. Parsing is
// iterative (RapidJSON's kParseIterativeFlag), so no input nesting drives recursion; values nested deeper than
// DynamoDB allows are refused by DecodeAttributeMap.

#ifndef DYNAPAGE_ENGINE_TRANSFER_IMPORT_READER_H_
#define DYNAPAGE_ENGINE_TRANSFER_IMPORT_READER_H_

#include <functional>
#include <string_view>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

// item_index counts the objects of text from 0. status is OK with the item, or the error (item then empty).
using ImportItemVisitor = std::function<void(size_t item_index, const Status& status, AttributeMap* item)>;

void ReadDynamoDbJsonItems(std::string_view text, const ImportItemVisitor& each);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_IMPORT_READER_H_
