// GetItem: reads one item by key, with an optional projection.

#include "server/operations/item_response.h"
#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleGetItem(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name, capacity;
  std::optional<AttributeMap> key;
  std::optional<bool> consistent;
  GetItemRequest request;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetAttributeMap("Key", &key));
  DP_RETURN_IF_ERROR(r.GetStringList("AttributesToGet", &request.attributes_to_get));
  DP_RETURN_IF_ERROR(r.GetBoolean("ConsistentRead", &consistent));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetString("ProjectionExpression", &request.projection_expression));
  DP_RETURN_IF_ERROR(r.GetExpressionInputs(&request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckItemTableName(table_name);
  if (!key) errors.AddNull("key");
  if (request.attributes_to_get && request.attributes_to_get->empty()) {
    errors.Add("[]", "attributesToGet", "Member must have length greater than or equal to 1");
  }
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.key = std::move(*key);
  request.consistent_read = consistent.value_or(false);
  GetItemResult result;
  DP_RETURN_IF_ERROR(GetItem(ctx.db.catalog(), ctx.context, request, &result));
  JsonWriter& w = ctx.response;
  w.StartObject();
  if (result.item) {
    w.Key("Item");
    WriteAttributeMap(*result.item, &w);
  }
  WriteConsumedCapacityMember(result.capacity, ParseCapacityDetail(capacity), &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
