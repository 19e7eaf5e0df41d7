#include "engine/transfer/gzip_codec.h"

#include <zlib.h>

namespace dynapage {

namespace {
// zlib's windowBits for a gzip header and trailer (15 + 16).
constexpr int kGzipWindowBits = 31;
constexpr size_t kChunk = 1 << 16;
}  // namespace

Status GzipCompress(std::string_view data, std::string* out) {
  out->clear();
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::Internal("gzip: cannot start compression");
  }
  out->resize(deflateBound(&z, data.size()) + 32);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out->data());
  z.avail_out = static_cast<uInt>(out->size());
  int rc = deflate(&z, Z_FINISH);
  size_t written = out->size() - z.avail_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return Status::Internal("gzip: compression failed");
  out->resize(written);
  return Status::OK();
}

Status GzipDecompress(std::string_view data, uint64_t max_bytes, std::string* out) {
  out->clear();
  size_t offset = 0;
  while (offset < data.size()) {
    z_stream z{};
    if (inflateInit2(&z, kGzipWindowBits) != Z_OK) return Status::Internal("gzip: cannot start decompression");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + offset));
    z.avail_in = static_cast<uInt>(data.size() - offset);
    int rc = Z_OK;
    while (rc == Z_OK) {
      size_t before = out->size();
      if (before > max_bytes) {
        inflateEnd(&z);
        return Status::Validation("gzip: the object inflates to more than " + std::to_string(max_bytes) + " bytes");
      }
      out->resize(before + kChunk);
      z.next_out = reinterpret_cast<Bytef*>(out->data() + before);
      z.avail_out = static_cast<uInt>(kChunk);
      rc = inflate(&z, Z_NO_FLUSH);
      out->resize(before + kChunk - z.avail_out);
      if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // cut short
    }
    size_t consumed = (data.size() - offset) - z.avail_in;
    inflateEnd(&z);
    if (rc != Z_STREAM_END) return Status::Validation("gzip: the object is not valid gzip data");
    if (out->size() > max_bytes) {
      return Status::Validation("gzip: the object inflates to more than " + std::to_string(max_bytes) + " bytes");
    }
    offset += consumed;
  }
  return Status::OK();
}

}  // namespace dynapage
