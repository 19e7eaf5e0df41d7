// zstd framing (RFC 8878) with libzstd, for ZSTD imports (docs/export-import.md).

#ifndef DYNAPAGE_ENGINE_TRANSFER_ZSTD_CODEC_H_
#define DYNAPAGE_ENGINE_TRANSFER_ZSTD_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/status.h"

namespace dynapage {

// Every zstd frame of data (concatenated frames are one stream, as zstd(1) reads them) decompressed into *out, with
// the streaming API, so frames that do not state their content size are read too. Data that is not zstd, is cut
// short, or would decompress beyond max_bytes is an error (ValidationException naming what is wrong), so a small
// hostile file cannot exhaust memory.
Status ZstdDecompress(std::string_view data, uint64_t max_bytes, std::string* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_ZSTD_CODEC_H_
