// The JSON reader of request bodies: what the dispatcher parses every request with (docs/behaviour.md §8.5 step 3).
//
// A body is refused as a whole (the caller answers SerializationException without a message) when it is not a
// JSON object, when it holds a byte JSON forbids raw, or when any of its text is not valid UTF-8 (raw bytes, or a
// \u escape of a lone surrogate): nothing that cannot be given back to every client is ever read, so never stored.
// Parsing is iterative: any nesting depth up to the 16 MB body limit costs heap, never stack.

#ifndef DYNAPAGE_SERVER_PROTOCOL_REQUEST_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_REQUEST_JSON_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>

namespace dynapage {

// Parses body into *document, in place in a copy kept in *text (the document's strings point into it, so
// REQUIRES: *text is left alone while *document is used). Returns false if the body is refused (see above).
// REQUIRES: body is not empty.
bool ParseRequestJson(std::string_view body, std::string* text, rapidjson::Document* document);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_REQUEST_JSON_H_
