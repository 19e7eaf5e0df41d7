// The TableDescription object of CreateTable, DescribeTable, DeleteTable and UpdateTable responses.

#ifndef DYNAPAGE_SERVER_PROTOCOL_TABLE_DESCRIPTION_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_TABLE_DESCRIPTION_JSON_H_

#include "engine/database/database.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

void WriteTableDescription(const TableDescription& description, JsonWriter* w);
// A whole response holding only the description: {"<member>": {…}} ("Table" or "TableDescription").
void WriteTableDescriptionResponse(const char* member, const TableDescription& description, JsonWriter* w);
// DeleteTable's response: {"TableDescription": {…}} with only what DynamoDB shows of a table being deleted
// (name, status, ARN, id, counts, throughput, billing mode), no schema, creation time or indexes.
void WriteDeletedTableResponse(const TableDescription& description, JsonWriter* w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_TABLE_DESCRIPTION_JSON_H_
