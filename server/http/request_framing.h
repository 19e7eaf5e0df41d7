// The framing checks of a request (RFC 9112 §6: a body's length must be known without doubt before it is read),
// the state they leave for the rest of the exchange, and the lingering close of a connection whose request was
// refused (docs/robustness.md).
//
// cpp-httplib gives its callbacks no handle on the connection, and a connection is served by one thread at a time,
// request by request: each request's FramingState is this thread's, set when its head has been read (CheckFraming)
// and reset before the next one (ResetFraming).

#ifndef DYNAPAGE_SERVER_HTTP_REQUEST_FRAMING_H_
#define DYNAPAGE_SERVER_HTTP_REQUEST_FRAMING_H_

#include <httplib.h>

#include <string>
#include <string_view>

#include "server/http/content_encoding.h"
#include "server/http/exchange.h"

namespace dynapage {

// What the framing checks found out about the request being served on this thread.
struct FramingState {
  int refusal_status = 0;         // non-zero: the request is refused with this status before its body is read
  const char* refusal = nullptr;  // why, for the error's message
  bool close_connection = false;  // the answer closes the connection: framing is lost, or the body is unread
  ContentEncoding encoding = ContentEncoding::kIdentity;  // of the body, which the handler decodes
};

// text equals lower (lower-case, lower_size bytes), ASCII letters compared in any case: a header name or token.
bool EqualsIgnoringCase(std::string_view text, const char* lower, size_t lower_size);

// This thread's request's state.
FramingState& CurrentFraming();
// Before a connection's next request.
inline void ResetFraming() { CurrentFraming() = FramingState(); }

// Called for every request once its head is parsed, before its body is read: records a refusal in
// CurrentFraming() (answered before the body is read), takes a Content-Encoding off the headers (the handler
// decodes the body; cpp-httplib would inflate it without a size limit), and gives a request without Content-Length
// or Transfer-Encoding an empty body (cpp-httplib would read it until the client closes).
void CheckFraming(httplib::Request& req);

// The headers the service reads, in one pass over them (the first of repeated ones counting, as in
// Request::get_header_value): content type, X-Amz-Target, Authorization, Host, Origin, and X-Amz-Date or Date.
void ReadRequestHeaders(const httplib::Headers& headers, HttpRequestView* request);

// Closes a connection whose last request was refused unread ("lingering close", as web servers do): the answer is
// sent, then what the client is still sending (a body too large, say) is read and thrown away, so that closing
// does not reset the connection before the client has read the answer. Nothing read here is ever executed.
void CloseLingering(int sock);
// Writes all of text to sock, best effort (a refusal to a client that may not read it).
void SendBestEffort(int sock, const std::string& text);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_REQUEST_FRAMING_H_
