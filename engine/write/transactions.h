// TransactWriteItems (TransactGetItems is engine/read/transact_get_items.h).
//
// TransactWriteItems runs up to 100 actions (Put, Update, Delete, ConditionCheck), each on a different item, as
// one WritePath::ApplyWrites call: every condition and update is evaluated under the one writer lock and all the
// writes land in one batch, so all apply or none does, and no reader sees part of a transaction. Each action is
// checked as its single-item operation checks it (engine/write/item_operations.h, engine/write/update_item.h). A
// failure that depends only on the request is that operation's error; a failure under the lock (a condition, or an
// update that does not fit the stored item) cancels the whole transaction with TransactionCanceledException
//   "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]"
// and one reason per action: Code None, ConditionalCheckFailed (Message "The conditional request failed", and the
// stored item when ReturnValuesOnConditionCheckFailure=ALL_OLD) or ValidationError (with the message).
// Other refusals: "Transaction request cannot include multiple operations on one item"; the 100-action limit in
// the constraint form of TransactItemsLimitMessage() (engine/base/messages.h).
//
// A ClientRequestToken makes a call idempotent for 10 minutes (engine/write/client_token_cache.h): the same token with
// the same request (equal fingerprints) answers success again without writing; with another request,
// IdempotentParameterMismatchException.
//
// It reports twice the capacity of the equivalent single-item calls; a ConditionCheck counts as a write of the
// item it checks.

#ifndef DYNAPAGE_ENGINE_WRITE_TRANSACTIONS_H_
#define DYNAPAGE_ENGINE_WRITE_TRANSACTIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/write/write_path.h"

namespace dynapage {

struct TransactWriteAction {
  enum class Kind { kConditionCheck, kPut, kDelete, kUpdate };
  Kind kind = Kind::kPut;
  std::string table_name;
  AttributeMap item_or_key;                      // kPut: the item; otherwise the key
  std::optional<std::string> update_expression;  // kUpdate
  WriteCondition condition;                      // ConditionExpression, ReturnValuesOnConditionCheckFailure
  ExpressionInputs expression_inputs;
};

struct TransactWriteRequest {
  std::vector<TransactWriteAction> actions;
  std::optional<std::string> client_request_token;
  // Identifies the request's parameters for the token check: equal for requests that are the same.
  std::string fingerprint;
};

struct CancellationReason {
  std::string code;                 // "None", "ConditionalCheckFailed", "ValidationError"
  std::string message;              // empty for None
  std::optional<AttributeMap> item;  // ConditionalCheckFailed with ReturnValuesOnConditionCheckFailure=ALL_OLD
};

struct TransactWriteResult {
  std::vector<ConsumedCapacity> capacity;  // by table, in order of first appearance
  // On TransactionCanceled: one reason per action.
  std::vector<CancellationReason> cancellation_reasons;
};

Status TransactWriteItems(WritePath& write_path, const RequestContext& ctx, const TransactWriteRequest& request,
                          TransactWriteResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_TRANSACTIONS_H_
