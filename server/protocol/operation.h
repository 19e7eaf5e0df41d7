// The contract between the dispatcher and the operations: one handler per DynamoDB operation, each in its own
// file named after it under server/operations/ (put_item.cc, query.cc…), found by name through the table in
// server/operations/operation_table.h.
//
// A handler reads the request body (RequestReader), calls the engine with ctx.context (the request's
// RequestContext: caller, clock, page limit), and writes the whole response object to ctx.response. On failure it
// returns the Status and may leave JSON members for the error body in ctx.error_extra (ConditionalCheckFailed's
// "Item", TransactionCanceled's "CancellationReasons").

#ifndef DYNAPAGE_SERVER_PROTOCOL_OPERATION_H_
#define DYNAPAGE_SERVER_PROTOCOL_OPERATION_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/database/database_set.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

class BulkOperations;
class TransferJobs;

struct OperationContext {
  Database& db;
  const RequestContext& context;
  const rapidjson::Value& request;
  JsonWriter& response;
  std::string error_extra;
  std::string_view host;  // the host:port the server was reached at (the Host header)
  // Every namespace, for what spans regions (global tables: engine/database/global_tables.h); null in tests that
  // serve one database.
  DatabaseSet* databases = nullptr;
  // The export and import jobs (engine/transfer/transfer_jobs.h); null in tests that serve none.
  TransferJobs* transfers = nullptr;
  // The bulk operations (engine/transfer/bulk_operations.h); null in tests that serve none.
  BulkOperations* bulk_operations = nullptr;
};

using OperationHandler = Status (*)(OperationContext& ctx);
// Finds the handler of an operation name ("PutItem"), or returns nullptr if dynapage does not implement it.
using OperationFinder = OperationHandler (*)(std::string_view name);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_OPERATION_H_
