#include "server/http/content_encoding.h"

#include <zlib.h>

#include <algorithm>
#include <memory>

#include "engine/base/check.h"

namespace dynapage {

namespace {
bool EqualsAsciiCaseless(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

// A zlib stream starts with a two-byte header whose method is deflate (8) and whose value is a multiple of 31.
bool LooksLikeZlib(std::string_view body) {
  if (body.size() < 2) return false;
  auto b0 = static_cast<unsigned char>(body[0]), b1 = static_cast<unsigned char>(body[1]);
  return (b0 & 0x0f) == 8 && (b0 >> 4) <= 7 && ((b0 << 8) | b1) % 31 == 0;
}

constexpr size_t kChunk = 64 * 1024;
}  // namespace

ContentEncoding ParseContentEncoding(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.empty() || EqualsAsciiCaseless(value, "identity")) return ContentEncoding::kIdentity;
  if (EqualsAsciiCaseless(value, "gzip") || EqualsAsciiCaseless(value, "x-gzip")) return ContentEncoding::kGzip;
  if (EqualsAsciiCaseless(value, "deflate")) return ContentEncoding::kDeflate;
  return ContentEncoding::kUnknown;
}

namespace {
// Inflates body. With out null, only counts the decoded bytes (into a scratch buffer): the first pass, which
// refuses a bomb without holding its output. *size is the count of decoded bytes, up to limit + 1.
DecodeResult Inflate(ContentEncoding encoding, std::string_view body, size_t limit, char* out, size_t* size) {
  *size = 0;
  bool gzip = encoding == ContentEncoding::kGzip;
  z_stream z{};
  int window_bits = gzip ? 15 + 16 : (LooksLikeZlib(body) ? 15 : -15);
  if (inflateInit2(&z, window_bits) != Z_OK) return DecodeResult::kCorrupt;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  z.avail_in = static_cast<uInt>(body.size());  // bodies are at most kMaxRequestBytes
  DecodeResult result = DecodeResult::kCorrupt;
  std::unique_ptr<char[]> scratch(out ? nullptr : new char[kChunk]);
  while (true) {
    // Room for at most one byte past the limit: enough to know the limit is passed, never more.
    size_t room = std::min(kChunk, limit + 1 - *size);
    z.next_out = reinterpret_cast<Bytef*>(out ? out + *size : scratch.get());
    z.avail_out = static_cast<uInt>(room);
    int rc = inflate(&z, Z_NO_FLUSH);
    *size += room - z.avail_out;
    if (*size > limit) {
      result = DecodeResult::kTooLarge;
      break;
    }
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0) {
        result = DecodeResult::kOk;
        break;
      }
      // Another gzip member follows; anything after a deflate stream is corrupt.
      if (!gzip || inflateReset(&z) != Z_OK) break;
      continue;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // truncated: the input ended inside a stream
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;       // corrupt
  }
  inflateEnd(&z);
  return result;
}
}  // namespace

// Two passes: the first counts and checks, the second fills a string of exactly the decoded size. Compressed
// requests are rare and small; a bomb or corrupt data costs no memory beyond a 64 KB scratch buffer.
DecodeResult DecodeBody(ContentEncoding encoding, std::string_view body, size_t limit, std::string* out) {
  DP_DCHECK(encoding == ContentEncoding::kGzip || encoding == ContentEncoding::kDeflate);
  out->clear();
  size_t size = 0;
  DecodeResult result = Inflate(encoding, body, limit, nullptr, &size);
  if (result != DecodeResult::kOk) return result;
  out->resize(size);
  result = Inflate(encoding, body, limit, &(*out)[0], &size);
  DP_DCHECK(result == DecodeResult::kOk && size == out->size());
  return result;
}

}  // namespace dynapage
