// RequestPolicies: what a test bench injects into one request (docs/testing-pagination.md).
//
// The server decides per request, before the operation runs, whether page chaos applies and which share of a
// batch a fault rule leaves unprocessed, and hands the engine the decision here, through RequestContext::policies.
// A null policies pointer (the default) means nothing is injected: that null check is all the hot path pays.
//
// Every random choice of a request is drawn from ChaosDice seeded with the request's own chaos_seed, which the
// server derives from its chaos seed and the request's sequence number: a seed and a sequence of requests
// reproduce the same pages. The choices themselves are all made in engine/read/page_chaos.h.

#ifndef DYNAPAGE_ENGINE_BASE_REQUEST_POLICIES_H_
#define DYNAPAGE_ENGINE_BASE_REQUEST_POLICIES_H_

#include <cstdint>

namespace dynapage {

// splitmix64: small, fast, and good enough for choosing page cuts.
class ChaosDice {
 public:
  explicit ChaosDice(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // A number in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n) { return Next() % n; }
  // True with probability p.
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }

 private:
  uint64_t state_;
};

struct RequestPolicies {
  // Page chaos: cut this request's pages (Query, Scan, ListTables) and batches (BatchGetItem, BatchWriteItem) at
  // random legal points.
  bool page_chaos = false;
  uint64_t chaos_seed = 0;
  // A fault rule's share (0..1] of a batch's requests to leave unprocessed; 0: none.
  double unprocessed = 0;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_REQUEST_POLICIES_H_
