#include "engine/read/scan.h"

#include "engine/base/messages.h"
#include "engine/read/read_plan.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
Status CheckSegments(const ScanRequest& r) {
  if (r.segment && !r.total_segments) {
    return Status::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment parameter is present");
  }
  if (r.total_segments && !r.segment) {
    return Status::Validation(
        "The Segment parameter is required but was not present in the request when parameter TotalSegments is present");
  }
  if (r.segment && *r.segment >= *r.total_segments) {
    return Status::Validation(
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: " +
        std::to_string(*r.segment) + " is not less than TotalSegments: " + std::to_string(*r.total_segments));
  }
  return Status::OK();
}
}  // namespace

Status Scan(const Catalog& catalog, const RequestContext& ctx, const ScanRequest& request, ItemSink* sink,
            ReadResult* result) {
  DP_RETURN_IF_ERROR(CheckSegments(request));
  ReadPlan plan;
  DP_RETURN_IF_ERROR(PrepareRead(catalog, request, ReadKind::kScan, nullptr, nullptr, &plan));
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
