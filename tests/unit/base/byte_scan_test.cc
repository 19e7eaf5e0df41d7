// AnyByteOf finds a byte of the kind wherever it stands (in a 16-byte block, in the overlapping last block,
// in the block of a 4- to 15-byte text's two overlapping halves, in a text shorter than that), at every length,
// and only those bytes: every byte value is tried at every position, high bytes (negative as signed chars) and
// NUL (what the block of a 4- to 7-byte text is padded with) included.

#include "engine/base/byte_scan.h"

#include <gtest/gtest.h>

#include <string>

namespace dynapage {
namespace {

// NUL, 0x1A..0x1F, '"', and 0xF0..0xFF: ranges of one and of several bytes, at both ends of the byte values.
struct TestKind {
  static bool Byte(unsigned char c) { return c == 0 || (c >= 0x1A && c <= 0x1F) || c == '"' || c >= 0xF0; }
#if defined(__SSE2__)
  static __m128i Block(__m128i v) {
    return _mm_or_si128(_mm_or_si128(BytesInRange(v, 0x00, 0x00), BytesInRange(v, 0x1A, 0x1F)),
                        _mm_or_si128(BytesInRange(v, '"', '"'), BytesInRange(v, 0xF0, 0xFF)));
  }
#endif
};

TEST(ByteScanTest, FindsAByteOfTheRangesAtEveryPositionAndLength) {
  for (size_t length = 0; length <= 64; length++) {
    std::string plain(length, 'a');
    ASSERT_FALSE(AnyByteOf<TestKind>(plain)) << length;
    for (size_t at = 0; at < length; at++) {
      for (int c = 0; c < 256; c++) {
        std::string text = plain;
        text[at] = static_cast<char>(c);
        ASSERT_EQ(TestKind::Byte(static_cast<unsigned char>(c)), AnyByteOf<TestKind>(text))
            << "length " << length << ", byte " << c << " at " << at;
      }
    }
  }
}

TEST(ByteScanTest, ReadsNothingOutsideTheText) {
  // The byte that would match stands just past the view's end: it must not be seen.
  std::string buffer = std::string(40, 'a') + '"';
  for (size_t length = 0; length <= 40; length++) {
    EXPECT_FALSE(AnyByteOf<TestKind>(std::string_view(buffer.data() + 40 - length, length))) << length;
  }
}

}  // namespace
}  // namespace dynapage
