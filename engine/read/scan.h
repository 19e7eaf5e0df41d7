// Scan: one page of a whole table or index in DynamoDB's order — ascending partition hash, then sort key —
// or of one parallel-scan segment, a contiguous range of that hash (docs/behaviour.md §6, §2, §3).

#ifndef DYNAPAGE_ENGINE_READ_SCAN_H_
#define DYNAPAGE_ENGINE_READ_SCAN_H_

#include "engine/base/request_context.h"
#include "engine/catalog/catalog.h"
#include "engine/read/page_reader.h"
#include "engine/read/read_request.h"

namespace dynapage {

constexpr int64_t kMaxTotalSegments = 1000000;

struct ScanRequest : ReadRequest {
  std::optional<int64_t> segment;
  std::optional<int64_t> total_segments;
};

// Streams the page's items to sink (nothing for Select=COUNT) and fills *result.
Status Scan(const Catalog& catalog, const RequestContext& ctx, const ScanRequest& request, ItemSink* sink,
            ReadResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_SCAN_H_
