#include "conformance/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace conformance {
namespace {

std::string Hex(const unsigned char* data, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[data[i] >> 4]);
    out.push_back(kDigits[data[i] & 15]);
  }
  return out;
}

std::string HmacSha256(const std::string& key, const std::string& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), out, &len);
  return std::string(reinterpret_cast<char*>(out), len);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// botocore canonicalises a header value with ' '.join(value.split()): trims and collapses inner whitespace.
std::string CanonicalValue(const std::string& value) {
  std::string out;
  bool pending_space = false;
  for (char c : value) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out.push_back(' ');
      pending_space = false;
      out.push_back(c);
    }
  }
  return out;
}

std::string FormatTime(std::time_t now, const char* format) {
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), format, &tm);
  return buf;
}

}  // namespace

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return Hex(digest, sizeof(digest));
}

std::string CanonicalRequest(const RequestToSign& request, const HeaderList& signing_headers,
                             std::string* signed_header_names) {
  // Several headers with one name are joined with ',' in the order given, as botocore's HTTPHeaders does.
  std::map<std::string, std::string> headers;
  auto add = [&headers](const std::string& name, const std::string& value) {
    std::string key = Lower(name);
    std::string canonical = CanonicalValue(value);
    auto it = headers.find(key);
    if (it == headers.end()) {
      headers.emplace(key, canonical);
    } else {
      it->second += "," + canonical;
    }
  };
  add("host", request.host);
  for (const auto& [name, value] : request.headers) {
    // The same exclusions as botocore's SIGNED_HEADERS_BLACKLIST: proxies and clients may rewrite these.
    std::string key = Lower(name);
    if (key == "expect" || key == "user-agent" || key == "x-amzn-trace-id" || key == "host") continue;
    add(name, value);
  }
  for (const auto& [name, value] : signing_headers) add(name, value);

  std::string canonical_headers;
  signed_header_names->clear();
  for (const auto& [name, value] : headers) {
    canonical_headers += name + ":" + value + "\n";
    if (!signed_header_names->empty()) signed_header_names->push_back(';');
    *signed_header_names += name;
  }
  return request.method + "\n" + (request.path.empty() ? "/" : request.path) + "\n" + /*query*/ "\n" +
         canonical_headers + "\n" + *signed_header_names + "\n" + Sha256Hex(request.body);
}

HeaderList SignV4(const RequestToSign& request, const Credentials& credentials, const std::string& region,
                  const std::string& service, std::time_t now) {
  const std::string amz_date = FormatTime(now, "%Y%m%dT%H%M%SZ");
  const std::string date = FormatTime(now, "%Y%m%d");
  HeaderList added = {{"X-Amz-Date", amz_date}};
  if (!credentials.session_token.empty()) added.emplace_back("X-Amz-Security-Token", credentials.session_token);

  std::string signed_names;
  const std::string canonical = CanonicalRequest(request, added, &signed_names);
  const std::string scope = date + "/" + region + "/" + service + "/aws4_request";
  const std::string string_to_sign = "AWS4-HMAC-SHA256\n" + amz_date + "\n" + scope + "\n" + Sha256Hex(canonical);

  std::string key = HmacSha256("AWS4" + credentials.secret_access_key, date);
  key = HmacSha256(key, region);
  key = HmacSha256(key, service);
  key = HmacSha256(key, "aws4_request");
  const std::string raw = HmacSha256(key, string_to_sign);
  const std::string signature = Hex(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());

  added.emplace_back("Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + scope +
                                          ", SignedHeaders=" + signed_names + ", Signature=" + signature);
  return added;
}

}  // namespace conformance
