// UpdateItem: edits one item's attributes with an UpdateExpression (or the legacy AttributeUpdates), creating
// the item when it does not exist, optionally under a condition.
//
// Checks in DynamoDB's order: the expressions and placeholders (engine/expressions/write_condition.h),
// AttributeUpdates, the table, the key, then that no action targets a key attribute ("One or more parameter values were
// invalid: Cannot update attribute pk. This attribute is part of the key") and no path steps into a key attribute ("Key
// attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk", "…:
// IndexKey: g"). Under the writer lock: the condition (against
// the stored item, or no item), the update (engine/expressions/update_evaluator.h), then the result's size ("Item size
// to update has exceeded the maximum allowed size") and index key types. An update with no actions still creates a
// missing item, holding only its key.
//
// ReturnValues: ALL_OLD and ALL_NEW return the whole item before or after; UPDATED_OLD and UPDATED_NEW return
// only what the actions targeted, projected as a ProjectionExpression of the target paths would be ("SET a.b =
// :v" returns {a: {b: …}}). Nothing to return means no Attributes.

#ifndef DYNAPAGE_ENGINE_WRITE_UPDATE_ITEM_H_
#define DYNAPAGE_ENGINE_WRITE_UPDATE_ITEM_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/expressions/attribute_updates.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/document_path.h"
#include "engine/write/item_operations.h"
#include "engine/write/write_path.h"

namespace dynapage {

struct UpdateItemRequest {
  std::string table_name;
  AttributeMap key;
  std::optional<std::string> update_expression;
  std::optional<std::vector<AttributeUpdate>> attribute_updates;
  ReturnValues return_values = ReturnValues::kNone;
  WriteCondition condition;
  ExpressionInputs expression_inputs;
};

Status UpdateItem(WritePath& write_path, const RequestContext& ctx, const UpdateItemRequest& request,
                  WriteItemResult* result);

// The part of UpdateItem that TransactWriteItems shares (see PreparePutItem). *targets receives the paths the
// update targets (for UPDATED_OLD/UPDATED_NEW). statement_sized applies the current validation framework's size
// rule of a standalone UpdateItem (UpdateStatementCost); otherwise the finished item is checked against 400 KB.
// REQUIRES: request outlives *write.
Status PrepareUpdateItem(WritePath& write_path, const UpdateItemRequest& request, ItemWrite* write,
                         std::vector<DocumentPath>* targets, bool statement_sized = false);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_UPDATE_ITEM_H_
