#include "engine/read/transact_get_items.h"

#include <set>

#include "engine/base/messages.h"
#include "engine/read/get_item.h"
#include "engine/storage/item_key.h"
#include "engine/storage/table_items.h"

namespace dynapage {

namespace {
const char kMultipleOperations[] = "Transaction request cannot include multiple operations on one item";
}  // namespace

Status TransactGetItems(const Catalog& catalog, const RequestContext& ctx,
                        const std::vector<TransactGetAction>& actions, TransactGetResult* result) {
  if (actions.size() > kMaxTransactionActions) {
    return Status::Validation(kValidationEnvelope + TransactItemsLimitMessage("TransactGetItem", actions.size()));
  }
  std::vector<std::optional<Projection>> projections(actions.size());
  for (size_t i = 0; i < actions.size(); i++) {
    DP_RETURN_IF_ERROR(PrepareItemProjection(actions[i].projection_expression, std::nullopt,
                                             actions[i].expression_inputs, &projections[i]));
  }
  std::vector<ItemRead> reads(actions.size());
  std::set<std::string> items;
  // A key that fails validation cancels the transaction, with ValidationError as that Get's reason.
  result->cancellation_messages.assign(actions.size(), std::string());
  std::string codes;
  bool any_invalid_key = false;
  for (size_t i = 0; i < actions.size(); i++) {
    auto table = catalog.FindTable(actions[i].table_name);
    if (!table) return Status::NotFound(kResourceNotFound);
    reads[i].table = table;
    reads[i].key = actions[i].key;
    Status key_status = ValidateKey(table->key, actions[i].key);
    codes += std::string(i ? ", " : "") + (key_status.ok() ? "None" : "ValidationError");
    if (!key_status.ok()) {
      result->cancellation_messages[i] = key_status.message();
      any_invalid_key = true;
    }
  }
  if (any_invalid_key) {
    return Status::Error(ErrorCode::kTransactionCanceled,
                         "Transaction cancelled, please refer cancellation reasons for specific reasons [" + codes +
                             "]");
  }
  result->cancellation_messages.clear();
  for (size_t i = 0; i < actions.size(); i++) {
    if (!items.insert(TableItemKey(*reads[i].table, actions[i].key)).second) {
      return Status::Validation(kMultipleOperations);
    }
  }
  DP_RETURN_IF_ERROR(ReadTableItems(catalog.storage(), &reads));
  result->items.assign(actions.size(), std::nullopt);
  result->capacity.clear();
  for (size_t i = 0; i < reads.size(); i++) {
    ConsumedCapacity c;
    c.table_name = reads[i].table->name;
    c.table_units = ReadUnits(reads[i].size, true);
    AddCapacity(c, 2, &result->capacity);
    if (reads[i].item) {
      result->items[i] = projections[i] ? projections[i]->Apply(*reads[i].item) : std::move(*reads[i].item);
    }
  }
  return Status::OK();
}

}  // namespace dynapage
