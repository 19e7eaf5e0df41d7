#include "engine/storage/memtable_pages.h"

#include <sys/mman.h>

#include <cstdlib>

namespace dynapage {

void* AllocateArray(size_t n, std::atomic<size_t>* large_bytes) {
  if (n < kMemtableBlockBytes) return std::malloc(n == 0 ? 1 : n);
  if (large_bytes->fetch_add(n, std::memory_order_relaxed) < kSmallPageBlockBytes) return std::malloc(n);
  // Whole huge pages: a huge page is used only where the advised range covers all of it, and a block whose end
  // shared a huge page with other memory would leave that page small.
  size_t rounded = (n + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  void* block = std::aligned_alloc(kHugePageBytes, rounded);
  // Advice only: where THP is off (or the call is refused) the block stays in small pages, as any other memory.
  if (block != nullptr) madvise(block, rounded, MADV_HUGEPAGE);
  return block;
}

}  // namespace dynapage
