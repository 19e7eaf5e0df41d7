// Replica auto scaling on the wire (UpdateTableReplicaAutoScaling, UpdateGlobalTableSettings): an
// AutoScalingSettingsUpdate read into AutoScalingSettings, and AutoScalingSettingsDescription written from them.
// The settings are stored and reported; nothing is scaled (docs/global-tables.md).

#ifndef DYNAPAGE_SERVER_PROTOCOL_AUTO_SCALING_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_AUTO_SCALING_JSON_H_

#include <optional>
#include <string>

#include "engine/model/attribute_value_json.h"
#include "engine/model/global_table_membership.h"
#include "engine/model/table_definition.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// The update in member of r (absent: *out empty), applied over current; path names it in constraint messages; a
// scaling policy without a name gets default_policy. ValidationException for units without a scaling policy, or a
// minimum above the maximum.
Status ReadAutoScalingUpdate(const RequestReader& r, const char* member, const std::string& path,
                             const AutoScalingSettings& current, const std::string& default_policy,
                             std::optional<AutoScalingSettings>* out, ConstraintErrors* errors);

// {MinimumUnits, MaximumUnits, AutoScalingDisabled, AutoScalingRoleArn, ScalingPolicies}; never configured:
// {AutoScalingDisabled: true, ScalingPolicies: []}.
void WriteAutoScalingDescription(const AutoScalingSettings& s, JsonWriter* w);

// DescribeTableReplicaAutoScaling's TableAutoScalingDescription of a 2019.11.21 replica: every replica of its
// group, this one included, with the table's and each global index's read and write settings.
void WriteTableAutoScalingDescription(const TableDefinition& table, JsonWriter* w);
// {"TableAutoScalingDescription": {…}}: the answer of Describe- and UpdateTableReplicaAutoScaling.
void WriteTableAutoScalingResponse(const TableDefinition& table, JsonWriter* w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_AUTO_SCALING_JSON_H_
