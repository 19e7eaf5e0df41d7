// Scan: one page of a whole table or index, or of one parallel-scan segment.

#include "engine/read/scan.h"
#include "server/operations/operation_table.h"

#include "server/operations/read_operation.h"

namespace dynapage {

Status HandleScan(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ScanRequest request;
  std::optional<std::string> capacity;
  ConstraintErrors errors;
  DP_RETURN_IF_ERROR(r.GetInteger("Segment", &request.segment));
  DP_RETURN_IF_ERROR(r.GetInteger("TotalSegments", &request.total_segments));
  DP_RETURN_IF_ERROR(ReadCommonReadMembers(r, "ScanFilter", &ctx.context.cohorts, &request, &capacity, &errors));
  if (request.segment && *request.segment < 0) {
    errors.AddRaw(
        CohortText(ctx.context.cohorts, CohortTextId::kScanSegmentBelowZero, std::to_string(*request.segment)));
  }
  errors.CheckMax(request.segment, "segment", kMaxTotalSegments - 1);
  errors.CheckMin(request.total_segments, "totalSegments", 1);
  errors.CheckMax(request.total_segments, "totalSegments", kMaxTotalSegments);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  return WriteReadResponse(ctx, request, ParseCapacityDetail(capacity), [&](ItemSink* sink, ReadResult* result) {
    return Scan(ctx.db.catalog(), ctx.context, request, sink, result);
  });
}

}  // namespace dynapage
