// AnyByteOf: whether a text holds a byte of some kind, 16 bytes at a time.
//
// JSON text is checked for a few kinds of byte (those a string must escape; those RapidJSON misreads) on every
// request and every string written, most often finding none. Where SSE2 is there (every x86-64 CPU), a text of
// 16 bytes or more is read in 16-byte blocks, the last one overlapping the one before so that no byte past the
// end is read; a text of 4 to 15 bytes as one block made of its first and last 8 (or 4) bytes, which overlap;
// shorter texts, and other CPUs, a byte at a time. Most strings an item holds are short (names, numbers, keys):
// a byte at a time, those cost ~4 instructions a byte.
//
// The kind is a class with two static functions that agree:
//   static bool Byte(unsigned char c);  // c is of the kind
//   static __m128i Block(__m128i v);    // where SSE2 is there: 0xFF in each byte of v that is of the kind

#ifndef DYNAPAGE_ENGINE_BASE_BYTE_SCAN_H_
#define DYNAPAGE_ENGINE_BASE_BYTE_SCAN_H_

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <cstring>
#include <string_view>

namespace dynapage {

template <typename Kind>
bool AnyByteOf(std::string_view text) {
  const char* p = text.data();
  size_t n = text.size();
#if defined(__SSE2__)
  if (n >= 16) {
    auto any = [](const char* at) {
      return _mm_movemask_epi8(Kind::Block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)))) != 0;
    };
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      if (any(p + i)) return true;
    }
    return i < n && any(p + n - 16);
  }
  if (n >= 4) {
    __m128i v;
    int mask = 0xFFFF;
    if (n >= 8) {
      v = _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)),
                             _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + n - 8)));
    } else {
      int first, last;
      std::memcpy(&first, p, 4);
      std::memcpy(&last, p + n - 4, 4);
      v = _mm_unpacklo_epi32(_mm_cvtsi32_si128(first), _mm_cvtsi32_si128(last));
      mask = 0xFF;  // the upper 8 bytes are zeros, not the text's
    }
    return (_mm_movemask_epi8(Kind::Block(v)) & mask) != 0;
  }
#endif
  for (size_t i = 0; i < n; i++) {
    if (Kind::Byte(static_cast<unsigned char>(p[i]))) return true;
  }
  return false;
}

#if defined(__SSE2__)
// 0xFF in each byte of v from first to last (inclusive, unsigned).
inline __m128i BytesInRange(__m128i v, unsigned char first, unsigned char last) {
  __m128i offset = _mm_sub_epi8(v, _mm_set1_epi8(static_cast<char>(first)));
  __m128i span = _mm_set1_epi8(static_cast<char>(last - first));
  return _mm_cmpeq_epi8(_mm_min_epu8(offset, span), offset);
}
#endif

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_BYTE_SCAN_H_
