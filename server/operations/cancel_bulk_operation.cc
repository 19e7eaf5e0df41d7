// CancelBulkOperation: an operation IN_PROGRESS becomes CANCELLING, then CANCELLED at its next batch boundary
// (engine/transfer/bulk_operations.h).

#include "server/operations/bulk_members.h"
#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleCancelBulkOperation(OperationContext& ctx) {
  std::string arn;
  DP_RETURN_IF_ERROR(ReadBulkOperationArn(RequestReader(ctx.request), &arn));
  BulkOperations* bulk = nullptr;
  DP_RETURN_IF_ERROR(BulkOperationsOf(ctx, &bulk));
  std::string status;
  DP_RETURN_IF_ERROR(bulk->Cancel(ctx.db, arn, &status));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("BulkOperationArn");
  w.String(arn);
  w.Key("BulkOperationStatus");
  w.String(status);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
