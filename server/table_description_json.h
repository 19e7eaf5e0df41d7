// The TableDescription object of CreateTable, DescribeTable, DeleteTable and UpdateTable responses.

#ifndef DYNAPAGE_SERVER_TABLE_DESCRIPTION_JSON_H_
#define DYNAPAGE_SERVER_TABLE_DESCRIPTION_JSON_H_

#include "engine/attribute_value_json.h"
#include "engine/database.h"

namespace dynapage {

void WriteTableDescription(const TableDescription& description, JsonWriter* w);
// A whole response holding only the description: {"<member>": {…}} ("Table" or "TableDescription").
void WriteTableDescriptionResponse(const char* member, const TableDescription& description, JsonWriter* w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_TABLE_DESCRIPTION_JSON_H_
