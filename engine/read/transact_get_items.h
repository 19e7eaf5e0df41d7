// TransactGetItems: up to 100 items (with optional projections) read from one snapshot of the store, so that
// no read sees part of a write. It reports twice the capacity of the equivalent GetItems (strongly
// consistent). Refusals: an item named twice ("Transaction request cannot include multiple operations on one
// item"), and the 100-action limit in the constraint form of TransactItemsLimitMessage().

#ifndef DYNAPAGE_ENGINE_READ_TRANSACT_GET_ITEMS_H_
#define DYNAPAGE_ENGINE_READ_TRANSACT_GET_ITEMS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

struct TransactGetAction {
  std::string table_name;
  AttributeMap key;
  std::optional<std::string> projection_expression;
  ExpressionInputs expression_inputs;
};

struct TransactGetResult {
  std::vector<std::optional<AttributeMap>> items;  // one per action; empty where there is no item
  std::vector<ConsumedCapacity> capacity;          // by table
  // On TransactionCanceled (a Get whose key fails validation): one entry per action, empty for the reason
  // None, else the message of its ValidationError.
  std::vector<std::string> cancellation_messages;
};

Status TransactGetItems(const Catalog& catalog, const RequestContext& ctx,
                        const std::vector<TransactGetAction>& actions, TransactGetResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_TRANSACT_GET_ITEMS_H_
