// gzip framing (RFC 1952) with zlib, for export data files and GZIP imports (docs/export-import.md).

#ifndef DYNAPAGE_ENGINE_TRANSFER_GZIP_CODEC_H_
#define DYNAPAGE_ENGINE_TRANSFER_GZIP_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/status.h"

namespace dynapage {

// data compressed into one gzip member, replacing *out.
Status GzipCompress(std::string_view data, std::string* out);

// Every gzip member of data (concatenated members are one stream, as gzip(1) reads them) inflated into *out.
// A stream that is not gzip, is cut short, or would inflate beyond max_bytes is an error (ValidationException
// naming what is wrong), so a small hostile file cannot exhaust memory.
Status GzipDecompress(std::string_view data, uint64_t max_bytes, std::string* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_GZIP_CODEC_H_
