// Single-item operations: PutItem, GetItem, DeleteItem (UpdateItem is engine/update_item.h).
//
// Requests arrive decoded and type-checked (AttributeValues validated); these functions do DynamoDB's
// operation-level checks in its order (ReturnValues, expressions, item size, then table lookup, then the key
// against the schema), apply the write atomically with its index entries under its condition, and report what
// ReturnValues and ReturnConsumedCapacity ask for.

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

// The parts of PutItem and DeleteItem that TransactWriteItems shares: each checks the request as the operation
// does (all but ReturnValues) and builds the write, whose mutator checks the condition under the writer lock.
// REQUIRES: request outlives *write.
Status PreparePutItem(Database& db, const PutItemRequest& request, ItemWrite* write);
Status PrepareDeleteItem(Database& db, const DeleteItemRequest& request, ItemWrite* write);

// Applies one prepared write and reports its capacity. On ConditionalCheckFailed, when return_old_item_on_failure,
// result->condition_failure_item is the item as it was (if there was one). *applied is the write with old_item
// and new_item filled in.
Status ApplySingleWrite(Database& db, ItemWrite write, bool return_old_item_on_failure, WriteItemResult* result,
                        ItemWrite* applied);

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
