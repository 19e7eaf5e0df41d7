// A minimal DynamoDB JSON-protocol client over cpp-httplib (http, or https through OpenSSL).
//
// Contract: Call(operation, body) POSTs `body` to "/" with X-Amz-Target DynamoDB_20120810.<operation>,
// signed with SigV4, and returns the status, the raw body and the parsed JSON. Transport failures come back
// as status 0 with the reason in `message`. Throttling and 5xx answers are retried with backoff against AWS
// only (an emulator that throttles is a finding, not noise); validation errors are never retried.
// One Client is not safe for concurrent use.

#ifndef DYNAPAGE_CONFORMANCE_CLIENT_H_
#define DYNAPAGE_CONFORMANCE_CLIENT_H_

#include <rapidjson/document.h>

#include <memory>
#include <string>

#include "conformance/endpoint.h"
#include "conformance/json.h"

namespace httplib {
class Client;
}

namespace conformance {

struct Response {
  int status = 0;  // HTTP status; 0 when the request never got an answer
  std::string body;
  rapidjson::Document json;  // null when the body is not JSON
  std::string error_type;    // for an error: the part of __type after '#', e.g. "ValidationException"
  std::string message;       // for an error: "message" or "Message"; for status 0: the transport error

  Response() = default;
  Response(Response&&) = default;
  Response& operator=(Response&&) = default;

  bool ok() const { return status == 200; }
  // One line for assertion messages: status, type, message, and the start of the body.
  std::string Describe() const;
};

class Client {
 public:
  explicit Client(const Endpoint& endpoint);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  Response Call(const std::string& operation, const std::string& body);
  Response Call(const std::string& operation, const Json& body) { return Call(operation, body.str()); }

  const Endpoint& endpoint() const { return endpoint_; }

 private:
  Response CallOnce(const std::string& operation, const std::string& body);

  Endpoint endpoint_;
  std::unique_ptr<httplib::Client> http_;
};

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_CLIENT_H_
