#include "engine/item_operations.h"

#include <set>

#include "engine/expression_attributes.h"
#include "engine/expression_parser.h"
#include "engine/item_key.h"

namespace dynapage {

namespace {
const char kNotFound[] = "Requested resource not found";

// What ReturnValues of a Put or Delete yields: the old item for ALL_OLD, when there was one.
std::optional<AttributeMap> OldItemIfAsked(ReturnValues rv, const std::optional<AttributeMap>& old_item) {
  if (rv == ReturnValues::kAllOld && old_item) return old_item;
  return std::nullopt;
}

Status RunSingleWrite(Database& db, ItemWrite write, ReturnValues rv, WriteItemResult* result) {
  std::vector<ItemWrite> writes;
  writes.push_back(std::move(write));
  std::vector<Status> statuses;
  Status s = db.ApplyWrites(&writes, &statuses);
  const ItemWrite& w = writes[0];
  if (!s.ok()) return s;
  result->attributes = OldItemIfAsked(rv, w.old_item);
  result->capacity = WriteCapacity(*w.table, w.old_item ? &*w.old_item : nullptr,
                                   w.new_item ? &*w.new_item : nullptr);
  return Status::OK();
}
}  // namespace

Status PutItem(Database& db, const PutItemRequest& request, WriteItemResult* result) {
  if (request.return_values != ReturnValues::kNone && request.return_values != ReturnValues::kAllOld) {
    return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  if (ItemSize(request.item) > kMaxItemSize) {
    return Status::Validation("Item size has exceeded the maximum allowed size");
  }
  auto table = db.FindTable(request.table_name);
  if (!table) return Status::NotFound(kNotFound);
  DP_RETURN_IF_ERROR(ValidateItemKeys(*table, request.item));
  ItemWrite write;
  write.table = table;
  write.key = KeyOf(table->key, request.item);
  const AttributeMap& item = request.item;
  write.mutate = [&item](const AttributeMap*, std::optional<AttributeMap>* next) {
    *next = item;
    return Status::OK();
  };
  return RunSingleWrite(db, std::move(write), request.return_values, result);
}

Status DeleteItem(Database& db, const DeleteItemRequest& request, WriteItemResult* result) {
  if (request.return_values != ReturnValues::kNone && request.return_values != ReturnValues::kAllOld) {
    return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  auto table = db.FindTable(request.table_name);
  if (!table) return Status::NotFound(kNotFound);
  DP_RETURN_IF_ERROR(ValidateKey(table->key, request.key));
  ItemWrite write;
  write.table = table;
  write.key = request.key;
  write.mutate = [](const AttributeMap*, std::optional<AttributeMap>* next) {
    next->reset();
    return Status::OK();
  };
  return RunSingleWrite(db, std::move(write), request.return_values, result);
}

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
    DP_RETURN_IF_ERROR(attrs.CheckAllUsed(false));
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

Status GetItem(Database& db, const GetItemRequest& request, GetItemResult* result) {
  std::optional<Projection> projection;
  DP_RETURN_IF_ERROR(PrepareItemProjection(request.projection_expression, request.attributes_to_get,
                                           request.expression_inputs, &projection));
  auto table = db.FindTable(request.table_name);
  if (!table) return Status::NotFound(kNotFound);
  DP_RETURN_IF_ERROR(ValidateKey(table->key, request.key));
  AttributeMap item;
  bool found = false;
  uint64_t size = 0;
  DP_RETURN_IF_ERROR(db.GetItem(*table, request.key, &item, &found, &size));
  result->capacity = ConsumedCapacity();
  result->capacity.table_name = table->name;
  result->capacity.table_units = ReadUnits(found ? size : 0, request.consistent_read);
  if (found) result->item = projection ? projection->Apply(item) : std::move(item);
  return Status::OK();
}

}  // namespace dynapage
