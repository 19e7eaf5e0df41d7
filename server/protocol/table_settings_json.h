// The members of a table description that show its settings (engine/model/table_settings.h) as DynamoDB's
// DescribeTable does: TableClassSummary, SSEDescription, OnDemandThroughput and WarmThroughput, of the table and
// of each GSI. Each writes nothing where DynamoDB's description has no such member.

#ifndef DYNAPAGE_SERVER_PROTOCOL_TABLE_SETTINGS_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_TABLE_SETTINGS_JSON_H_

#include "engine/base/request_context.h"
#include "engine/catalog/catalog.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

// The table's own settings, as members of the open description object.
void WriteTableSettingsMembers(const TableDescription& d, JsonWriter* w);
// A GSI's OnDemandThroughput and WarmThroughput, as members of its open object.
void WriteIndexSettingsMembers(const TableDescription& d, const IndexDefinition& index, JsonWriter* w);
// Marks in d the settings still settling under the context's transient-status delay (warm throughput raised,
// encryption changed): UPDATING.
void ApplySettingsTransientStatus(const RequestContext& ctx, TableDescription* d);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_TABLE_SETTINGS_JSON_H_
