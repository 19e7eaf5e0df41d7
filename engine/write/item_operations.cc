#include "engine/write/item_operations.h"

#include <algorithm>

#include "engine/base/messages.h"
#include "engine/expressions/expression_ast.h"
#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/expression_parser.h"
#include "engine/storage/item_key.h"

namespace dynapage {

Status ApplySingleWrite(WritePath& write_path, const RequestContext& ctx, ItemWrite write,
                        bool return_old_item_on_failure, WriteItemResult* result, ItemWrite* applied) {
  std::vector<ItemWrite> writes;
  writes.push_back(std::move(write));
  std::vector<Status> statuses;
  Status s = write_path.ApplyWrites(ctx, &writes, &statuses);
  *applied = std::move(writes[0]);
  if (!s.ok()) {
    if (s.code() == ErrorCode::kConditionalCheckFailed) {
      result->failed_write_units = WriteUnits(std::max<uint64_t>(applied->old_size, applied->put_size.value_or(0)));
      if (return_old_item_on_failure) result->condition_failure_item = applied->old_item;
    }
    return s;
  }
  result->capacity = WriteCapacity(*applied->table, applied->old_item ? &*applied->old_item : nullptr,
                                   applied->old_size, applied->new_item ? &*applied->new_item : nullptr,
                                   applied->new_size);
  return Status::OK();
}

Status PreparePutItem(WritePath& write_path, const PutItemRequest& request, ItemWrite* write) {
  WriteCondition condition = request.condition;
  DP_RETURN_IF_ERROR(PrepareWriteExpressions(request.expression_inputs, false, std::nullopt, false, &condition,
                                             nullptr));
  size_t size = ItemSize(request.item);
  if (size > kMaxItemSize) return Status::Validation("Item size has exceeded the maximum allowed size");
  auto table = write_path.catalog().FindTable(request.table_name);
  if (!table) return Status::NotFound(kResourceNotFound);
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

Status PrepareDeleteItem(WritePath& write_path, const DeleteItemRequest& request, ItemWrite* write) {
  WriteCondition condition = request.condition;
  DP_RETURN_IF_ERROR(PrepareWriteExpressions(request.expression_inputs, false, std::nullopt, false, &condition,
                                             nullptr));
  auto table = write_path.catalog().FindTable(request.table_name);
  if (!table) return Status::NotFound(kResourceNotFound);
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
Status RunOldItemWrite(WritePath& write_path, const RequestContext& ctx, const Request& request, Prepare prepare,
                       WriteItemResult* result) {
  if (request.return_values != ReturnValues::kNone && request.return_values != ReturnValues::kAllOld) {
    return Status::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  ItemWrite write, applied;
  DP_RETURN_IF_ERROR(prepare(write_path, request, &write));
  DP_RETURN_IF_ERROR(ApplySingleWrite(write_path, ctx, std::move(write), request.condition.return_old_item_on_failure,
                                      result, &applied));
  if (request.return_values == ReturnValues::kAllOld) result->attributes = applied.old_item;
  return Status::OK();
}
}  // namespace

Status PutItem(WritePath& write_path, const RequestContext& ctx, const PutItemRequest& request,
               WriteItemResult* result) {
  return RunOldItemWrite(write_path, ctx, request, PreparePutItem, result);
}

Status DeleteItem(WritePath& write_path, const RequestContext& ctx, const DeleteItemRequest& request,
                  WriteItemResult* result) {
  return RunOldItemWrite(write_path, ctx, request, PrepareDeleteItem, result);
}

}  // namespace dynapage
