// Request bodies sent with Content-Encoding, as DynamoDB accepts them: gzip (any number of members, as RFC 1952
// allows) and deflate (the zlib format of RFC 9110; a raw deflate stream, which some clients send under that name,
// is accepted too). Decoding stops as soon as the decoded body would pass the request size limit, so a small
// body that would inflate to gigabytes (a "decompression bomb") costs at most the limit. Truncated or corrupt
// data, data after the end of a deflate stream, and any other encoding are refused, never passed on as a body.

#ifndef DYNAPAGE_SERVER_HTTP_CONTENT_ENCODING_H_
#define DYNAPAGE_SERVER_HTTP_CONTENT_ENCODING_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace dynapage {

enum class ContentEncoding { kIdentity, kGzip, kDeflate, kUnknown };

// The encoding a Content-Encoding value names (ASCII case ignored, spaces around it allowed); "" and "identity"
// are kIdentity. A list of encodings ("gzip, gzip") is kUnknown.
ContentEncoding ParseContentEncoding(std::string_view value);

enum class DecodeResult { kOk, kTooLarge, kCorrupt };

// Decodes body into *out. kTooLarge once the decoded bytes would exceed limit; *out is then empty, and at most
// 64 KB of decoded output was held at any time.
// REQUIRES: encoding is kGzip or kDeflate.
DecodeResult DecodeBody(ContentEncoding encoding, std::string_view body, size_t limit, std::string* out);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_CONTENT_ENCODING_H_
