// Transactions: TransactWriteItems and TransactGetItems.
//
// TransactWriteItems runs up to 100 actions (Put, Update, Delete, ConditionCheck), each on a different item, as
// one Database::ApplyWrites call: every condition and update is evaluated under the one writer lock and all the
// writes land in one batch, so all apply or none does, and no reader sees part of a transaction. Each action is
// checked as its single-item operation checks it (engine/item_operations.h, engine/update_item.h). A failure that
// depends only on the request is that operation's error; a failure under the lock (a condition, or an update
// that does not fit the stored item) cancels the whole transaction with TransactionCanceledException
//   "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]"
// and one reason per action: Code None, ConditionalCheckFailed (Message "The conditional request failed", and the
// stored item when ReturnValuesOnConditionCheckFailure=ALL_OLD) or ValidationError (with the message).
// Other refusals: "Transaction request cannot include multiple operations on one item"; the 100-action limit in
// the constraint form of TransactItemsLimitMessage().
//
// A ClientRequestToken makes a call idempotent for 10 minutes (engine/client_token_cache.h): the same token with
// the same request (equal fingerprints) answers success again without writing; with another request,
// IdempotentParameterMismatchException.
//
// TransactGetItems reads up to 100 items (with optional projections) from one snapshot of the store.
// Both report twice the capacity of the equivalent single-item calls (reads strongly consistent); a ConditionCheck
// counts as a write of the item it checks.

#ifndef DYNAPAGE_ENGINE_TRANSACTIONS_H_
#define DYNAPAGE_ENGINE_TRANSACTIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/consumed_capacity.h"
#include "engine/database.h"
#include "engine/status.h"
#include "engine/write_condition.h"

namespace dynapage {

constexpr size_t kMaxTransactionActions = 100;

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

Status TransactWriteItems(Database& db, const TransactWriteRequest& request, TransactWriteResult* result);

struct TransactGetAction {
  std::string table_name;
  AttributeMap key;
  std::optional<std::string> projection_expression;
  ExpressionInputs expression_inputs;
};

struct TransactGetResult {
  std::vector<std::optional<AttributeMap>> items;  // one per action; empty where there is no item
  std::vector<ConsumedCapacity> capacity;          // by table
};

Status TransactGetItems(Database& db, const std::vector<TransactGetAction>& actions, TransactGetResult* result);

// The constraint violation of too many actions, without the "1 validation error detected: " prefix: "Value
// '[com.amazonaws.dynamodb.v20120810.TransactWriteItem@10000001, …]' at 'transactItems' failed to satisfy
// constraint: Member must have length less than or equal to 100". DynamoDB prints the Java objects of the
// request; item_type is "TransactWriteItem" or "TransactGetItem".
std::string TransactItemsLimitMessage(const char* item_type, size_t count);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSACTIONS_H_
