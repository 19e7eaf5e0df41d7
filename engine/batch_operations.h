// BatchWriteItem and BatchGetItem: up to 25 puts/deletes, up to 100 gets, across tables.
//
// A batch write is applied as one atomic storage batch (stronger than DynamoDB promises, never weaker), so
// nothing is ever left unprocessed. A batch get stops adding items once the response would pass 16 MB and
// returns the rest as UnprocessedKeys, as DynamoDB does.

#ifndef DYNAPAGE_ENGINE_BATCH_OPERATIONS_H_
#define DYNAPAGE_ENGINE_BATCH_OPERATIONS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_value.h"
#include "engine/consumed_capacity.h"
#include "engine/database.h"
#include "engine/wire_item.h"
#include "engine/write_condition.h"

namespace dynapage {

constexpr size_t kMaxBatchWriteRequests = 25;
constexpr size_t kMaxBatchGetKeys = 100;
constexpr uint64_t kMaxBatchGetResponseBytes = 16 * 1024 * 1024;

struct BatchWriteRequest {
  struct Entry {
    bool is_put = true;
    AttributeMap item_or_key;
    // A put's item, when the caller could take it as a WireItem (then item_or_key is empty): it is stored
    // without becoming an AttributeMap unless the table has indexes. REQUIRES: its JSON outlives the call.
    std::optional<WireItem> wire_item;
  };
  // table name -> its requests, in request order of tables
  std::vector<std::pair<std::string, std::vector<Entry>>> tables;
};

struct BatchWriteResult {
  std::vector<ConsumedCapacity> capacity;  // one per table
};

// Takes the request: its items are moved into storage rather than copied.
Status BatchWriteItem(Database& db, BatchWriteRequest request, BatchWriteResult* result);

struct BatchGetRequest {
  struct TableKeys {
    std::string table_name;
    std::vector<AttributeMap> keys;
    bool consistent_read = false;
    std::optional<std::string> projection_expression;
    std::optional<std::vector<std::string>> attributes_to_get;
    ExpressionInputs expression_inputs;
  };
  std::vector<TableKeys> tables;
};

struct BatchGetResult {
  std::vector<std::pair<std::string, std::vector<AttributeMap>>> responses;  // by table, request order
  // Keys not read because the response reached 16 MB, by table.
  std::vector<std::pair<std::string, std::vector<AttributeMap>>> unprocessed;
  std::vector<ConsumedCapacity> capacity;
};

Status BatchGetItem(Database& db, const BatchGetRequest& request, BatchGetResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BATCH_OPERATIONS_H_
