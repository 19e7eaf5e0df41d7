// Memtable pages: RocksDB's memtable in 2 MiB pages once it grows.
//
// RocksDB's memtable takes its memory in arena blocks of Options::arena_block_size, each one `new char[]`, and
// every item written is copied into the current block. In 4 KiB pages, each new page of a growing memtable is a
// page fault, and every lookup of its skip list a walk over pages the TLB does not hold. Measured on a 2-core VM
// where a fault costs ~17 us: loading 100,000 items took ~8,000 faults, a third of the load's CPU.
//
// So the executable replaces operator new[] with AllocateArray (engine/storage/replace_array_new.cc, linked into
// the dynapage executable only, never into a sanitized build): an array of kMemtableBlockBytes or more is aligned
// to 2 MiB and marked MADV_HUGEPAGE, so that the kernel backs it with transparent huge pages (when THP is
// "always" or "madvise"; "never" leaves it in small pages, as before). The first kSmallPageBlockBytes of such arrays stay in
// small pages: an idle server's first memtable block would otherwise be resident whole, 2 MiB at start-up.
//
// Thread-safe. Memory from AllocateArray is given back with free().

#ifndef DYNAPAGE_ENGINE_STORAGE_MEMTABLE_PAGES_H_
#define DYNAPAGE_ENGINE_STORAGE_MEMTABLE_PAGES_H_

#include <atomic>
#include <cstddef>

namespace dynapage {

// An x86-64 transparent huge page.
constexpr size_t kHugePageBytes = size_t{2} << 20;

// Options::arena_block_size: one huge page.
constexpr size_t kMemtableBlockBytes = kHugePageBytes;

// How many bytes of large arrays a process allocates in small pages before the next ones get huge pages.
constexpr size_t kSmallPageBlockBytes = size_t{4} << 20;

// Allocates n bytes (malloc's alignment) for an array. Arrays of kMemtableBlockBytes or more are counted in
// *large_bytes; once it has passed kSmallPageBlockBytes they are 2 MiB aligned and advised as huge pages.
// Returns nullptr when out of memory.
void* AllocateArray(size_t n, std::atomic<size_t>* large_bytes);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_MEMTABLE_PAGES_H_
