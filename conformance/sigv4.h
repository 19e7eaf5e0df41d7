// AWS Signature Version 4 for DynamoDB's JSON protocol.
//
// Contract: SignV4 returns the headers to add to a request (X-Amz-Date, X-Amz-Security-Token when a session
// token is set, Authorization) so that real DynamoDB accepts it. The signature covers the Host header, every
// header the caller passes in `headers` (lower-cased, values trimmed and inner spaces collapsed, as botocore
// does) and the SHA-256 of the body bytes. It is byte-for-byte what botocore's SigV4Auth produces for the
// same request, which sigv4_test.cc proves offline. Only what a DynamoDB client needs is supported: the path
// is taken as already URI-encoded and there is no query string.

#ifndef DYNAPAGE_CONFORMANCE_SIGV4_H_
#define DYNAPAGE_CONFORMANCE_SIGV4_H_

#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace conformance {

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct RequestToSign {
  std::string method = "POST";
  std::string host;  // the Host header: "dynamodb.eu-west-1.amazonaws.com", or "localhost:8000" off the default port
  std::string path = "/";
  HeaderList headers;  // e.g. Content-Type, X-Amz-Target; Host and the X-Amz-* signing headers are added here
  std::string body;
};

// The canonical request of SigV4 step 1; exposed so that a failing comparison can show it.
std::string CanonicalRequest(const RequestToSign& request, const HeaderList& signing_headers,
                             std::string* signed_header_names);

// Signs `request` at time `now` (UTC seconds) for `region` and `service` ("dynamodb").
HeaderList SignV4(const RequestToSign& request, const Credentials& credentials, const std::string& region,
                  const std::string& service, std::time_t now);

// Lower-case hex SHA-256, used for the payload hash; exposed for tests.
std::string Sha256Hex(const std::string& data);

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_SIGV4_H_
