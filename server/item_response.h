// Helpers shared by the item operations' request reading and response writing.

#ifndef DYNAPAGE_SERVER_ITEM_RESPONSE_H_
#define DYNAPAGE_SERVER_ITEM_RESPONSE_H_

#include <optional>
#include <string>

#include "engine/item_operations.h"
#include "server/consumed_capacity_json.h"
#include "server/request_reader.h"

namespace dynapage {

ReturnValues ParseReturnValues(const std::optional<std::string>& value);

// Reads ConditionExpression, Expected, ConditionalOperator and ReturnValuesOnConditionCheckFailure.
Status ReadWriteCondition(const RequestReader& r, WriteCondition* condition,
                          std::optional<std::string>* return_on_failure);

// Writes the members of a single-item write response: Attributes, ConsumedCapacity.
void WriteWriteItemResponse(const WriteItemResult& result, CapacityDetail detail, JsonWriter* w);

// The error-body member carrying the old item of a failed condition ("Item": {…}), or "".
std::string ConditionFailureExtra(const WriteItemResult& result);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ITEM_RESPONSE_H_
