// DescribeBulkOperation: a bulk operation's state and progress (engine/transfer/bulk_operations.h).

#include "server/operations/bulk_members.h"
#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleDescribeBulkOperation(OperationContext& ctx) {
  std::string arn;
  DP_RETURN_IF_ERROR(ReadBulkOperationArn(RequestReader(ctx.request), &arn));
  BulkOperations* bulk = nullptr;
  DP_RETURN_IF_ERROR(BulkOperationsOf(ctx, &bulk));
  BulkOperationRecord record;
  DP_RETURN_IF_ERROR(bulk->Describe(ctx.db, arn, &record));
  ctx.response.StartObject();
  WriteBulkOperationDescription(record, ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

}  // namespace dynapage
