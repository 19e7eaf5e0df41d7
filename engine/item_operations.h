// Single-item operations: PutItem, GetItem, DeleteItem.
//
// Requests arrive decoded and type-checked (AttributeValues validated); these functions do DynamoDB's
// operation-level checks in its order (item size, then table lookup, then the key against the schema), apply
// the write atomically with its index entries, and report what ReturnValues and ReturnConsumedCapacity ask for.

#ifndef DYNAPAGE_ENGINE_ITEM_OPERATIONS_H_
#define DYNAPAGE_ENGINE_ITEM_OPERATIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/consumed_capacity.h"
#include "engine/database.h"
#include "engine/projection.h"
#include "engine/status.h"
#include "engine/write_condition.h"

namespace dynapage {

enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

struct PutItemRequest {
  std::string table_name;
  AttributeMap item;
  ReturnValues return_values = ReturnValues::kNone;
  WriteCondition condition;
  ExpressionInputs expression_inputs;
};

struct DeleteItemRequest {
  std::string table_name;
  AttributeMap key;
  ReturnValues return_values = ReturnValues::kNone;
  WriteCondition condition;
  ExpressionInputs expression_inputs;
};

struct WriteItemResult {
  std::optional<AttributeMap> attributes;  // what ReturnValues asked for, when there is something to return
  ConsumedCapacity capacity;
  // On ConditionalCheckFailed with ReturnValuesOnConditionCheckFailure=ALL_OLD: the item as it was.
  std::optional<AttributeMap> condition_failure_item;
};

Status PutItem(Database& db, const PutItemRequest& request, WriteItemResult* result);
Status DeleteItem(Database& db, const DeleteItemRequest& request, WriteItemResult* result);

struct GetItemRequest {
  std::string table_name;
  AttributeMap key;
  bool consistent_read = false;
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  ExpressionInputs expression_inputs;
};

struct GetItemResult {
  std::optional<AttributeMap> item;
  ConsumedCapacity capacity;
};

Status GetItem(Database& db, const GetItemRequest& request, GetItemResult* result);

// The projection of a GetItem or BatchGetItem request (ProjectionExpression or AttributesToGet), with
// DynamoDB's checks; *out stays empty when the request asks for every attribute.
Status PrepareItemProjection(const std::optional<std::string>& projection_expression,
                             const std::optional<std::vector<std::string>>& attributes_to_get,
                             const ExpressionInputs& inputs, std::optional<Projection>* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_ITEM_OPERATIONS_H_
