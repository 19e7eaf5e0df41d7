// Metrics: Prometheus text for GET /metrics (docs/testing-pagination.md, "Metrics").
//
// Request counters are kept only when asked (--metrics): requests by operation and status, a latency histogram,
// items and bytes read and written, pages served, continuation tokens issued and followed, faults injected. The
// gauges (tables, items, resident memory) are read when /metrics is asked for, and cost requests nothing.
//
// Thread-safe.

#ifndef DYNAPAGE_SERVER_ADMIN_METRICS_H_
#define DYNAPAGE_SERVER_ADMIN_METRICS_H_

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>
#include <string_view>
#include <utility>

#include "engine/base/request_context.h"
#include "engine/catalog/catalog.h"

namespace dynapage {

// The latency histogram's upper bounds, in seconds.
constexpr std::array<double, 10> kLatencyBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1};

class Metrics {
 public:
  void Record(std::string_view operation, int http_status, double seconds, const RequestCounters& counters,
              bool fault_injected);
  // The exposition text; with counting off (request counters not kept), only the gauges.
  // The gauges add up the tables of every catalog (one per namespace).
  static std::string Text(const Metrics* counting, const std::vector<const Catalog*>& catalogs);
  void Clear();

 private:
  std::string CountersText() const;

  mutable std::mutex mu_;
  // Guarded by mu_.
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  std::array<uint64_t, kLatencyBuckets.size()> buckets_{};
  uint64_t latency_count_ = 0;
  double latency_sum_ = 0;
  uint64_t items_read_ = 0, bytes_read_ = 0, items_written_ = 0, bytes_written_ = 0, items_returned_ = 0;
  uint64_t pages_ = 0, tokens_issued_ = 0, tokens_followed_ = 0, faults_ = 0, chaos_ = 0;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_METRICS_H_
