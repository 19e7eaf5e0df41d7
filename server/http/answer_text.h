// The texts the HTTP layer writes into answers itself: request ids, the Date header, the JSON error of a request it
// refuses (in DynamoDB's form), and the whole answer to a connection over the limit.

#ifndef DYNAPAGE_SERVER_HTTP_ANSWER_TEXT_H_
#define DYNAPAGE_SERVER_HTTP_ANSWER_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/exchange.h"

namespace dynapage {

constexpr char kJsonType[] = "application/x-amz-json-1.0";
// The response headers a browser's script may read (CORS).
constexpr char kExposedHeaders[] = "x-amzn-RequestId, x-amz-crc32";

// x-amzn-RequestId: 52 characters of [0-9A-Z], as DynamoDB's. A value, not a std::string: one is made for every
// request, and a string of its length would be an allocation.
class RequestId {
 public:
  static constexpr size_t kLength = 52;

  // A random id.
  static RequestId Random();
  // REQUIRES: text is kLength characters of [0-9A-Z].
  static RequestId FromText(std::string_view text);

  // The id after this one, counting in base 36 (0-9, then A-Z), the last character first; ZZ…Z's is 00…0.
  RequestId Next() const;
  std::string_view view() const { return std::string_view(text_, kLength); }

 private:
  RequestId() = default;
  char text_[kLength];
};

// A new request id, unique among this process's and other runs'. Each thread starts from a random id and counts up
// from it (RequestId::Next): ~50 random characters keep the threads' and the runs' sequences apart, and the next
// id costs a few instructions where drawing 52 random characters cost ~900 (6% of a no-op request). An id need be
// unique, not unpredictable: it names a request in logs and support cases.
RequestId NewRequestId();
// "Date: Wed, 25 Nov 2026 10:49:15 GMT\r\n" for now, formatted once a second per thread.
const std::string& DateHeaderLine();
// The JSON error body of an answer the HTTP layer makes itself (a refused request), in DynamoDB's form: 413 and 503
// have their own types, anything else is a SerializationException; reason (may be null) is the message.
std::string RefusalBody(int status, const char* reason);
// Whether origin is one of origins ("*" among them allows any).
bool OriginAllowed(const std::vector<std::string>& origins, std::string_view origin);
// A whole answer of status (400 or 503) with RefusalBody(status, reason), saying Connection: close: for a
// connection the server writes to itself, outside cpp-httplib.
std::string ClosingAnswer(int status, const char* reason);
// The whole answer to a connection over the limit: 503 with a JSON error, and the connection closes.
std::string OverLimitAnswer(size_t max_connections);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HTTP_ANSWER_TEXT_H_
