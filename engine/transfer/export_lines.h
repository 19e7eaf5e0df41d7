// The line formats of a DynamoDB export's data files (docs/export-import.md; the layout is export_layout.h's):
//
//   DYNAMODB_JSON  {"Item":{"pk":{"S":"user1"},"bin":{"B":"YmFy"}}}      the wire JSON of the item, base64 binary
//   ION            $ion_1_0 {Item:{pk:"user1",n:103.,bin:{{YmFy}},tags:$dynamodb_SS::["a","b"]}}
//
// ION maps S to a string, N to a decimal ("103." for an integer), B to a blob, BOOL to a bool, NULL to null, L to a
// list, M to a struct, and SS/NS/BS to a list annotated $dynamodb_SS/$dynamodb_NS/$dynamodb_BS, as DynamoDB's
// exports do. Each line ends with '\n'. The item's depth is bounded by DynamoDB's own nesting limit (32), which
// every stored item passed.

#ifndef DYNAPAGE_ENGINE_TRANSFER_EXPORT_LINES_H_
#define DYNAPAGE_ENGINE_TRANSFER_EXPORT_LINES_H_

#include <cstdint>
#include <string>

#include "engine/model/attribute_value.h"

namespace dynapage {

enum class ExportFormat { kDynamoDbJson, kIon };

// Appends item's line in format to *out.
void AppendExportLine(ExportFormat format, const AttributeMap& item, std::string* out);

// Appends the line of one item's change in an incremental export to *out:
//
//   DYNAMODB_JSON  {"Metadata":{"WriteTimestampMicros":{"N":"<µs>"}},"Keys":{…},"NewImage":{…},"OldImage":{…}}
//   ION            $ion_1_0 {Metadata:{WriteTimestampMicros:<µs>.},Keys:{…},NewImage:{…},OldImage:{…}}
//
// new_image absent (null): the item was deleted; old_image null: left out (NEW_IMAGE, or the item is new).
void AppendIncrementalExportLine(ExportFormat format, int64_t write_micros, const AttributeMap& keys,
                                 const AttributeMap* new_image, const AttributeMap* old_image, std::string* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_EXPORT_LINES_H_
