// Wire errors: how an engine Status goes out as DynamoDB's JSON error (docs/behaviour.md §8.3, §8.4).
//
// ValidationException and the service-level errors use the com.amazon.coral namespaces, DynamoDB's own errors
// com.amazonaws.dynamodb.v20120810; SerializationException carries "Message" (capital M) or no message.

#ifndef DYNAPAGE_SERVER_PROTOCOL_WIRE_ERROR_H_
#define DYNAPAGE_SERVER_PROTOCOL_WIRE_ERROR_H_

#include <string>

#include "engine/base/status.h"

namespace dynapage {

class JsonWriter;

struct WireError {
  int http_status = 400;
  std::string type;       // the full __type
  std::string body;       // the JSON body
};

// extra_members: JSON members (without braces, e.g. "\"Item\":{…}") appended to the error object.
WireError ToWireError(const Status& status, const std::string& extra_members = "");

// Writes message as a JSON string that is valid UTF-8 whatever it quotes: messages quote the request's text,
// which is valid UTF-8, but should one still cut a character in two, a client's JSON decoder would refuse the
// whole answer. For every error message of an answer: the error's own, and those listed in a 200 answer
// (BatchExecuteStatement's per-statement errors, cancellation reasons).
void WriteErrorMessage(const std::string& message, JsonWriter* w);

// An error the server itself raises that the engine has no code for (authentication).
WireError ServiceError(const std::string& name, const std::string& message);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_WIRE_ERROR_H_
