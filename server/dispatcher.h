// Dispatcher: DynamoDB's JSON 1.0 protocol over one HTTP exchange, independent of the HTTP library.
//
// Checks run in DynamoDB's order (spec §8.5): method and content type, JSON parse, X-Amz-Target, the shape of
// the Authorization header (signatures are not verified), empty body, then the operation. Every answer is
// application/x-amz-json-1.0 (the HTTP layer adds x-amzn-RequestId and x-amz-crc32 to every response).

#ifndef DYNAPAGE_SERVER_DISPATCHER_H_
#define DYNAPAGE_SERVER_DISPATCHER_H_

#include <string>
#include <string_view>

#include "engine/database.h"

namespace dynapage {

// Views into the HTTP layer's request. REQUIRES: what they view outlives Handle().
struct WireRequest {
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
  explicit Dispatcher(Database* db) : db_(db) {}
  WireResponse Handle(const WireRequest& request) const;

 private:
  Database* db_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_DISPATCHER_H_
