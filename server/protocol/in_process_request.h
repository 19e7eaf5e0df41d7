// InProcessRequest: the request of a DynamoDB operation made inside the process rather than read from a socket (the
// test bench's replays of audited reads, the request fuzzer). It is what an SDK sends: POST / with Content-Type
// application/x-amz-json-1.0, X-Amz-Target "DynamoDB_20120810.<operation>" and an X-Amz-Date; the caller sets the
// rest of `wire` (Host, a presigned query string) where it needs them.

#ifndef DYNAPAGE_SERVER_PROTOCOL_IN_PROCESS_REQUEST_H_
#define DYNAPAGE_SERVER_PROTOCOL_IN_PROCESS_REQUEST_H_

#include <string>
#include <string_view>

#include "server/protocol/dispatcher.h"

namespace dynapage {

struct InProcessRequest {
  // REQUIRES: request_id, authorization (empty: none) and body outlive this; body is followed by a NUL byte (it
  // views a std::string's buffer).
  InProcessRequest(std::string_view request_id, std::string_view operation, std::string_view authorization,
                   std::string_view body)
      : target(std::string(kDynamoDbTargetPrefix).append(operation)) {
    wire.request_id = request_id;
    wire.method = "POST";
    wire.path = "/";
    wire.content_type = "application/x-amz-json-1.0";
    wire.target = target;
    wire.authorization = authorization;
    wire.has_amz_date = true;
    wire.body = body;
  }
  // wire views target.
  InProcessRequest(const InProcessRequest&) = delete;
  InProcessRequest& operator=(const InProcessRequest&) = delete;

  std::string target;
  WireRequest wire;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_IN_PROCESS_REQUEST_H_
