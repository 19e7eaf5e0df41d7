// Dispatcher: DynamoDB's JSON 1.0 protocol over one HTTP exchange, independent of the HTTP library.
//
// Checks run in DynamoDB's order (docs/behaviour.md §8.5): method and content type, JSON parse, X-Amz-Target, the shape
// of the Authorization header (signatures are not verified), empty body, then the operation. Every answer is
// application/x-amz-json-1.0 (the HTTP layer adds x-amzn-RequestId and x-amz-crc32 to every response).
// X-Amz-Target "DynamoDB_20120810.<op>" names a DynamoDB operation, "DynamoDBStreams_20120810.<op>" one of DynamoDB
// Streams (docs/streams-and-ttl.md): both services are served on the one port.

#ifndef DYNAPAGE_SERVER_PROTOCOL_DISPATCHER_H_
#define DYNAPAGE_SERVER_PROTOCOL_DISPATCHER_H_

#include <string>
#include <string_view>

#include "engine/base/clock.h"
#include "engine/base/offset_clock.h"
#include "engine/base/request_context.h"
#include "engine/database/database.h"
#include "server/protocol/operation.h"

namespace dynapage {

// How requests are served: what goes into each request's RequestContext besides what the request says.
struct ServiceOptions {
  // Query and Scan pages stop after this many bytes of items (--max-page-bytes; DynamoDB's 1 MB by default).
  uint64_t max_page_bytes = kDynamoDbPageBytes;
  // The region and account of ARNs and of DescribeEndpoints.
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  const Clock* clock = SystemClock::Get();  // never null
  // The clock POST /_dynapage/clock sets and advances (the server makes it its clock too); null refuses that call.
  OffsetClock* settable_clock = nullptr;
};

// Views into the HTTP layer's request. REQUIRES: what they view outlives Handle().
struct WireRequest {
  std::string_view request_id;       // made by the HTTP layer before dispatch; the response's x-amzn-RequestId
  std::string_view method;
  std::string_view path;
  std::string_view content_type;
  std::string_view target;           // X-Amz-Target
  std::string_view authorization;    // Authorization header
  bool has_amz_date = false;         // X-Amz-Date or Date present
  bool query_has_algorithm = false;  // X-Amz-Algorithm in the query string (presigned)
  // REQUIRES: followed by a NUL byte (it views a std::string's buffer).
  std::string_view body;
};

struct WireResponse {
  int status = 200;
  std::string content_type = "application/x-amz-json-1.0";
  std::string body;
};

class Dispatcher {
 public:
  // REQUIRES: db outlives the dispatcher; find_operation is not null. find_streams_operation finds the operations
  // of DynamoDB Streams (null: none).
  Dispatcher(Database* db, ServiceOptions options, OperationFinder find_operation,
             OperationFinder find_streams_operation = nullptr);
  WireResponse Handle(const WireRequest& request) const;

 private:
  // The RequestContext of one request.
  RequestContext ContextFor(const WireRequest& request) const;
  // The handler X-Amz-Target names, or nullptr.
  OperationHandler FindHandler(std::string_view target) const;

  Database* db_;
  ServiceOptions options_;
  OperationFinder find_operation_;
  OperationFinder find_streams_operation_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_DISPATCHER_H_
