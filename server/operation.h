// Operations: one handler per DynamoDB operation, each in its own file named after it (put_item.cc, query.cc…).
//
// A handler reads the request body (RequestReader), calls the engine, and writes the whole response object to
// ctx.response. On failure it returns the Status and may leave JSON members for the error body in
// ctx.error_extra (ConditionalCheckFailed's "Item", TransactionCanceled's "CancellationReasons").

#ifndef DYNAPAGE_SERVER_OPERATION_H_
#define DYNAPAGE_SERVER_OPERATION_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "engine/attribute_value_json.h"
#include "engine/database.h"
#include "engine/status.h"

namespace dynapage {

struct OperationContext {
  Database& db;
  const rapidjson::Value& request;
  JsonWriter& response;
  std::string error_extra;
};

using OperationHandler = Status (*)(OperationContext& ctx);

// The handler of an operation name ("PutItem"), or nullptr if dynapage does not implement it.
OperationHandler FindOperation(std::string_view name);

Status HandleCreateTable(OperationContext& ctx);
Status HandleDescribeTable(OperationContext& ctx);
Status HandleListTables(OperationContext& ctx);
Status HandleDeleteTable(OperationContext& ctx);
Status HandlePutItem(OperationContext& ctx);
Status HandleGetItem(OperationContext& ctx);
Status HandleDeleteItem(OperationContext& ctx);
Status HandleBatchWriteItem(OperationContext& ctx);
Status HandleBatchGetItem(OperationContext& ctx);
Status HandleQuery(OperationContext& ctx);
Status HandleScan(OperationContext& ctx);
Status HandleUpdateItem(OperationContext& ctx);
Status HandleTransactWriteItems(OperationContext& ctx);
Status HandleTransactGetItems(OperationContext& ctx);
Status HandleDescribeTimeToLive(OperationContext& ctx);
Status HandleUpdateTimeToLive(OperationContext& ctx);
Status HandleTagResource(OperationContext& ctx);
Status HandleUntagResource(OperationContext& ctx);
Status HandleListTagsOfResource(OperationContext& ctx);
Status HandleDescribeEndpoints(OperationContext& ctx);
Status HandleDescribeLimits(OperationContext& ctx);
Status HandleUpdateTable(OperationContext& ctx);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATION_H_
