#include "engine/write/update_item.h"

#include "engine/base/messages.h"

#include <memory>

#include "engine/expressions/expression_ast.h"
#include "engine/expressions/projection.h"
#include "engine/expressions/update_evaluator.h"
#include "engine/storage/item_key.h"

namespace dynapage {

namespace {

// The index-key checks of ValidateItemKeys, with DynamoDB's UpdateItem wording for an empty key value.
Status CheckIndexKeys(const TableDefinition& table, const AttributeMap& item) {
  Status s = ValidateItemKeys(table, item);
  if (s.ok() || (s.detail() != ErrorDetail::kEmptyKeyValue && s.detail() != ErrorDetail::kEmptyIndexKeyValue)) return s;
  return Status::Validation(
      "One or more parameter values are not valid. The update expression attempted to update a secondary index key "
      "to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string "
      "value.");
}

// Appends the paths an update value reads.
void CollectOperandPaths(const UpdateOperand& operand, std::vector<const DocumentPath*>* paths) {
  if (operand.kind == UpdateOperand::Kind::kPath) paths->push_back(&operand.path);
  for (const UpdateOperand& arg : operand.args) CollectOperandPaths(arg, paths);
}

// Key attributes are scalars, so a path into one ("pk.x", "gsi_key[0]") is refused wherever the update has it.
Status CheckKeyPaths(const TableDefinition& table, const UpdateExpr& update,
                     const std::vector<DocumentPath>& targets) {
  std::vector<const DocumentPath*> paths;
  for (const DocumentPath& p : targets) paths.push_back(&p);
  for (const SetAction& set : update.set_actions) {
    CollectOperandPaths(set.left, &paths);
    CollectOperandPaths(set.right, &paths);
  }
  for (const DocumentPath* p : paths) {
    if (p->size() < 2) continue;
    const std::string& root = (*p)[0].name;
    const char* kind = nullptr;
    if (table.key.IsKeyAttribute(root)) {
      kind = "Key";
    } else {
      for (const auto& index : table.indexes) {
        if (index.key.IsKeyAttribute(root)) kind = "IndexKey";
      }
    }
    if (kind) {
      return Status::Validation(
          std::string("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: ") +
          kind + ": " + root);
    }
  }
  return Status::OK();
}

// The current validation framework's cost of an update statement, beyond the bytes it writes (dialects.md §1.2.3,
// measured by a third-party test against the captured 409,581/409,582 edge): 3, plus 19 per SET or ADD action
// (1 more when a SET goes through a list index) and 2 per REMOVE or DELETE action.
size_t UpdateStatementCost(const UpdateExpr& update) {
  size_t cost = 3 + 19 * (update.set_actions.size() + update.add_actions.size()) +
                2 * (update.remove_actions.size() + update.delete_actions.size());
  for (const SetAction& set : update.set_actions) {
    for (const PathElement& element : set.path) {
      if (element.is_index) {
        cost++;
        break;
      }
    }
  }
  return cost;
}

// The size the current framework checks an updated item by: the bytes of the attributes the statement names
// (written) plus the statement's cost, when that exceeds the item's own size.
size_t StatementSize(const AttributeMap& item, const KeySchema& key, const UpdateExpr& update, size_t cost) {
  auto named = [&update](const std::string& name) {
    for (const SetAction& a : update.set_actions) {
      if (a.path[0].name == name) return true;
    }
    for (const AddAction& a : update.add_actions) {
      if (a.path[0].name == name) return true;
    }
    for (const DeleteAction& a : update.delete_actions) {
      if (a.path[0].name == name) return true;
    }
    for (const DocumentPath& p : update.remove_actions) {
      if (p[0].name == name) return true;
    }
    return false;
  };
  size_t written = 0;
  for (const auto& [name, value] : item) {
    if (!key.IsKeyAttribute(name) && named(name)) written += name.size() + ValueSize(value);
  }
  return written + cost;
}

}  // namespace

Status PrepareUpdateItem(WritePath& write_path, const UpdateItemRequest& request, ItemWrite* write,
                         std::vector<DocumentPath>* targets, bool statement_sized) {
  WriteCondition condition = request.condition;
  auto update = std::make_shared<UpdateExpr>();
  DP_RETURN_IF_ERROR(PrepareWriteExpressions(request.expression_inputs, true, request.update_expression,
                                             request.attribute_updates.has_value(), &condition, update.get()));
  UpdateDialect dialect = UpdateDialect::kExpression;
  if (request.attribute_updates) {
    DP_RETURN_IF_ERROR(ConvertAttributeUpdates(*request.attribute_updates, update.get()));
    dialect = UpdateDialect::kAttributeUpdates;
  }
  auto table = write_path.catalog().FindTable(request.table_name);
  if (!table) return Status::NotFound(kResourceNotFound);
  DP_RETURN_IF_ERROR(ValidateKey(table->key, request.key));
  targets->clear();
  CollectUpdateTargets(*update, targets);
  for (const DocumentPath& path : *targets) {
    if (table->key.IsKeyAttribute(path[0].name)) {
      return Status::Validation("One or more parameter values were invalid: Cannot update attribute " +
                                path[0].name + ". This attribute is part of the key");
    }
  }
  DP_RETURN_IF_ERROR(CheckKeyPaths(*table, *update, *targets));
  write->table = table;
  write->storage_key = TableItemKey(*table, request.key);
  const AttributeMap& key = request.key;
  // An update that only removes (REMOVE, DELETE) leaves a missing item missing; SET, ADD or no action at all
  // creates it (docs/behaviour.md).
  const bool only_removes = update->set_actions.empty() && update->add_actions.empty() &&
                            (!update->remove_actions.empty() || !update->delete_actions.empty());
  const size_t statement_cost = statement_sized ? UpdateStatementCost(*update) : 0;
  write->mutate = [condition, update, dialect, &key, table, only_removes, statement_cost](
                      const AttributeMap* current, std::optional<AttributeMap>* next) {
    DP_RETURN_IF_ERROR(condition.Check(current));
    if (current == nullptr && only_removes) return Status::OK();
    AttributeMap item = current ? *current : key;
    DP_RETURN_IF_ERROR(ApplyUpdate(*update, dialect, &item));
    if (ItemSize(item) > kMaxItemSize ||
        (statement_cost && StatementSize(item, table->key, *update, statement_cost) > kMaxItemSize)) {
      return Status::Validation("Item size to update has exceeded the maximum allowed size");
    }
    DP_RETURN_IF_ERROR(CheckIndexKeys(*table, item));
    *next = std::move(item);
    return Status::OK();
  };
  return Status::OK();
}

Status UpdateItem(WritePath& write_path, const RequestContext& ctx, const UpdateItemRequest& request,
                  WriteItemResult* result) {
  ItemWrite write, applied;
  std::vector<DocumentPath> targets;
  const bool current_framework = ctx.cohorts.framework == Dialect::kNew;
  DP_RETURN_IF_ERROR(PrepareUpdateItem(write_path, request, &write, &targets, current_framework));
  if (current_framework) DP_RETURN_IF_ERROR(CheckExpressionValueNesting(request.expression_inputs));
  DP_RETURN_IF_ERROR(ApplySingleWrite(write_path, ctx, std::move(write), request.condition.return_old_item_on_failure,
                                      result, &applied));
  const std::optional<AttributeMap>& old_item = applied.old_item;
  const std::optional<AttributeMap>& new_item = applied.new_item;
  std::optional<AttributeMap> attributes;
  switch (request.return_values) {
    case ReturnValues::kNone:
      break;
    case ReturnValues::kAllOld:
      attributes = old_item;
      break;
    case ReturnValues::kAllNew:
      attributes = new_item;
      break;
    case ReturnValues::kUpdatedOld:
      if (old_item) attributes = ProjectItem(*old_item, targets);
      break;
    case ReturnValues::kUpdatedNew:
      if (new_item) attributes = ProjectItem(*new_item, targets);
      break;
  }
  if (attributes && attributes->empty()) attributes.reset();
  result->attributes = std::move(attributes);
  return Status::OK();
}

}  // namespace dynapage
