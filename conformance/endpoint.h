// Which DynamoDB the suite talks to, read once from the environment.
//
// Contract: the URL comes from DYNAPAGE_ENDPOINT, else DYNAMODB_ENDPOINT, else http://localhost:8000.
// Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN and the region from
// AWS_REGION (else AWS_DEFAULT_REGION, else the region in a dynamodb.<region>.amazonaws.com host, else
// us-east-1). Against a local endpoint dummy credentials are used when none are set: requests are still
// signed, because dynapage, like DynamoDB, may require a well-formed Authorization header.

#ifndef DYNAPAGE_CONFORMANCE_ENDPOINT_H_
#define DYNAPAGE_CONFORMANCE_ENDPOINT_H_

#include <string>

#include "conformance/sigv4.h"

namespace conformance {

struct Endpoint {
  std::string url;     // as given, without a trailing slash
  std::string scheme;  // "http" or "https"
  std::string host;    // without port
  int port = 0;
  std::string host_header;  // host, plus ":port" when it is not the scheme's default port
  std::string region;
  Credentials credentials;
  // True for *.amazonaws.com: the suite then waits for CREATING tables and for index propagation, and
  // retries throttling. Nothing it asserts depends on this flag.
  bool is_aws = false;
  bool credentials_from_environment = false;

  std::string Describe() const;
};

// Returns false and sets *error when the URL cannot be used (unknown scheme, no host, bad port, or an AWS
// endpoint without credentials).
bool EndpointFromEnvironment(Endpoint* endpoint, std::string* error);

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_ENDPOINT_H_
