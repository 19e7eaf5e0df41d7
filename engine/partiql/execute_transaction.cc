#include "engine/partiql/execute_transaction.h"

#include "engine/partiql/execute_statement.h"
#include "engine/partiql/partiql_parser.h"
#include "engine/partiql/pinned_key.h"
#include "engine/partiql/statement_projection.h"
#include "engine/partiql/statement_write.h"
#include "engine/read/transact_get_items.h"

namespace dynapage {

namespace {

Status Refuse(size_t i, const char* what) {
  return Status::Validation("Validation failed in TransactStatements[" + std::to_string(i) + "]: " + what);
}

TransactWriteAction::Kind ActionKind(PartiqlStatement::Kind kind) {
  switch (kind) {
    case PartiqlStatement::Kind::kInsert:
      return TransactWriteAction::Kind::kPut;
    case PartiqlStatement::Kind::kUpdate:
      return TransactWriteAction::Kind::kUpdate;
    case PartiqlStatement::Kind::kDelete:
      return TransactWriteAction::Kind::kDelete;
    default:
      return TransactWriteAction::Kind::kConditionCheck;
  }
}

}  // namespace

Status ExecuteTransaction(Database& db, const RequestContext& ctx, const ExecuteTransactionRequest& request,
                          ExecuteTransactionResult* result) {
  const Catalog& catalog = db.catalog();
  const size_t n = request.statements.size();
  std::vector<PartiqlStatement> statements(n);
  bool reads = false, writes = false;
  for (size_t i = 0; i < n; i++) {
    DP_RETURN_IF_ERROR(ParsePartiql(request.statements[i].statement, &statements[i]));
    DP_RETURN_IF_ERROR(CheckParameterCount(statements[i], request.statements[i].parameters));
    (statements[i].is_read() ? reads : writes) = true;
  }
  if (reads && writes) {
    return Status::Validation(
        "ExecuteTransaction API does not support both read and write operations in the same request.");
  }
  for (size_t i = 0; i < n; i++) {
    const PartiqlStatement& s = statements[i];
    if (s.negated_exists) return Status::Validation("Unsupported operation in transaction.");
    if (s.returning != PartiqlReturning::kNone) {
      return Refuse(i, "RETURNING clause is not supported in ExecuteTransaction.");
    }
    if (s.is_read() && s.index) return Refuse(i, "Reads on indices are not supported within transactions.");
  }
  result->reads = reads;

  if (reads) {
    std::vector<TransactGetAction> actions(n);
    for (size_t i = 0; i < n; i++) {
      bool key_only = false;
      PartiqlKeyRead read;
      DP_RETURN_IF_ERROR(PrepareKeyRead(catalog, statements[i], request.statements[i].parameters, &key_only, &read));
      if (!key_only) {
        return Refuse(i,
                      "Select statements within ExecuteTransaction must specify the primary key in the where clause.");
      }
      actions[i].table_name = read.table_name;
      actions[i].key = std::move(read.key);
      actions[i].projection_expression = read.projection_expression;
      actions[i].expression_inputs = std::move(read.inputs);
    }
    TransactGetResult got;
    Status status = TransactGetItems(catalog, ctx, actions, &got);
    if (!status.ok()) {
      for (const std::string& message : got.cancellation_messages) {
        result->cancellation_reasons.push_back(
            CancellationReason{message.empty() ? "None" : "ValidationError", message, std::nullopt});
      }
      return status;
    }
    result->capacity = std::move(got.capacity);
    for (size_t i = 0; i < n; i++) {
      std::optional<AttributeMap>& item = got.items[i];
      if (item && !statements[i].projection.empty()) item = PartiqlProjectedItem(statements[i].projection, *item);
      result->items.push_back(std::move(item));
    }
    return Status::OK();
  }

  TransactWriteRequest write_request;
  write_request.client_request_token = request.client_request_token;
  write_request.fingerprint = request.fingerprint;
  for (size_t i = 0; i < n; i++) {
    const PartiqlStatement& s = statements[i];
    PartiqlWrite write;
    Status prepared = PrepareStatementWrite(catalog, s, request.statements[i].parameters, &write);
    if (s.kind == PartiqlStatement::Kind::kExists) {
      // The key alone, or no key: PrepareStatementWrite refuses both.
      if (prepared.code() == ErrorCode::kValidation || s.index) {
        return Refuse(i, "EXISTS() must contain a single item read with additional condition");
      }
    }
    DP_RETURN_IF_ERROR(prepared);
    TransactWriteAction action;
    action.kind = ActionKind(s.kind);
    action.table_name = write.table_name;
    action.item_or_key = std::move(write.item_or_key);
    action.update_expression = write.update_expression;
    action.condition.expression = write.condition_expression;
    action.condition.return_old_item_on_failure =
        request.statements[i].return_old_item_on_failure && s.kind != PartiqlStatement::Kind::kInsert;
    action.expression_inputs = std::move(write.inputs);
    write_request.actions.push_back(std::move(action));
  }
  TransactWriteResult written;
  Status status = TransactWriteItems(db.writes(), ctx, write_request, &written);
  result->capacity = std::move(written.capacity);
  if (status.code() == ErrorCode::kTransactionCanceled && !written.cancellation_reasons.empty()) {
    // An INSERT's hidden condition failing means the key exists.
    std::string codes;
    for (size_t i = 0; i < written.cancellation_reasons.size(); i++) {
      CancellationReason& reason = written.cancellation_reasons[i];
      if (i < n && statements[i].kind == PartiqlStatement::Kind::kInsert && reason.code == "ConditionalCheckFailed") {
        reason.code = "ValidationError";
        reason.message = "Duplicate primary key exists in table";
        reason.item.reset();
      }
      codes += (i ? ", " : "") + reason.code;
    }
    result->cancellation_reasons = std::move(written.cancellation_reasons);
    return Status::Error(
        ErrorCode::kTransactionCanceled,
        "Transaction cancelled, please refer cancellation reasons for specific reasons [" + codes + "]");
  }
  return status;
}

}  // namespace dynapage
