#include "engine/read/scan.h"

#include "engine/base/message_cohorts.h"
#include "engine/base/messages.h"
#include "engine/read/read_plan.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
Status CheckSegments(const ScanRequest& r, const MessageCohorts& cohorts) {
  if (r.segment && !r.total_segments) {
    return Status::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment parameter is present");
  }
  if (r.total_segments && !r.segment) {
    return Status::Validation(
        "The Segment parameter is required but was not present in the request when parameter TotalSegments is present");
  }
  if (r.segment && *r.segment >= *r.total_segments) {
    return Status::Validation(CohortText(cohorts, CohortTextId::kScanSegmentNotLess, std::to_string(*r.segment),
                                         std::to_string(*r.total_segments)));
  }
  return Status::OK();
}

// The errors of the shared read checks that Scan's cohorts word their own way.
Status InScanCohortWording(const MessageCohorts& cohorts, Status status) {
  switch (status.detail()) {
    case ErrorDetail::kBaseScanStartKeyNotSchema:
      return Status::Validation(CohortText(cohorts, CohortTextId::kScanStartKeyNotSchema));
    case ErrorDetail::kSpecificAttributesWithoutProjection:
      return Status::Validation(CohortText(cohorts, CohortTextId::kScanSpecificAttributes));
    default:
      return status;
  }
}
}  // namespace

Status Scan(const Catalog& catalog, const RequestContext& ctx, const ScanRequest& request, ItemSink* sink,
            ReadResult* result) {
  DP_RETURN_IF_ERROR(CheckSegments(request, ctx.cohorts));
  ReadPlan plan;
  Status prepared = PrepareRead(catalog, request, ReadKind::kScan, nullptr, nullptr, &plan);
  if (!prepared.ok()) return InScanCohortWording(ctx.cohorts, std::move(prepared));
  uint32_t keyspace = plan.index ? plan.index->keyspace : plan.table->keyspace;

  PageSpec spec;
  if (request.total_segments) {
    uint32_t segment = static_cast<uint32_t>(*request.segment);
    uint32_t total = static_cast<uint32_t>(*request.total_segments);
    SegmentBounds(keyspace, segment, total, &spec.lower, &spec.upper);
    if (plan.start_storage_key && SegmentOfHash(HashOfKey(*plan.start_storage_key), total) != segment) {
      return Status::Validation(
          std::string(kInvalidStartKeyPrefix) + "Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct "
          "Segment. TotalSegments: " + std::to_string(total) + " Segment: " + std::to_string(segment));
    }
  } else {
    spec.lower = KeyspacePrefix(keyspace);
    spec.upper = PrefixSuccessor(spec.lower);
  }
  DP_RETURN_IF_ERROR(CheckIndexSelect(plan, request));
  return ReadPlannedPage(catalog, ctx, plan, request, &spec, sink, result);
}

}  // namespace dynapage
