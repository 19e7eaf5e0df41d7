// DirectHead: a strict parser of the one kind of request head every SDK call sends (POST / HTTP/1.1 with a
// Content-Length), so that such a request skips cpp-httplib's parser (a byte at a time through a virtual call, a
// string or two allocated per header, a regular expression to route it). Any other head, and any head this parser
// is not sure of, is left to cpp-httplib, whose framing checks (request_framing.h) then refuse or serve it as
// before: the direct path accepts a subset of what cpp-httplib accepts and refuses nothing itself.

#ifndef DYNAPAGE_SERVER_HTTP_DIRECT_HEAD_H_
#define DYNAPAGE_SERVER_HTTP_DIRECT_HEAD_H_

#include <cstddef>
#include <string_view>

#include "server/http/exchange.h"

namespace dynapage {

struct DirectHead {
  size_t content_length = 0;
  bool close_connection = false;  // the first Connection header is "close" (as cpp-httplib reads it)
  // method, path (always "/"), content type, X-Amz-Target, Authorization, Host and whether a date is present; the
  // rest of the view is the caller's to fill.
  HttpRequestView request;
};

// Parses head, a request head ending in its blank line ("\r\n\r\n" are its last four bytes). True if it is a head
// the direct path serves: the request line is exactly "POST / HTTP/1.1"; at most 100 header lines, each under 8 KB,
// of a name of token characters, a colon and a value of visible characters, spaces and tabs; a Host; one
// Content-Length (or identical repeats) of at most kMaxRequestBytes; no Transfer-Encoding, Content-Encoding,
// Expect, Origin or Range; and no Content-Type of a form (multipart/form-data, application/x-www-form-urlencoded). *out
// views head. False for anything else, with *out unspecified.
bool ParseDirectHead(std::string_view head, DirectHead* out);

// Where the first "\r\n\r\n" of text begins (the end of a request head), or std::string_view::npos: text.find's
// answer, from one look at each '\n' found 16 bytes at a time (find calls memchr once for each '\r', ~8 a head).
size_t FindHeadEnd(std::string_view text);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_DIRECT_HEAD_H_
