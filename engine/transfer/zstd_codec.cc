#include "engine/transfer/zstd_codec.h"

#include <zstd.h>

#include <memory>

namespace dynapage {

namespace {
struct FreeDStream {
  void operator()(ZSTD_DStream* stream) const { ZSTD_freeDStream(stream); }
};

Status TooLarge(uint64_t max_bytes) {
  return Status::Validation("zstd: the object decompresses to more than " + std::to_string(max_bytes) + " bytes");
}
}  // namespace

Status ZstdDecompress(std::string_view data, uint64_t max_bytes, std::string* out) {
  out->clear();
  std::unique_ptr<ZSTD_DStream, FreeDStream> stream(ZSTD_createDStream());
  if (!stream) return Status::Internal("zstd: cannot start decompression");
  ZSTD_initDStream(stream.get());
  const size_t chunk = ZSTD_DStreamOutSize();
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  size_t pending = 0;  // 0 once a frame has ended and been flushed
  while (in.pos < in.size || pending != 0) {
    size_t before = out->size();
    if (before > max_bytes) return TooLarge(max_bytes);
    out->resize(before + chunk);
    ZSTD_outBuffer buffer{out->data() + before, chunk, 0};
    size_t in_before = in.pos;
    pending = ZSTD_decompressStream(stream.get(), &buffer, &in);
    out->resize(before + buffer.pos);
    if (ZSTD_isError(pending)) {
      return Status::Validation(std::string("zstd: the object is not valid zstd data: ") + ZSTD_getErrorName(pending));
    }
    // All input taken, no output made, and the frame not finished: the data is cut short.
    if (pending != 0 && in.pos == in.size && in.pos == in_before && buffer.pos == 0) {
      return Status::Validation("zstd: the object is not valid zstd data: it ends inside a frame");
    }
  }
  if (out->size() > max_bytes) return TooLarge(max_bytes);
  return Status::OK();
}

}  // namespace dynapage
