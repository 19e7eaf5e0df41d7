// AllocateArray: small arrays as malloc gives them; large ones in small pages until the process has had
// kSmallPageBlockBytes of them, then 2 MiB aligned and advised as huge pages.

#include "engine/storage/memtable_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace dynapage {
namespace {

// The VmFlags of the mapping that holds address, from /proc/self/smaps ("" when none does).
std::string VmFlagsAt(const void* address) {
  uintptr_t at = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

bool AdvisedHuge(const void* address) { return VmFlagsAt(address).find(" hg") != std::string::npos; }

TEST(MemtablePages, SmallArraysAreNotCounted) {
  std::atomic<size_t> large{0};
  void* array = AllocateArray(kMemtableBlockBytes - 1, &large);
  ASSERT_NE(array, nullptr);
  EXPECT_EQ(large.load(), 0u);
  std::free(array);
  void* empty = AllocateArray(0, &large);
  EXPECT_NE(empty, nullptr);
  std::free(empty);
}

TEST(MemtablePages, FirstLargeArraysStayInSmallPages) {
  std::atomic<size_t> large{0};
  void* array = AllocateArray(kMemtableBlockBytes, &large);
  ASSERT_NE(array, nullptr);
  EXPECT_EQ(large.load(), kMemtableBlockBytes);
  EXPECT_FALSE(AdvisedHuge(array)) << VmFlagsAt(array);
  std::free(array);
}

TEST(MemtablePages, LaterLargeArraysAreWholeHugePages) {
  std::atomic<size_t> large{kSmallPageBlockBytes};
  for (size_t n : {kMemtableBlockBytes, kMemtableBlockBytes + 1}) {
    char* array = static_cast<char*>(AllocateArray(n, &large));
    ASSERT_NE(array, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(array) % (size_t{2} << 20), 0u);
    EXPECT_TRUE(AdvisedHuge(array)) << VmFlagsAt(array);
    EXPECT_TRUE(AdvisedHuge(array + n - 1)) << VmFlagsAt(array + n - 1);
    array[0] = 1;
    array[n - 1] = 1;
    std::free(array);
  }
  EXPECT_EQ(large.load(), kSmallPageBlockBytes + 2 * kMemtableBlockBytes + 1);
}

}  // namespace
}  // namespace dynapage
