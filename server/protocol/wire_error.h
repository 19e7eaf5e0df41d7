// Wire errors: how an engine Status goes out as DynamoDB's JSON error (docs/behaviour.md §8.3, §8.4).
//
// ValidationException and the service-level errors use the com.amazon.coral namespaces, DynamoDB's own errors
// com.amazonaws.dynamodb.v20120810; SerializationException carries "Message" (capital M) or no message.

#ifndef DYNAPAGE_SERVER_PROTOCOL_WIRE_ERROR_H_
#define DYNAPAGE_SERVER_PROTOCOL_WIRE_ERROR_H_

#include <string>

#include "engine/base/status.h"

namespace dynapage {

struct WireError {
  int http_status = 400;
  std::string type;       // the full __type
  std::string body;       // the JSON body
};

// extra_members: JSON members (without braces, e.g. "\"Item\":{…}") appended to the error object.
WireError ToWireError(const Status& status, const std::string& extra_members = "");

// An error the server itself raises that the engine has no code for (authentication).
WireError ServiceError(const std::string& name, const std::string& message);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_WIRE_ERROR_H_
