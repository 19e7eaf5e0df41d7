#include "engine/read/get_item.h"

#include <set>

#include "engine/base/messages.h"
#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/expression_parser.h"
#include "engine/storage/item_key.h"
#include "engine/storage/table_items.h"

namespace dynapage {

Status PrepareItemProjection(const std::optional<std::string>& projection_expression,
                             const std::optional<std::vector<std::string>>& attributes_to_get,
                             const ExpressionInputs& inputs, std::optional<Projection>* out) {
  out->reset();
  if (projection_expression && attributes_to_get) {
    return Status::Validation(
        "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
        "{AttributesToGet} Expression parameters: {ProjectionExpression}");
  }
  const ExpressionNameMap* names = inputs.names ? &*inputs.names : nullptr;
  if (names && !projection_expression) {
    return Status::Validation(ExpressionAttributes::NamesWithoutExpressionsMessage());
  }
  DP_RETURN_IF_ERROR(ExpressionAttributes::ValidateNames(names));
  std::vector<DocumentPath> paths;
  if (projection_expression) {
    ExpressionAttributes attrs(names, nullptr);
    DP_RETURN_IF_ERROR(ParseProjection(*projection_expression, &attrs, &paths));
    DP_RETURN_IF_ERROR(attrs.CheckAllUsed());
  } else if (attributes_to_get) {
    std::set<std::string> seen;
    for (const auto& a : *attributes_to_get) {
      if (!seen.insert(a).second) {
        return Status::Validation("One or more parameter values were invalid: Duplicate value in attribute name: " + a);
      }
      paths.push_back(DocumentPath{PathElement::Name(a)});
    }
  } else {
    return Status::OK();
  }
  out->emplace(paths);
  return Status::OK();
}

Status GetItem(const Catalog& catalog, const RequestContext& ctx, const GetItemRequest& request,
               GetItemResult* result) {
  std::optional<Projection> projection;
  DP_RETURN_IF_ERROR(PrepareItemProjection(request.projection_expression, request.attributes_to_get,
                                           request.expression_inputs, &projection));
  auto table = catalog.FindTable(request.table_name);
  if (!table) return Status::NotFound(kResourceNotFound);
  DP_RETURN_IF_ERROR(ValidateKey(table->key, request.key));
  AttributeMap item;
  bool found = false;
  uint64_t size = 0;
  DP_RETURN_IF_ERROR(ReadTableItem(catalog.storage(), *table, request.key, &item, &found, &size));
  result->capacity = ConsumedCapacity();
  result->capacity.table_name = table->name;
  result->capacity.table_units = ReadUnits(found ? size : 0, request.consistent_read);
  if (found) result->item = projection ? projection->Apply(item) : std::move(item);
  return Status::OK();
}

}  // namespace dynapage
