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

#include <string>

#include "engine/model/attribute_value.h"

namespace dynapage {

enum class ExportFormat { kDynamoDbJson, kIon };

// Appends item's line in format to *out.
void AppendExportLine(ExportFormat format, const AttributeMap& item, std::string* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_EXPORT_LINES_H_
