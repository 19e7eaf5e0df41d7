#include "server/protocol/dispatcher.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <cstring>
#include <iterator>
#include <string_view>
#include <utility>

#include "engine/base/byte_scan.h"
#include "engine/base/check.h"
#include "server/protocol/operation.h"
#include "server/protocol/wire_error.h"

namespace dynapage {

namespace {
const char kTargetPrefix[] = "DynamoDB_20120810.";

bool AcceptedContentType(std::string_view content_type) {
  std::string_view base = content_type.substr(0, content_type.find(';'));
  while (!base.empty() && base.back() == ' ') base.remove_suffix(1);
  return base == "application/x-amz-json-1.0" || base == "application/json";
}

// The end of the parameter starting at i of an Authorization header: the first ',' or ' ' from i, or the end.
// memchr looks at many bytes per step, and a signed header is ~200 bytes of long values.
size_t ParameterEnd(std::string_view header, size_t i) {
  const char* begin = header.data() + i;
  size_t rest = header.size() - i;
  const void* comma = std::memchr(begin, ',', rest);
  size_t end = comma ? static_cast<size_t>(static_cast<const char*>(comma) - begin) : rest;
  const void* space = std::memchr(begin, ' ', end);
  return i + (space ? static_cast<size_t>(static_cast<const char*>(space) - begin) : end);
}

// The authentication checks DynamoDB makes before looking at the request (dynalite's wording).
bool CheckAuthorization(const WireRequest& r, WireError* error) {
  if (!r.authorization.empty() && r.query_has_algorithm) {
    *error = ServiceError("InvalidSignatureException",
                          "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
    return false;
  }
  if (r.authorization.empty() && !r.query_has_algorithm) {
    *error = ServiceError("MissingAuthenticationTokenException", "Request is missing Authentication Token");
    return false;
  }
  if (r.authorization.empty()) return true;
  // "AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…": the parameters after the scheme, separated by
  // commas and spaces; a parameter counts when it has a value. One pass over the header.
  static const char* const kParameters[] = {"Credential", "Signature", "SignedHeaders"};
  constexpr size_t kCount = std::size(kParameters);
  bool present[kCount] = {};
  std::string_view header = r.authorization;
  size_t i = header.find_first_of(", ");
  while (i < header.size()) {
    while (i < header.size() && (header[i] == ',' || header[i] == ' ')) i++;
    size_t end = ParameterEnd(header, i);
    std::string_view param = header.substr(i, end - i);
    size_t eq = param.find('=');
    if (eq != std::string_view::npos && eq + 1 < param.size()) {
      for (size_t k = 0; k < kCount; k++) {
        if (param.substr(0, eq) == kParameters[k]) present[k] = true;
      }
    }
    i = end;
  }
  std::string msg;
  for (size_t k = 0; k < kCount; k++) {
    if (!present[k]) msg.append("Authorization header requires '").append(kParameters[k]).append("' parameter. ");
  }
  if (!r.has_amz_date) msg += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ";
  if (msg.empty()) return true;
  *error = ServiceError("IncompleteSignatureException", msg.append("Authorization=").append(r.authorization));
  return false;
}

// True if body holds a byte that JSON never allows raw but that RapidJSON would let pass: NUL, which it takes for
// the end of the text, and 0x1A..0x1F, which its 16-byte string scan (RapidJSON 1.1.0) takes for ordinary
// characters (the other control characters it refuses itself).
struct MisreadByte {
  static bool Byte(unsigned char c) { return c == 0 || (c >= 0x1A && c <= 0x1F); }
#if defined(__SSE2__)
  static __m128i Block(__m128i v) {
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_setzero_si128()), BytesInRange(v, 0x1A, 0x1F));
  }
#endif
};

bool HasByteRapidJsonMisreads(std::string_view body) { return AnyByteOf<MisreadByte>(body); }

WireResponse FromError(const WireError& error) {
  WireResponse response;
  response.status = error.http_status;
  response.body = error.body;
  return response;
}
}  // namespace

Dispatcher::Dispatcher(Database* db, ServiceOptions options, OperationFinder find_operation)
    : db_(db), options_(std::move(options)), find_operation_(find_operation) {
  DP_DCHECK(db_ != nullptr);
  DP_DCHECK(find_operation_ != nullptr);
  DP_DCHECK(options_.clock != nullptr);
}

RequestContext Dispatcher::ContextFor(const WireRequest& request) const {
  RequestContext context;
  context.request_id = std::string(request.request_id);
  context.caller.region = options_.region;
  context.caller.account_id = options_.account_id;
  context.clock = options_.clock;
  context.max_page_bytes = options_.max_page_bytes;
  return context;
}

WireResponse Dispatcher::Run(OperationHandler handler, const RequestContext& context,
                             const rapidjson::Value& document) const {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  OperationContext ctx{*db_, context, document, writer, ""};
  Status status = handler(ctx);
  if (!status.ok()) return FromError(ToWireError(status, ctx.error_extra));
  WireResponse response;
  response.body.assign(buffer.GetString(), buffer.GetSize());
  return response;
}

WireResponse Dispatcher::Handle(const WireRequest& request) const {
  WireResponse response;
  if (request.method == "GET" && request.path == "/") {
    response.content_type = "text/plain";
    response.body = "healthy: dynamodb." + options_.region + ".amazonaws.com ";
  } else if (request.method != "POST" || request.path != "/" || !AcceptedContentType(request.content_type)) {
    response.status = 404;
    response.content_type = "application/x-amz-json-1.0";
    response.body = "<UnknownOperationException/>\n";
  } else {
    rapidjson::Document document;
    bool empty_body = request.body.empty();
    // Bytes JSON never allows raw but RapidJSON would let pass are refused first. Then a copy of the body is
    // parsed in place (strings are not copied again, and are scanned 16 bytes at a time); the document's
    // strings point into the copy.
    bool bad_json = !empty_body && HasByteRapidJsonMisreads(request.body);
    std::string text;
    if (!empty_body && !bad_json) {
      text.assign(request.body.data(), request.body.size());
      document.ParseInsitu(&text[0]);
    }
    OperationHandler handler = nullptr;
    WireError auth_error;
    if (!empty_body && (bad_json || document.HasParseError() || !document.IsObject())) {
      response = FromError(ToWireError(Status::Serialization("")));
    } else if (request.target.compare(0, sizeof(kTargetPrefix) - 1, kTargetPrefix) != 0 ||
               !(handler = find_operation_(request.target.substr(sizeof(kTargetPrefix) - 1)))) {
      response = FromError(ToWireError(Status::Error(ErrorCode::kUnknownOperation, "")));
    } else if (!CheckAuthorization(request, &auth_error)) {
      response = FromError(auth_error);
    } else if (empty_body) {
      response = FromError(ToWireError(Status::Serialization("")));
    } else {
      RequestContext context = ContextFor(request);
      RequestHooks* hooks = options_.hooks;
      if (hooks && hooks->armed()) {
        HookedRequest hooked;
        hooked.wire = &request;
        hooked.operation = request.target.substr(sizeof(kTargetPrefix) - 1);
        hooked.body = &document;
        if (!hooks->Before(&hooked, &context, &response)) response = Run(handler, context, document);
        hooks->After(hooked, response);
      } else {
        response = Run(handler, context, document);
      }
    }
  }
  return response;
}

}  // namespace dynapage
