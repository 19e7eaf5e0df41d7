#include "engine/item_operations.h"

#include <set>

#include "engine/expression_ast.h"
#include "engine/expression_attributes.h"
#include "engine/expression_parser.h"
#include "engine/item_key.h"

namespace dynapage {

namespace {
const char kNotFound[] = "Requested resource not found";
}  // namespace

Status ApplySingleWrite(Database& db, ItemWrite write, bool return_old_item_on_failure, WriteItemResult* result,
                        ItemWrite* applied) {
  std::vector<ItemWrite> writes;
  writes.push_back(std::move(write));
  std::vector<Status> statuses;
  Status s = db.ApplyWrites(&writes, &statuses);
  *applied = std::move(writes[0]);
  if (!s.ok()) {
    if (s.code() == ErrorCode::kConditionalCheckFailed && return_old_item_on_failure) {
      result->condition_failure_item = applied->old_item;
    }
    return s;
  }
  result->capacity = WriteCapacity(*applied->table, applied->old_item ? &*applied->old_item : nullptr,
                                   applied->old_size, applied->new_item ? &*applied->new_item : nullptr,
                                   applied->new_size);
  return Status::OK();
}

Status PreparePutItem(Database& db, const PutItemRequest& request, ItemWrite* write) {
  WriteCondition condition = request.condition;
  DP_RETURN_IF_ERROR(PrepareWriteExpressions(request.expression_inputs, false, std::nullopt, false, &condition,
                                             nullptr));
  size_t size = ItemSize(request.item);
  if (size > kMaxItemSize) return Status::Validation("Item size has exceeded the maximum allowed size");
  auto table = db.FindTable(request.table_name);
  if (!table) return Status::NotFound(kNotFound);
  DP_RETURN_IF_ERROR(ValidateItemKeys(*table, request.item));
  write->table = table;
  write->storage_key = TableItemKey(*table, request.item);
  write->put_size = size;
  const AttributeMap& item = request.item;
  write->mutate = [condition, &item](const AttributeMap* current, std::optional<AttributeMap>* next) {
    DP_RETURN_IF_ERROR(condition.Check(current));
    *next = item;
    return Status::OK();
  };
  return Status::OK();
}

Status PrepareDeleteItem(Database& db, const DeleteItemRequest& request, ItemWrite* write) {
  WriteCondition condition = request.condition;
  DP_RETURN_IF_ERROR(PrepareWriteExpressions(request.expression_inputs, false, std::nullopt, false, &condition,
                                             nullptr));
  auto table = db.FindTable(request.table_name);
  if (!table) return Status::NotFound(kNotFound);
  DP_RETURN_IF_ERROR(ValidateKey(table->key, request.key));
  write->table = table;
  write->storage_key = TableItemKey(*table, request.key);
  write->mutate = [condition](const AttributeMap* current, std::optional<AttributeMap>* next) {
    DP_RETURN_IF_ERROR(condition.Check(current));
    next->reset();
    return Status::OK();
  };
  return Status::OK();
}

namespace {
// PutItem and DeleteItem after their preparation: both accept only ALL_OLD and NONE, and return the old item.
template <typename Request, typename Prepare>
Status RunOldItemWrite(Database& db, const Request& request, Prepare prepare, WriteItemResult* result) {
  if (request.return_values != ReturnValues::kNone && request.return_values != ReturnValues::kAllOld) {
    return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  ItemWrite write, applied;
  DP_RETURN_IF_ERROR(prepare(db, request, &write));
  DP_RETURN_IF_ERROR(
      ApplySingleWrite(db, std::move(write), request.condition.return_old_item_on_failure, result, &applied));
  if (request.return_values == ReturnValues::kAllOld) result->attributes = applied.old_item;
  return Status::OK();
}
}  // namespace

Status PutItem(Database& db, const PutItemRequest& request, WriteItemResult* result) {
  return RunOldItemWrite(db, request, PreparePutItem, result);
}

Status DeleteItem(Database& db, const DeleteItemRequest& request, WriteItemResult* result) {
  return RunOldItemWrite(db, request, PrepareDeleteItem, result);
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
