// The TableDescription object of CreateTable, DescribeTable, DeleteTable and UpdateTable responses.

#ifndef DYNAPAGE_SERVER_PROTOCOL_TABLE_DESCRIPTION_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_TABLE_DESCRIPTION_JSON_H_

#include "engine/base/request_context.h"
#include "engine/database/database.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

// With a transient-status delay (ctx.transient_status_ms, DynamoDB Local's -delayTransientStatuses), an ACTIVE
// table younger than the delay is shown CREATING with its global indexes, and so is a global index UpdateTable
// added less than the delay ago, so that clients' "table exists" and index waiters poll at least once. (A deleted
// table's DELETING is the catalog's: Catalog::FindDeleting.)
void ApplyTransientStatus(const RequestContext& ctx, TableDescription* description);

void WriteTableDescription(const TableDescription& description, JsonWriter* w);
// One element of a KeySchema: {"AttributeName": name, "KeyType": key_type} ("HASH" or "RANGE").
void WriteKeySchemaElement(const std::string& name, const char* key_type, JsonWriter* w);
// A KeySchema: every element in the order CreateTable or UpdateTable received it, the HASH attributes, then the
// RANGE ones.
void WriteKeySchema(const KeySchema& key, JsonWriter* w);
// An index's Projection: ProjectionType, and NonKeyAttributes under INCLUDE.
void WriteProjection(ProjectionType type, const std::vector<std::string>& non_key_attributes, JsonWriter* w);
// A ProvisionedThroughput of a description (0/0 under PAY_PER_REQUEST).
void WriteThroughput(const ProvisionedThroughput& t, bool pay_per_request, JsonWriter* w);
// A whole response holding only the description: {"<member>": {…}} ("Table" or "TableDescription").
void WriteTableDescriptionResponse(const char* member, const TableDescription& description, JsonWriter* w);
// DeleteTable's response: {"TableDescription": {…}} with only what DynamoDB shows of a table being deleted
// (name, status, ARN, id, counts, throughput, billing mode), no schema, creation time or indexes.
void WriteDeletedTableResponse(const TableDescription& description, JsonWriter* w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_TABLE_DESCRIPTION_JSON_H_
