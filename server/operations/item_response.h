// Helpers shared by the single-item writes (PutItem, UpdateItem, DeleteItem): the request members they all have
// and their answer.
//
// A handler reads its own members first (TableName, then Item, Key, UpdateExpression…), then the shared ones with
// ReadWriteItemMembers(); it collects its own constraint violations and the shared ones (CheckWriteItemMembers()),
// calls the engine, and ends with AnswerWriteItem().

#ifndef DYNAPAGE_SERVER_PROTOCOL_ITEM_RESPONSE_H_
#define DYNAPAGE_SERVER_PROTOCOL_ITEM_RESPONSE_H_

#include <optional>
#include <string>

#include "engine/read/get_item.h"
#include "engine/write/item_operations.h"
#include "engine/write/transactions.h"
#include "server/protocol/consumed_capacity_json.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

struct WriteItemMembers {
  std::optional<std::string> return_values;
  std::optional<std::string> return_consumed_capacity;
  std::optional<std::string> return_item_collection_metrics;
  std::optional<std::string> return_on_failure;  // ReturnValuesOnConditionCheckFailure
};

// Reads ReturnValues, ReturnConsumedCapacity, ReturnItemCollectionMetrics, the condition (ConditionExpression,
// Expected, ConditionalOperator, ReturnValuesOnConditionCheckFailure) and ExpressionAttributeNames/Values.
Status ReadWriteItemMembers(const RequestReader& r, WriteItemMembers* members, WriteCondition* condition,
                            ExpressionInputs* inputs);

// Adds the enum violations of those members.
// is_update: UpdateItem, which reports an invalid ReturnValues alone.
void CheckWriteItemMembers(const WriteItemMembers& members, const WriteCondition& condition, bool is_update,
                           ConstraintErrors* errors);

ReturnValues ParseReturnValues(const std::optional<std::string>& value);

// Ends a handler: on success writes the response (Attributes, ConsumedCapacity, ItemCollectionMetrics of the
// item's collection in table_name, item_or_key being its Item or Key); on failure returns status, with the old
// item of a failed condition ("Item": {…}) in the error body when the request asked for it.
Status AnswerWriteItem(const Status& status, const WriteItemResult& result, const WriteItemMembers& members,
                       const std::string& table_name, const AttributeMap& item_or_key, OperationContext* ctx);

// ReturnItemCollectionMetrics SIZE: a table with local secondary indexes has item collections, and a write
// answers the one it touched, {"ItemCollectionKey": {<partition key>}, "SizeEstimateRangeGB": [0.0, 1.0]}
// (dynapage does not estimate collection sizes; the range is DynamoDB's smallest). Writes nothing when the
// table has no LSI or item_or_key lacks the partition key.
bool WantsItemCollectionMetrics(const std::optional<std::string>& return_item_collection_metrics);
std::shared_ptr<const TableDefinition> TableWithItemCollections(const Catalog& catalog, const std::string& name);
void WriteItemCollectionMetrics(const TableDefinition& table, const AttributeMap& item_or_key, JsonWriter* w);
// BatchWriteItem's and TransactWriteItems' member, "ItemCollectionMetrics": {<table>: [<metrics>, …]}, from the
// writes' (table name, item or key) in request order; only tables with item collections appear, and nothing
// is written when none does.
void WriteItemCollectionMetricsMap(const Catalog& catalog,
                                   const std::vector<std::pair<std::string, AttributeMap>>& writes, JsonWriter* w);

// The error member of a TransactionCanceledException (TransactWriteItems, TransactGetItems, ExecuteTransaction):
// "CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed","Message":"…","Item":{…}}]
std::string CancellationReasonsMember(const std::vector<CancellationReason>& reasons);

// The model's length constraint on a write transaction's ClientRequestToken (1 to 36 characters), for
// TransactWriteItems and ExecuteTransaction.
void CheckClientRequestToken(const std::optional<std::string>& token, ConstraintErrors* errors);

// The whole answer of a transaction that reads (TransactGetItems, ExecuteTransaction): {"Responses": [{"Item":
// {…}}, {} where there is no item, …], then "ConsumedCapacity" as return_consumed_capacity asks}.
void WriteTransactionItemsResponse(const std::vector<std::optional<AttributeMap>>& items,
                                   const std::vector<ConsumedCapacity>& capacity,
                                   const std::optional<std::string>& return_consumed_capacity, JsonWriter* w);

// A request's parameters as canonical text, for a ClientRequestToken's check: an SDK retrying a call sends the
// same JSON.
std::string JsonFingerprint(const rapidjson::Value& request);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_ITEM_RESPONSE_H_
