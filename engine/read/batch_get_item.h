// BatchGetItem: up to 100 items by key, across tables.
//
// Every table and key is checked before anything is read (DynamoDB's order: projections, then tables, then
// keys, duplicates refused). Items are read one by one; once the response passes 16 MB the remaining keys are
// returned as UnprocessedKeys, as DynamoDB does, and so are those the request's policies leave (page chaos, a
// fault rule's "unprocessed" share).

#ifndef DYNAPAGE_ENGINE_READ_BATCH_GET_ITEM_H_
#define DYNAPAGE_ENGINE_READ_BATCH_GET_ITEM_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

constexpr size_t kMaxBatchGetKeys = 100;
constexpr uint64_t kMaxBatchGetResponseBytes = 16 * 1024 * 1024;

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

Status BatchGetItem(const Catalog& catalog, const RequestContext& ctx, const BatchGetRequest& request,
                    BatchGetResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_BATCH_GET_ITEM_H_
