#include "engine/base/base64.h"

#include <openssl/evp.h>

#include "engine/base/utf8.h"

namespace dynapage {

namespace {
int DecodeChar(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

Status BlobError(std::string_view text, const std::string& why) {
  return Status::Serialization("'" + std::string(text) + "' can not be converted to an Blob: " + why);
}
}  // namespace

void Base64EncodeAppend(std::string_view bytes, std::string* out) {
  size_t start = out->size();
  out->resize(start + 4 * ((bytes.size() + 2) / 3) + 1);
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(&(*out)[start]),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out->resize(start + n);
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  Base64EncodeAppend(bytes, &out);
  return out;
}

Status Base64Decode(std::string_view text, std::string* out) {
  out->clear();
  if (text.size() % 4 != 0) {
    return BlobError(text, "Base64 encoded length is expected a multiple of 4 bytes but found: " +
                               std::to_string(text.size()));
  }
  size_t pad = 0;
  if (!text.empty() && text.back() == '=') pad++;
  if (text.size() >= 2 && text[text.size() - 2] == '=') pad++;
  size_t data_chars = text.size() - pad;
  out->reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < data_chars; i++) {
    int v = DecodeChar(static_cast<unsigned char>(text[i]));
    if (v < 0) return BlobError(text, "Invalid Base64 character: '" + std::string(Utf8CharacterAt(text, i)) + "'");
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  // The bits left over in the last character must be zero, or the text is not a canonical encoding.
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) {
    return BlobError(text, "Invalid last non-pad Base64 character dectected");
  }
  return Status::OK();
}

}  // namespace dynapage
