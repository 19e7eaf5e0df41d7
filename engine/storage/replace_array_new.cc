// The dynapage executable's operator new[] and delete[]: arrays through AllocateArray, so that RocksDB's memtable
// blocks get huge pages (engine/storage/memtable_pages.h). A replacement of the global operators is linked into
// the executable itself (CMakeLists.txt), never into a sanitized build, whose runtime replaces them to check them.

#include <atomic>
#include <cstdlib>
#include <new>

#include "engine/storage/memtable_pages.h"

namespace {

std::atomic<size_t> large_array_bytes{0};

}  // namespace

void* operator new[](std::size_t n) {
  void* array = dynapage::AllocateArray(n, &large_array_bytes);
  if (array == nullptr) throw std::bad_alloc();
  return array;
}

void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return dynapage::AllocateArray(n, &large_array_bytes);
}

void operator delete[](void* array) noexcept { std::free(array); }
void operator delete[](void* array, std::size_t) noexcept { std::free(array); }
void operator delete[](void* array, const std::nothrow_t&) noexcept { std::free(array); }
