// HttpServer's direct path: a request with a head ParseDirectHead() accepts is read and answered here, without
// cpp-httplib, with the same answer cpp-httplib's path gives it (status line, header lines, body).

#include <httplib.h>
#include <libdeflate.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/base/check.h"
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

// Text appended from pieces, each copied once into room made for several at a time: an answer's head is ~20
// pieces, and appending them one by one to a std::string (a length check, a strlen, a call each) was ~1,000
// instructions of a no-op request.
class PieceWriter {
 public:
  explicit PieceWriter(std::string* text) : text_(text) { text_->clear(); }
  ~PieceWriter() { Flush(); }
  PieceWriter(const PieceWriter&) = delete;
  PieceWriter& operator=(const PieceWriter&) = delete;

  PieceWriter& operator<<(std::string_view piece) {
    if (count_ == kPieces) Flush();
    pieces_[count_++] = piece;
    bytes_ += piece.size();
    return *this;
  }
  // A number in decimal. REQUIRES: fewer than kNumbers numbers before the writer is destroyed.
  PieceWriter& operator<<(uint64_t number) {
    DP_DCHECK(numbers_ < kNumbers);
    char* digits = digits_[numbers_++];
    return *this << std::string_view(digits, std::to_chars(digits, digits + kDigits, number).ptr - digits);
  }

 private:
  static constexpr size_t kPieces = 32, kNumbers = 4, kDigits = 20;

  void Flush() {
    size_t at = text_->size();
    text_->resize(at + bytes_);
    for (size_t i = 0; i < count_; i++) {
      std::memcpy(&(*text_)[at], pieces_[i].data(), pieces_[i].size());
      at += pieces_[i].size();
    }
    count_ = bytes_ = 0;
  }

  std::string* text_;
  std::string_view pieces_[kPieces];
  size_t count_ = 0, bytes_ = 0;
  char digits_[kNumbers][kDigits];
  size_t numbers_ = 0;
};

}  // namespace

DirectOutcome HttpServer::ServeDirect(ConnectionStream& stream, bool* close_connection) {
  std::string_view buffered = stream.Buffered();
  if (buffered.empty()) return DirectOutcome::kFailed;
  size_t head_end = FindHeadEnd(buffered);
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
  RequestId request_id = NewRequestId();
  if (BeginRequest()) {
    parsed.request.request_id = request_id.view();
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
  {
    PieceWriter answer_head(&text);
    answer_head << "HTTP/1.1 " << static_cast<uint64_t>(answer.status) << " " << httplib::status_message(answer.status)
                << "\r\n";
    if (*close_connection) answer_head << "Connection: close\r\n";
    answer_head << "Content-Length: " << static_cast<uint64_t>(answer.body.size()) << "\r\n";
    answer_head << "Content-Type: " << answer.content_type << "\r\n";
    if (!*close_connection) answer_head << keep_alive_line_;
    answer_head << "x-amz-crc32: "
                << static_cast<uint64_t>(libdeflate_crc32(0, answer.body.data(), answer.body.size()));
    answer_head << "\r\nx-amzn-RequestId: " << request_id.view() << "\r\n";
    for (const auto& [name, value] : answer.headers) answer_head << name << ": " << value << "\r\n";
    answer_head << DateHeaderLine() << cors_header_lines_ << "\r\n";
  }
  // The head is pending; the body goes out with it from its own memory (a Query page's ~6 KB not copied again).
  bool written = stream.write(text.data(), text.size()) >= 0 &&
                 stream.SendWithPending(answer.body.data(), answer.body.size()) >= 0;
  Trim(&head);
  Trim(&body);
  Trim(&text);
  return written ? DirectOutcome::kAnswered : DirectOutcome::kFailed;
}

}  // namespace dynapage
