#include "engine/partiql/batch_execute_statement.h"

#include <algorithm>
#include <set>

#include "engine/model/attribute_value_json.h"
#include "engine/partiql/execute_statement.h"
#include "engine/partiql/pinned_key.h"
#include "engine/partiql/statement_projection.h"
#include "engine/partiql/statement_write.h"
#include "engine/read/get_item.h"
#include "engine/storage/item_key.h"

namespace dynapage {

namespace {

// Keeps the item a write's RETURNING gives.
class ItemKeeper : public ItemSink {
 public:
  void AddJson(std::string_view item_json) override {
    AttributeMap item;
    if (DecodeStoredAttributeMap(item_json, &item)) item_ = std::move(item);
  }
  void AddItem(const AttributeMap& item) override { item_ = item; }
  std::optional<AttributeMap> item_;
};

// Execution failures name the table; refusals of the statement itself do not.
bool EchoesTable(ErrorCode code) {
  return code == ErrorCode::kConditionalCheckFailed || code == ErrorCode::kDuplicateItem ||
         code == ErrorCode::kTransactionConflict;
}

void Fail(const Status& status, const std::string& table, BatchStatementResponse* response) {
  response->error_code = PartiqlErrorCode(status.code());
  response->error_message = status.message();
  if (EchoesTable(status.code()) && !table.empty()) response->table_name = table;
}

}  // namespace

const char* PartiqlErrorCode(ErrorCode code) {
  switch (code) {
    case ErrorCode::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case ErrorCode::kDuplicateItem:
      return "DuplicateItem";
    case ErrorCode::kResourceNotFound:
      return "ResourceNotFound";
    case ErrorCode::kTransactionConflict:
      return "TransactionConflict";
    case ErrorCode::kInternal:
      return "InternalServerError";
    default:
      return "ValidationError";
  }
}

Status BatchExecuteStatement(Database& db, const RequestContext& ctx, const std::vector<BatchStatementRequest>& batch,
                             std::vector<BatchStatementResponse>* responses, std::vector<ConsumedCapacity>* capacity) {
  const Catalog& catalog = db.catalog();
  std::vector<PartiqlStatement> statements(batch.size());
  std::vector<Status> parsed(batch.size());
  bool reads = false, writes = false;
  for (size_t i = 0; i < batch.size(); i++) {
    parsed[i] = ParsePartiql(batch[i].statement, &statements[i]);
    if (parsed[i].ok()) parsed[i] = CheckParameterCount(statements[i], batch[i].parameters);
    if (!parsed[i].ok()) continue;
    (statements[i].is_read() ? reads : writes) = true;
  }
  if (reads && writes) {
    return Status::Validation("Read and write requests together in the same batch is not supported.");
  }
  // One statement per item, reads included.
  std::set<std::string> items;
  for (size_t i = 0; i < batch.size(); i++) {
    if (!parsed[i].ok()) continue;
    std::string table;
    AttributeMap key;
    if (statements[i].is_read()) {
      bool key_only = false;
      PartiqlKeyRead read;
      if (!PrepareKeyRead(catalog, statements[i], batch[i].parameters, &key_only, &read).ok() || !key_only) continue;
      table = read.table_name;
      key = std::move(read.key);
    } else {
      PartiqlWrite write;
      if (!PrepareStatementWrite(catalog, statements[i], batch[i].parameters, &write).ok()) continue;
      std::shared_ptr<const TableDefinition> definition = catalog.FindTable(write.table_name);
      if (!definition) continue;
      table = write.table_name;
      key = KeyOf(definition->key, write.item_or_key);
    }
    if (!items.insert(table + '\0' + EncodeAttributeMap(key)).second) {
      return Status::Validation("Provided list of item keys contains duplicates");
    }
  }

  responses->assign(batch.size(), BatchStatementResponse());
  // Writes that failed their condition are charged, in the total of their table's entry but on no arm; a table
  // whose statements all failed gets no entry.
  std::vector<ConsumedCapacity> failed_writes;
  for (size_t i = 0; i < batch.size(); i++) {
    BatchStatementResponse& response = (*responses)[i];
    if (!parsed[i].ok()) {
      Fail(parsed[i], "", &response);
      continue;
    }
    const PartiqlStatement& s = statements[i];
    if (s.is_read()) {
      bool key_only = false;
      PartiqlKeyRead read;
      Status status = PrepareKeyRead(catalog, s, batch[i].parameters, &key_only, &read);
      if (status.ok() && !key_only) {
        status = Status::Validation(
            "Select statements within BatchExecuteStatement must specify the primary key in the where clause.");
      }
      GetItemResult got;
      if (status.ok()) {
        GetItemRequest get;
        get.table_name = read.table_name;
        get.key = std::move(read.key);
        get.consistent_read = batch[i].consistent_read;
        get.projection_expression = read.projection_expression;
        get.expression_inputs = std::move(read.inputs);
        status = GetItem(catalog, ctx, get, &got);
      }
      if (!status.ok()) {
        Fail(status, read.table_name, &response);
        continue;
      }
      response.table_name = read.table_name;
      if (got.item) response.item = s.projection.empty() ? *got.item : PartiqlProjectedItem(s.projection, *got.item);
      AddCapacity(got.capacity, 1, capacity);
      continue;
    }
    ExecuteStatementRequest request;
    request.statement = batch[i].statement;
    request.parameters = batch[i].parameters;
    ItemKeeper keeper;
    ExecuteStatementResult result;
    Status status = ExecuteParsedStatement(db, ctx, s, request, &keeper, &result);
    if (!status.ok()) {
      Fail(status, result.table_name, &response);
      if (result.failed_write_units > 0) {
        ConsumedCapacity charge;
        charge.table_name = result.table_name;
        charge.is_read = false;
        charge.unattributed_units = result.failed_write_units;
        failed_writes.push_back(std::move(charge));
      }
      continue;
    }
    response.table_name = result.table_name;
    response.item = std::move(keeper.item_);
    for (const ConsumedCapacity& c : result.capacity) AddCapacity(c, 1, capacity);
  }
  for (const ConsumedCapacity& charge : failed_writes) {
    bool has_entry = std::any_of(capacity->begin(), capacity->end(),
                                 [&](const ConsumedCapacity& c) { return c.table_name == charge.table_name; });
    if (has_entry) AddCapacity(charge, 1, capacity);
  }
  return Status::OK();
}

}  // namespace dynapage
