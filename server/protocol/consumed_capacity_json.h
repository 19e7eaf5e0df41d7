// ReturnConsumedCapacity: reading the request member and writing the ConsumedCapacity response member.
//
// TOTAL gives {"TableName","CapacityUnits"}; INDEXES adds "Table" and per-index "GlobalSecondaryIndexes" /
// "LocalSecondaryIndexes" (docs/behaviour.md §7.3). NONE (the default) writes nothing.

#ifndef DYNAPAGE_SERVER_PROTOCOL_CONSUMED_CAPACITY_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_CONSUMED_CAPACITY_JSON_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/consumed_capacity.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

enum class CapacityDetail { kNone, kTotal, kIndexes };

CapacityDetail ParseCapacityDetail(const std::optional<std::string>& value);

// Writes the ConsumedCapacity object (no key).
void WriteConsumedCapacityObject(const ConsumedCapacity& capacity, CapacityDetail detail, JsonWriter* w);
// Writes "ConsumedCapacity": {…} unless detail is kNone.
void WriteConsumedCapacityMember(const ConsumedCapacity& capacity, CapacityDetail detail, JsonWriter* w);
// Writes "ConsumedCapacity": [{…}, …] (batch operations, transactions) unless detail is kNone.
void WriteConsumedCapacityList(const std::vector<ConsumedCapacity>& capacities, CapacityDetail detail, JsonWriter* w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_CONSUMED_CAPACITY_JSON_H_
