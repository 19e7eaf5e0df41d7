#include "engine/write/transactions.h"

#include <memory>
#include <set>

#include "engine/base/messages.h"
#include "engine/storage/item_key.h"
#include "engine/write/item_operations.h"
#include "engine/write/update_item.h"

namespace dynapage {

namespace {

const char kMultipleOperations[] = "Transaction request cannot include multiple operations on one item";
// The most a transaction's items may weigh together (DynamoDB's documented 4 MB).
constexpr size_t kMaxTransactionBytes = 4 * 1024 * 1024;

// The single-item request an action is checked as. Prepared writes refer to it, so it lives for the whole call.
struct ActionRequest {
  std::unique_ptr<PutItemRequest> put;
  std::unique_ptr<DeleteItemRequest> del;  // Delete and ConditionCheck
  std::unique_ptr<UpdateItemRequest> update;
};

Status PrepareAction(WritePath& write_path, const TransactWriteAction& a, ActionRequest* request, ItemWrite* write) {
  switch (a.kind) {
    case TransactWriteAction::Kind::kPut:
      request->put = std::make_unique<PutItemRequest>();
      request->put->table_name = a.table_name;
      request->put->item = a.item_or_key;
      request->put->condition = a.condition;
      request->put->expression_inputs = a.expression_inputs;
      return PreparePutItem(write_path, *request->put, write);
    case TransactWriteAction::Kind::kUpdate: {
      request->update = std::make_unique<UpdateItemRequest>();
      request->update->table_name = a.table_name;
      request->update->key = a.item_or_key;
      request->update->update_expression = a.update_expression;
      request->update->condition = a.condition;
      request->update->expression_inputs = a.expression_inputs;
      std::vector<DocumentPath> targets;
      return PrepareUpdateItem(write_path, *request->update, write, &targets);
    }
    case TransactWriteAction::Kind::kDelete:
    case TransactWriteAction::Kind::kConditionCheck:
      request->del = std::make_unique<DeleteItemRequest>();
      request->del->table_name = a.table_name;
      request->del->key = a.item_or_key;
      request->del->condition = a.condition;
      request->del->expression_inputs = a.expression_inputs;
      DP_RETURN_IF_ERROR(PrepareDeleteItem(write_path, *request->del, write));
      if (a.kind == TransactWriteAction::Kind::kConditionCheck) {
        write->check_only = true;
        // A delete's mutator is its condition check followed by the removal: keep the check, keep the item.
        write->mutate = [check = std::move(write->mutate)](const AttributeMap* current,
                                                           std::optional<AttributeMap>* next) {
          std::optional<AttributeMap> removed;
          DP_RETURN_IF_ERROR(check(current, &removed));
          if (current) *next = *current;
          return Status::OK();
        };
      }
      return Status::OK();
  }
  return Status::Internal("unknown transaction action");
}

// Turns the outcome of each action into CancellationReasons; false if some failure is not a cancellation
// reason (then *other is it).
bool CancellationReasons(const std::vector<TransactWriteAction>& actions, const std::vector<ItemWrite>& writes,
                         const std::vector<Status>& statuses, std::vector<CancellationReason>* reasons,
                         Status* other) {
  reasons->clear();
  for (size_t i = 0; i < statuses.size(); i++) {
    const Status& s = statuses[i];
    CancellationReason r;
    if (s.ok()) {
      r.code = "None";
    } else if (s.code() == ErrorCode::kConditionalCheckFailed) {
      r.code = "ConditionalCheckFailed";
      r.message = s.message();
      if (actions[i].condition.return_old_item_on_failure) r.item = writes[i].old_item;
    } else if (s.code() == ErrorCode::kValidation) {
      r.code = "ValidationError";
      r.message = s.message();
    } else {
      *other = s;
      return false;
    }
    reasons->push_back(std::move(r));
  }
  return true;
}

// The checks of an action's key (a Put's item keys) that DynamoDB reports as that action's ValidationError
// cancellation reason, not as an error of the request, except an empty key value (kEmptyKeyValue), which
// fails the request. A missing table is left to PrepareAction.
Status CheckActionKey(const Catalog& catalog, const TransactWriteAction& a) {
  auto table = catalog.FindTable(a.table_name);
  if (!table) return Status::OK();
  return a.kind == TransactWriteAction::Kind::kPut ? ValidateItemKeys(*table, a.item_or_key)
                                                   : ValidateKey(table->key, a.item_or_key);
}

Status Cancelled(const std::vector<CancellationReason>& reasons) {
  std::string codes;
  for (const CancellationReason& r : reasons) codes += (codes.empty() ? "" : ", ") + r.code;
  return Status::Error(ErrorCode::kTransactionCanceled,
                       "Transaction cancelled, please refer cancellation reasons for specific reasons [" + codes + "]");
}

}  // namespace

Status TransactWriteItems(WritePath& write_path, const RequestContext& ctx, const TransactWriteRequest& request,
                          TransactWriteResult* result) {
  const auto& actions = request.actions;
  if (actions.size() > kMaxTransactionActions) {
    return Status::Validation(kValidationEnvelope + TransactItemsLimitMessage("TransactWriteItem", actions.size()));
  }
  result->capacity.clear();
  result->cancellation_reasons.clear();
  size_t aggregate_size = 0;
  for (const TransactWriteAction& a : actions) aggregate_size += ItemSize(a.item_or_key);
  if (aggregate_size > kMaxTransactionBytes) {
    return Status::Validation("Transaction request size has exceeded the maximum allowed size of 4 MB");
  }

  // Held from the token lookup until the outcome is recorded (see client_token_cache.h).
  std::unique_lock<std::mutex> token_lock;
  if (request.client_request_token) {
    token_lock = write_path.client_tokens().Lock();
    const ClientTokenCache::Entry* done =
        write_path.client_tokens().Find(*request.client_request_token, ClientTokenCache::Clock::now());
    if (done) {
      if (done->fingerprint != request.fingerprint) {
        return Status::Error(ErrorCode::kIdempotentParameterMismatch,
                             "Request with the same ClientRequestToken has already been processed with different "
                             "parameters");
      }
      result->capacity = done->capacity;
      return Status::OK();
    }
  }

  std::vector<ActionRequest> requests(actions.size());
  std::vector<ItemWrite> writes(actions.size());
  std::set<std::string> items;
  std::vector<Status> invalid_keys(actions.size());
  bool any_invalid_key = false;
  for (size_t i = 0; i < actions.size(); i++) {
    invalid_keys[i] = CheckActionKey(write_path.catalog(), actions[i]);
    // An empty string or binary key value fails the whole request up front, as in the single-item operations.
    if (invalid_keys[i].detail() == ErrorDetail::kEmptyKeyValue) return invalid_keys[i];
    if (!invalid_keys[i].ok()) {
      any_invalid_key = true;
      continue;
    }
    DP_RETURN_IF_ERROR(PrepareAction(write_path, actions[i], &requests[i], &writes[i]));
    if (!items.insert(writes[i].storage_key).second) {
      return Status::Validation(kMultipleOperations);
    }
  }
  if (any_invalid_key) {
    Status other;
    if (!CancellationReasons(actions, writes, invalid_keys, &result->cancellation_reasons, &other)) return other;
    return Cancelled(result->cancellation_reasons);
  }

  std::vector<Status> statuses;
  Status s = write_path.ApplyWrites(ctx, &writes, &statuses);
  if (!s.ok()) {
    bool any_failed = false;
    for (const Status& st : statuses) any_failed = any_failed || !st.ok();
    if (!any_failed) return s;
    Status other;
    if (!CancellationReasons(actions, writes, statuses, &result->cancellation_reasons, &other)) return other;
    return Cancelled(result->cancellation_reasons);
  }

  for (size_t i = 0; i < writes.size(); i++) {
    const ItemWrite& w = writes[i];
    const AttributeMap* old_item = w.old_item ? &*w.old_item : nullptr;
    if (actions[i].kind == TransactWriteAction::Kind::kConditionCheck) {
      ConsumedCapacity c;
      c.table_name = w.table->name;
      c.is_read = false;
      c.table_units = WriteUnits(w.old_size);
      AddCapacity(c, 2, &result->capacity);
    } else {
      AddCapacity(WriteCapacity(*w.table, old_item, w.old_size, w.new_item ? &*w.new_item : nullptr, w.new_size), 2,
                  &result->capacity);
    }
  }
  if (request.client_request_token) {
    write_path.client_tokens().Insert(*request.client_request_token,
                              ClientTokenCache::Entry{request.fingerprint, result->capacity},
                              ClientTokenCache::Clock::now());
  }
  return Status::OK();
}

}  // namespace dynapage
