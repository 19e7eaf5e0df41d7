// The JSON of global tables (docs/global-tables.md): a replica's members of a TableDescription, and the legacy
// (2017.11.29) GlobalTableDescription.

#ifndef DYNAPAGE_SERVER_PROTOCOL_GLOBAL_TABLE_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_GLOBAL_TABLE_JSON_H_

#include <string>

#include "engine/base/request_context.h"
#include "engine/catalog/catalog.h"
#include "engine/database/global_tables.h"
#include "engine/model/attribute_value_json.h"
#include "server/protocol/auto_scaling_json.h"

namespace dynapage {

// The region of a table's ARN ("arn:aws:dynamodb:REGION:…").
std::string RegionOfArn(const std::string& arn);

// With a transient-status delay, a replica added less than the delay ago is CREATING, one deleted DELETING.
void ApplyReplicaTransientStatus(const RequestContext& ctx, TableDescription* description);

// A 2019.11.21 replica's members of its TableDescription: GlobalTableVersion, GlobalTableSettingsReplicationMode,
// Replicas (the other regions, with the statuses of description.replica_status), MultiRegionConsistency (when
// STRONG) and GlobalTableWitnesses. Nothing for a regional table or a 2017.11.29 replica, except the Replicas
// being deleted from a table that has no replica left.
void WriteReplicaMembers(const TableDescription& description, JsonWriter* w);

// {"RegionName": …, "ReplicaStatus": "ACTIVE"} for each region, then the group's name, ARN, creation time and
// status: the GlobalTableDescription of the legacy operations, as the value of the current key.
void WriteGlobalTableDescription(const GlobalTableInfo& info, const char* status, JsonWriter* w);
// {"GlobalTableDescription": {…}}: the answer of CreateGlobalTable, DescribeGlobalTable and UpdateGlobalTable.
void WriteGlobalTableDescriptionResponse(const GlobalTableInfo& info, const char* status, JsonWriter* w);

// DescribeGlobalTableSettings' answer (and UpdateGlobalTableSettings'): {GlobalTableName, ReplicaSettings: one
// entry per replica with its billing mode, capacity units, auto scaling and global indexes}.
void WriteGlobalTableSettingsResponse(const GlobalTableInfo& info, JsonWriter* w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_GLOBAL_TABLE_JSON_H_
