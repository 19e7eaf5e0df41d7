// HttpServer's direct path: a request with a head ParseDirectHead() accepts is read and answered here, without
// cpp-httplib, with the same answer cpp-httplib's path gives it (status line, header lines, body).

#include <httplib.h>
#include <libdeflate.h>

#include <string>

#include "server/http/answer_text.h"
#include "server/http/connection_server.h"
#include "server/http/connection_stream.h"
#include "server/http/direct_head.h"
#include "server/http/http_server.h"

namespace dynapage {

namespace {

// A connection's request and answer buffers keep their memory between requests up to this; beyond it (a large
// body) it is given back after the request, so that idle connections stay small.
constexpr size_t kKeptBufferBytes = 64 * 1024;

void Trim(std::string* buffer) {
  if (buffer->capacity() > kKeptBufferBytes) std::string().swap(*buffer);
}

}  // namespace

DirectOutcome HttpServer::ServeDirect(ConnectionStream& stream, bool* close_connection) {
  std::string_view buffered = stream.Buffered();
  if (buffered.empty()) return DirectOutcome::kFailed;
  size_t head_end = buffered.find("\r\n\r\n");
  if (head_end == std::string_view::npos) return DirectOutcome::kNotDirect;  // cpp-httplib reads the rest
  // The head is copied, so that its views stay valid while the body is received into the stream's buffer.
  thread_local std::string head, body;
  head.assign(buffered.data(), head_end + 4);
  DirectHead parsed;
  if (!ParseDirectHead(head, &parsed)) return DirectOutcome::kNotDirect;
  stream.Consume(head.size());
  body.resize(parsed.content_length);
  for (size_t got = 0; got < body.size();) {
    ssize_t n = stream.read(&body[got], body.size() - got);
    if (n <= 0) return DirectOutcome::kFailed;
    got += static_cast<size_t>(n);
  }
  *close_connection = parsed.close_connection;
  HttpAnswer answer;
  std::string request_id = NewRequestId();
  if (BeginRequest()) {
    parsed.request.request_id = request_id;
    // What the handler's browser guard needs to know (the direct path takes no head with an Origin).
    parsed.request.loopback_only = loopback_only();
    parsed.request.body = body;
    answer = RunHandler(parsed.request, stream.socket());
    EndRequest();
  } else {
    answer.status = 503;
  }
  if (answer.status >= 400 && answer.body.empty()) {  // as the error handler of cpp-httplib's path
    answer.body = RefusalBody(answer.status, nullptr);
    answer.content_type = kJsonType;
    *close_connection = true;
  }
  // The header lines cpp-httplib writes (its map has no order; these go sorted), then Date and the CORS lines.
  thread_local std::string text;
  text.assign("HTTP/1.1 ").append(std::to_string(answer.status)).append(" ");
  text.append(httplib::status_message(answer.status)).append("\r\n");
  if (*close_connection) text.append("Connection: close\r\n");
  text.append("Content-Length: ").append(std::to_string(answer.body.size())).append("\r\n");
  text.append("Content-Type: ").append(answer.content_type).append("\r\n");
  if (!*close_connection) text.append(keep_alive_line_);
  text.append("x-amz-crc32: ").append(std::to_string(libdeflate_crc32(0, answer.body.data(), answer.body.size())));
  text.append("\r\nx-amzn-RequestId: ").append(request_id).append("\r\n");
  for (const auto& [name, value] : answer.headers) text.append(name).append(": ").append(value).append("\r\n");
  text.append(DateHeaderLine()).append(cors_header_lines_).append("\r\n");
  bool written =
      stream.write(text.data(), text.size()) >= 0 && stream.write(answer.body.data(), answer.body.size()) >= 0;
  Trim(&head);
  Trim(&body);
  Trim(&text);
  return written ? DirectOutcome::kAnswered : DirectOutcome::kFailed;
}

}  // namespace dynapage
