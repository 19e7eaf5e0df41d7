// Base64 as DynamoDB's B and BS values use it on the wire (RFC 4648, padded).
//
// Decoding is strict and reports failures with the texts DynamoDB's deserializer uses, so that a bad binary
// value gets the same SerializationException message as from the service.

#ifndef DYNAPAGE_ENGINE_BASE_BASE64_H_
#define DYNAPAGE_ENGINE_BASE_BASE64_H_

#include <string>
#include <string_view>

#include "engine/base/status.h"

namespace dynapage {

std::string Base64Encode(std::string_view bytes);
void Base64EncodeAppend(std::string_view bytes, std::string* out);

// Decodes text into *out. On failure returns a Serialization status:
//   "'<text>' can not be converted to an Blob: Base64 encoded length is expected a multiple of 4 bytes but found: 5"
//   "'<text>' can not be converted to an Blob: Invalid last non-pad Base64 character dectected" (sic)
//   "'<text>' can not be converted to an Blob: Invalid Base64 character: '<c>'"
Status Base64Decode(std::string_view text, std::string* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_BASE64_H_
