// GetItem: one item by its key, with an optional projection.
//
// Requests arrive decoded and type-checked; GetItem makes DynamoDB's checks in its order (projection and
// expression names, then the table, then the key against the schema) and reads the item as stored now.

#ifndef DYNAPAGE_ENGINE_READ_GET_ITEM_H_
#define DYNAPAGE_ENGINE_READ_GET_ITEM_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/catalog/consumed_capacity.h"
#include "engine/expressions/projection.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

struct GetItemRequest {
  std::string table_name;
  AttributeMap key;
  bool consistent_read = false;
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  ExpressionInputs expression_inputs;
};

struct GetItemResult {
  std::optional<AttributeMap> item;
  ConsumedCapacity capacity;
};

Status GetItem(const Catalog& catalog, const RequestContext& ctx, const GetItemRequest& request,
               GetItemResult* result);

// The projection of a GetItem or BatchGetItem request (ProjectionExpression or AttributesToGet), with
// DynamoDB's checks; *out stays empty when the request asks for every attribute.
Status PrepareItemProjection(const std::optional<std::string>& projection_expression,
                             const std::optional<std::vector<std::string>>& attributes_to_get,
                             const ExpressionInputs& inputs, std::optional<Projection>* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_GET_ITEM_H_
