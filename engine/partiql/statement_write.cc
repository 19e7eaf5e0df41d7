#include "engine/partiql/statement_write.h"

#include <memory>
#include <utility>

#include "engine/base/messages.h"
#include "engine/partiql/partiql_expressions.h"
#include "engine/partiql/pinned_key.h"
#include "engine/write/update_item.h"

namespace dynapage {

namespace {

ReturnValues ReturnValuesOf(PartiqlReturning r) {
  switch (r) {
    case PartiqlReturning::kNone:
      return ReturnValues::kNone;
    case PartiqlReturning::kAllOld:
      return ReturnValues::kAllOld;
    case PartiqlReturning::kAllNew:
      return ReturnValues::kAllNew;
    case PartiqlReturning::kModifiedOld:
      return ReturnValues::kUpdatedOld;
    case PartiqlReturning::kModifiedNew:
      return ReturnValues::kUpdatedNew;
  }
  return ReturnValues::kNone;
}

}  // namespace

Status PrepareStatementWrite(const Catalog& catalog, const PartiqlStatement& s,
                             const std::vector<AttributeValue>& parameters, PartiqlWrite* out) {
  std::shared_ptr<const TableDefinition> table = catalog.FindTable(s.table);
  if (!table) return Status::NotFound(kResourceNotFound);
  out->kind = s.kind;
  out->table_name = table->name;
  PartiqlExpressionBuilder b(parameters);
  const KeySchema& schema = table->key;
  if (s.kind == PartiqlStatement::Kind::kInsert) {
    for (const auto& [name, operand] : s.item) out->item_or_key[name] = b.ValueOf(operand);
    std::vector<const KeyAttribute*> keys = {&schema.hash};
    if (schema.range) keys.push_back(&*schema.range);
    for (const KeyAttribute* k : keys) {
      auto it = out->item_or_key.find(k->name);
      if (it == out->item_or_key.end()) {
        return Status::Validation("Key attribute should be present in the item: Key " + k->name);
      }
      if (it->second.type != k->type) {
        return Status::Validation("Key attribute's data type should match its data type in table's schema: Key " +
                                  k->name);
      }
    }
    out->condition_expression = "attribute_not_exists(" + b.Name(schema.hash.name) + ")";
    out->inputs = b.TakeInputs();
    return Status::OK();
  }
  std::vector<const PartiqlCondition*> rest;
  DP_RETURN_IF_ERROR(PinnedKey(schema, s, parameters, &out->item_or_key, &rest));
  Status status;
  std::string extra = JoinConditions(&b, rest, &status);
  DP_RETURN_IF_ERROR(status);
  auto pk = [&]() { return b.Name(schema.hash.name); };
  auto wrapped = [&]() {
    return rest.size() == 1 && (rest[0]->kind == PartiqlCondition::Kind::kOr) ? "(" + extra + ")" : extra;
  };
  switch (s.kind) {
    case PartiqlStatement::Kind::kUpdate: {
      // Not an upsert: the item must exist, and the rest of the clause hold.
      std::string update;
      DP_RETURN_IF_ERROR(b.Update(s, &update));
      out->update_expression = update;
      out->condition_expression = "attribute_exists(" + pk() + ")" + (extra.empty() ? "" : " AND " + wrapped());
      break;
    }
    case PartiqlStatement::Kind::kExists:
      if (extra.empty())
        return Status::Validation("EXISTS() must contain a single item read with additional condition");
      out->condition_expression = "attribute_exists(" + pk() + ")" + " AND " + wrapped();
      break;
    default:
      // DELETE of a missing item is no error; of an item that fails the rest of the clause, it is.
      if (!extra.empty()) out->condition_expression = "attribute_not_exists(" + pk() + ") OR (" + extra + ")";
      break;
  }
  out->return_values = ReturnValuesOf(s.returning);
  out->inputs = b.TakeInputs();
  return Status::OK();
}

Status ExecuteStatementWrite(Database& db, const RequestContext& ctx, const PartiqlStatement& s,
                             const ExecuteStatementRequest& request, ItemSink* sink, ExecuteStatementResult* result) {
  PartiqlWrite write;
  DP_RETURN_IF_ERROR(PrepareStatementWrite(db.catalog(), s, request.parameters, &write));
  result->table_name = write.table_name;
  // What PutItem, UpdateItem and DeleteItem take alike; an INSERT returns nothing and never the old item.
  auto fill = [&](auto* r) {
    r->table_name = write.table_name;
    r->condition.expression = write.condition_expression;
    r->expression_inputs = std::move(write.inputs);
    if (write.kind == PartiqlStatement::Kind::kInsert) return;
    r->return_values = write.return_values;
    r->condition.return_old_item_on_failure = request.return_old_item_on_failure;
  };
  WriteItemResult w;
  Status status;
  switch (write.kind) {
    case PartiqlStatement::Kind::kInsert: {
      PutItemRequest put;
      fill(&put);
      put.item = std::move(write.item_or_key);
      status = PutItem(db.writes(), ctx, put, &w);
      if (status.code() == ErrorCode::kConditionalCheckFailed) {
        status = Status::Error(ErrorCode::kDuplicateItem, "Duplicate primary key exists in table");
      }
      break;
    }
    case PartiqlStatement::Kind::kUpdate: {
      UpdateItemRequest update;
      fill(&update);
      update.key = std::move(write.item_or_key);
      update.update_expression = write.update_expression;
      status = UpdateItem(db.writes(), ctx, update, &w);
      break;
    }
    default: {
      DeleteItemRequest del;
      fill(&del);
      del.key = std::move(write.item_or_key);
      status = DeleteItem(db.writes(), ctx, del, &w);
      break;
    }
  }
  if (!status.ok()) {
    result->condition_failure_item = std::move(w.condition_failure_item);
    result->failed_write_units = w.failed_write_units;
    return status;
  }
  AddCapacity(w.capacity, 1, &result->capacity);
  if (w.attributes && !w.attributes->empty()) sink->AddItem(*w.attributes);
  return Status::OK();
}

}  // namespace dynapage
