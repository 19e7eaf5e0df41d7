// Single-item writes: PutItem and DeleteItem (UpdateItem is engine/write/update_item.h; GetItem is
// engine/read/get_item.h).
//
// Requests arrive decoded and type-checked (AttributeValues validated); these functions do DynamoDB's
// operation-level checks in its order (ReturnValues, expressions, item size, then table lookup, then the key
// against the schema), apply the write atomically with its index entries under its condition, and report what
// ReturnValues and ReturnConsumedCapacity ask for.

#ifndef DYNAPAGE_ENGINE_WRITE_ITEM_OPERATIONS_H_
#define DYNAPAGE_ENGINE_WRITE_ITEM_OPERATIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/expressions/projection.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/write/write_path.h"

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
  // On ConditionalCheckFailed: the write units of the attempt, which DynamoDB charges all the same.
  double failed_write_units = 0;
};

Status PutItem(WritePath& write_path, const RequestContext& ctx, const PutItemRequest& request,
               WriteItemResult* result);
Status DeleteItem(WritePath& write_path, const RequestContext& ctx, const DeleteItemRequest& request,
                  WriteItemResult* result);

// The parts of PutItem and DeleteItem that TransactWriteItems shares: each checks the request as the operation
// does (all but ReturnValues) and builds the write, whose mutator checks the condition under the writer lock.
// REQUIRES: request outlives *write.
Status PreparePutItem(WritePath& write_path, const PutItemRequest& request, ItemWrite* write);
Status PrepareDeleteItem(WritePath& write_path, const DeleteItemRequest& request, ItemWrite* write);

// Applies one prepared write and reports its capacity. On ConditionalCheckFailed, when return_old_item_on_failure,
// result->condition_failure_item is the item as it was (if there was one). *applied is the write with old_item
// and new_item filled in.
Status ApplySingleWrite(WritePath& write_path, const RequestContext& ctx, ItemWrite write,
                        bool return_old_item_on_failure, WriteItemResult* result, ItemWrite* applied);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_ITEM_OPERATIONS_H_
