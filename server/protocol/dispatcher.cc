#include "server/protocol/dispatcher.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <string_view>
#include <utility>

#include "engine/base/check.h"
#include "engine/base/utf8.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_json.h"
#include "server/protocol/wire_error.h"

namespace dynapage {

namespace {
const char kStreamsTargetPrefix[] = "DynamoDBStreams_20120810.";

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

std::string_view CredentialOf(std::string_view authorization);

// A credential scope CheckCredentialScope found valid, and the caller it names. A client signs every request with
// the same scope (its key, the day, its region): the last valid one a thread saw is remembered, and compared in a
// few instructions where checking and splitting it again took ~1,700 (13% of a no-op request).
struct RememberedScope {
  std::string credential;  // "AKID/20260101/us-west-2/dynamodb/aws4_request"; empty: none yet
  // The last valid header that ended in its Signature parameter, up to that parameter ("AWS4-HMAC-SHA256
  // Credential=…, SignedHeaders=…, "); empty: none. A client's headers differ only in their signatures.
  std::string signed_prefix;
  Caller caller;
};
thread_local RememberedScope remembered_scope;

constexpr std::string_view kSignatureParameter = "Signature=";

// Whether parameter is one Signature parameter with a value: "Signature=", then at least one byte, none of them a
// separator (',' or ' ').
bool IsSignatureWithValue(std::string_view parameter) {
  return parameter.size() > kSignatureParameter.size() &&
         parameter.compare(0, kSignatureParameter.size(), kSignatureParameter) == 0 &&
         ParameterEnd(parameter, 0) == parameter.size();
}

// Where the last parameter of an Authorization header begins, when it is a Signature with a value (the first byte
// after the header's last ',' or ' '); else npos. Such a header is its part before that parameter and one more
// present parameter, Signature: it passes the checks below exactly when that part followed by any signature
// passes them, since the part ends where a parameter ends and holds the credential.
size_t FinalSignatureAt(std::string_view header) {
  size_t at = header.find_last_of(", ");
  if (at == std::string_view::npos) return at;
  return IsSignatureWithValue(header.substr(at + 1)) ? at + 1 : std::string_view::npos;
}

// Whether header is the remembered signed prefix followed by a Signature parameter with a value.
bool HasRememberedPrefix(std::string_view header) {
  const std::string& prefix = remembered_scope.signed_prefix;
  return !prefix.empty() && header.size() > prefix.size() &&
         std::memcmp(header.data(), prefix.data(), prefix.size()) == 0 &&
         IsSignatureWithValue(header.substr(prefix.size()));
}

// The authentication checks DynamoDB makes before looking at the request (dynalite's wording), and the credential
// scope's (CheckCredentialScope). When they pass, *caller is the request's (CallerOf), default_region where its
// scope names none.
bool CheckAuthorization(const WireRequest& r, const std::string& default_region, Caller* caller, WireError* error) {
  if (!r.authorization.empty() && r.query_has_algorithm) {
    *error = ServiceError("InvalidSignatureException",
                          "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
    return false;
  }
  if (r.authorization.empty() && !r.query_has_algorithm) {
    *error = ServiceError("MissingAuthenticationTokenException", "Request is missing Authentication Token");
    return false;
  }
  if (r.authorization.empty()) {
    *caller = CallerOf(r.authorization, default_region);
    return true;
  }
  // The header a thread saw last but for its signature: nothing to check again (~900 instructions).
  if (r.has_amz_date && HasRememberedPrefix(r.authorization)) {
    *caller = remembered_scope.caller;
    return true;
  }
  // "AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…": the parameters after the scheme, separated by
  // commas and spaces; a parameter counts when it has a value. One pass over the header.
  // Views, so that comparing a parameter's name with each measures neither again.
  static constexpr std::string_view kParameters[] = {"Credential", "Signature", "SignedHeaders"};
  constexpr size_t kCount = std::size(kParameters);
  bool present[kCount] = {};
  std::string_view header = r.authorization;
  size_t i = ParameterEnd(header, 0);  // past the scheme (find_first_of would call memchr once a byte)
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
  if (msg.empty()) {
    std::string_view credential = CredentialOf(r.authorization);
    if (credential.empty() || credential != remembered_scope.credential) {
      std::string type, message;
      if (!CheckCredentialScope(r.authorization, &type, &message)) {
        *error = ServiceError(type, message);
        return false;
      }
      remembered_scope.caller = CallerOf(r.authorization, default_region);
      remembered_scope.credential.assign(credential);
    }
    size_t signature_at = FinalSignatureAt(r.authorization);
    if (signature_at != std::string_view::npos) {
      remembered_scope.signed_prefix.assign(r.authorization.substr(0, signature_at));
    } else {
      remembered_scope.signed_prefix.clear();
    }
    *caller = remembered_scope.caller;
    return true;
  }
  // The header is echoed as it came, except bytes that are not UTF-8: an answer is always valid UTF-8.
  *error =
      ServiceError("IncompleteSignatureException", msg.append("Authorization=").append(ToValidUtf8(r.authorization)));
  return false;
}

// DynamoDB Local's text, naming the target asked for (the JavaScript SDK shows an empty message as "UnknownError").
// A target that is not printable ASCII is left out rather than echoed.
std::string UnknownOperationMessage(std::string_view target) {
  std::string message = "An unknown operation was requested.";
  if (target.empty()) return message;
  for (char c : target) {
    if (c < 0x20 || c > 0x7e) return message;
  }
  message.pop_back();
  return message.append(": ").append(target);
}

// The Credential parameter's value in an Authorization header ("AKID/20260101/us-west-2/dynamodb/aws4_request"),
// or empty.
std::string_view CredentialOf(std::string_view authorization) {
  static constexpr std::string_view kCredential = "Credential=";
  size_t at = authorization.find(kCredential);
  while (at != std::string_view::npos && at > 0 && authorization[at - 1] != ' ' && authorization[at - 1] != ',') {
    at = authorization.find(kCredential, at + 1);
  }
  if (at == std::string_view::npos) return {};
  size_t begin = at + kCredential.size();
  return authorization.substr(begin, ParameterEnd(authorization, begin) - begin);
}

// A stateless allocator for RapidJSON's stacks, shared: a stack given none allocates one of its own (an
// allocation) the first time it grows.
rapidjson::CrtAllocator shared_stack_allocator;

// The writer of an answer's JSON and its buffer, kept by the thread from one request to the next: neither the
// buffer nor the writer's nesting stack is allocated again for each (four allocations a request), and a large
// page's buffer grows once. A buffer grown past kKeptAnswerBytes (a Query page of 25 items of ~200 bytes is ~6 KB)
// is given back after its request, so that idle connections stay small; a request run within another on the same thread
// gets a writer of its own.
class AnswerWriter {
 public:
  AnswerWriter() {
    if (kept_.in_use) {
      own_ = std::make_unique<Output>();
      output_ = own_.get();
    } else {
      kept_.in_use = true;
      output_ = &kept_.output;
      output_->buffer.Clear();
      output_->writer.Reset(output_->buffer);
    }
  }
  ~AnswerWriter() {
    if (own_) return;
    if (output_->buffer.GetSize() > kKeptAnswerBytes) {
      output_->buffer.Clear();
      output_->buffer.ShrinkToFit();
    }
    kept_.in_use = false;
  }
  AnswerWriter(const AnswerWriter&) = delete;
  AnswerWriter& operator=(const AnswerWriter&) = delete;

  JsonWriter& writer() { return output_->writer; }
  std::string_view text() const { return std::string_view(output_->buffer.GetString(), output_->buffer.GetSize()); }

 private:
  static constexpr size_t kKeptAnswerBytes = 16 * 1024;
  struct Output {
    rapidjson::StringBuffer buffer{&shared_stack_allocator};
    JsonWriter writer{buffer, &shared_stack_allocator};
  };
  struct Kept {
    Output output;
    bool in_use = false;
  };
  static thread_local Kept kept_;
  std::unique_ptr<Output> own_;
  Output* output_;
};

thread_local AnswerWriter::Kept AnswerWriter::kept_;

// The values of a request are parsed into a pool of this size on the stack first: a request this small parses with
// one allocation (the parse's own stack), a larger one goes on in 64 KB chunks as before.
constexpr size_t kRequestPoolBytes = 4096;
constexpr size_t kParseStackBytes = 1024;  // RapidJSON's default

WireResponse FromError(const WireError& error) {
  WireResponse response;
  response.status = error.http_status;
  response.body = error.body;
  return response;
}
}  // namespace

bool CheckCredentialScope(std::string_view authorization, std::string* type, std::string* message) {
  std::string_view credential = CredentialOf(authorization);
  std::string_view parts[5];
  const bool five = std::count(credential.begin(), credential.end(), '/') == 4;
  for (size_t i = 0, begin = 0; five && i < 5; i++) {
    size_t slash = credential.find('/', begin);
    parts[i] = credential.substr(begin, slash == std::string_view::npos ? slash : slash - begin);
    begin = slash + 1;
  }
  if (!five || parts[4].empty()) {
    *type = "IncompleteSignatureException";
    *message = "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '" +
               ToValidUtf8(credential) + "'";
    return false;
  }
  bool key_ok = !parts[0].empty();
  for (char c : parts[0]) key_ok = key_ok && c > 0x20 && c < 0x7f;
  if (!key_ok) {
    *type = "UnrecognizedClientException";
    *message = "The security token included in the request is invalid.";
    return false;
  }
  bool region_ok = !parts[2].empty();
  for (char c : parts[2]) region_ok = region_ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (!region_ok) {
    *type = "InvalidSignatureException";
    *message = "Credential should be scoped to a valid region, not '" + ToValidUtf8(parts[2]) + "'. ";
    return false;
  }
  return true;
}

Caller CallerOf(std::string_view authorization, const std::string& default_region) {
  Caller caller;
  caller.region = default_region;
  std::string_view credential = CredentialOf(authorization);
  size_t key_end = credential.find('/');
  caller.access_key = std::string(credential.substr(0, key_end));
  if (key_end != std::string_view::npos) {
    size_t date_end = credential.find('/', key_end + 1);
    if (date_end != std::string_view::npos) {
      std::string_view region = credential.substr(date_end + 1);
      region = region.substr(0, region.find('/'));
      if (!region.empty()) caller.region = std::string(region);
    }
  }
  caller.account_id = AccountIdOf(caller.access_key);
  return caller;
}

const RequestTargets& HookedRequest::targets() const {
  if (!declared_targets) {
    declared_targets.emplace();
    if (declare_targets) {
      declare_targets(operation, *body, &*declared_targets);
    } else {
      CollectRequestTargets(*body, nullptr, &*declared_targets);
    }
  }
  return *declared_targets;
}

Dispatcher::Dispatcher(DatabaseSet* databases, ServiceOptions options, OperationFinder find_operation,
                       OperationFinder find_streams_operation, TargetDeclarer declare_targets)
    : databases_(databases),
      options_(std::move(options)),
      find_operation_(find_operation),
      find_streams_operation_(find_streams_operation),
      declare_targets_(declare_targets) {
  DP_DCHECK(databases_ != nullptr);
  DP_DCHECK(find_operation_ != nullptr);
  if (options_.settable_clock) options_.clock = options_.settable_clock;
  DP_DCHECK(options_.clock != nullptr);
}

OperationHandler Dispatcher::FindHandler(std::string_view target) const {
  if (target.compare(0, sizeof(kDynamoDbTargetPrefix) - 1, kDynamoDbTargetPrefix) == 0) {
    return find_operation_(target.substr(sizeof(kDynamoDbTargetPrefix) - 1));
  }
  if (find_streams_operation_ && target.compare(0, sizeof(kStreamsTargetPrefix) - 1, kStreamsTargetPrefix) == 0) {
    return find_streams_operation_(target.substr(sizeof(kStreamsTargetPrefix) - 1));
  }
  return nullptr;
}

RequestContext ServiceRequestContext(const ServiceOptions& options, std::string_view request_id,
                                     std::string_view authorization) {
  return ServiceRequestContext(options, request_id, CallerOf(authorization, options.region));
}

RequestContext ServiceRequestContext(const ServiceOptions& options, std::string_view request_id, Caller caller) {
  RequestContext context;
  context.request_id = request_id;
  context.caller = std::move(caller);
  context.cohorts = options.messages_pin ? *options.messages_pin : CohortsOfRegion(context.caller.region);
  context.clock = options.clock;
  context.max_page_bytes = options.max_page_bytes;
  context.transient_status_ms = options.transient_status_ms;
  context.ttl_update_cooldown_ms = options.ttl_update_cooldown_ms;
  context.pitr_latest_lag_seconds = options.pitr_latest_lag_seconds;
  return context;
}

WireResponse Dispatcher::Run(OperationHandler handler, const RequestContext& context, const rapidjson::Value& document,
                             std::string_view host) const {
  Database* db = nullptr;
  Status status = databases_->For(context.caller, &db);
  if (!status.ok()) return FromError(ToWireError(status));
  AnswerWriter answer;
  OperationContext ctx{*db,  context,    document,           answer.writer(),         "",
                       host, databases_, options_.transfers, options_.bulk_operations};
  status = handler(ctx);
  if (!status.ok()) return FromError(ToWireError(InCohortWording(context.cohorts, std::move(status)), ctx.error_extra));
  WireResponse response;
  response.body = answer.text();
  return response;
}

WireResponse Dispatcher::Handle(const WireRequest& request) const {
  WireResponse response;
  if (request.method == "GET" && request.path == "/") {
    // As DynamoDB's "healthy: dynamodb.<region>.amazonaws.com " (trailing space included), naming the host and
    // port this server was reached at: nothing may send a client to AWS.
    response.content_type = "text/plain";
    response.body.reserve(10 + request.host.size());
    response.body.append("healthy: ").append(request.host).append(" ");
  } else if (request.method != "POST" || request.path != "/" || !AcceptedContentType(request.content_type)) {
    response.status = 404;
    response.content_type = "application/x-amz-json-1.0";
    response.body = "<UnknownOperationException/>\n";
  } else {
    char pool[kRequestPoolBytes];
    rapidjson::MemoryPoolAllocator<> values(pool, sizeof(pool));
    rapidjson::Document document(&values, kParseStackBytes, &shared_stack_allocator);
    bool empty_body = request.body.empty();
    std::string text;  // the document's strings point into it
    bool bad_json = !empty_body && !ParseRequestJson(request.body, &text, &document);
    OperationHandler handler = nullptr;
    Caller caller;
    WireError auth_error;
    if (bad_json) {
      response = FromError(ToWireError(Status::Serialization("")));
    } else if (!(handler = FindHandler(request.target))) {
      Status unknown = Status::Error(ErrorCode::kUnknownOperation, UnknownOperationMessage(request.target));
      response = FromError(ToWireError(unknown));
    } else if (!CheckAuthorization(request, options_.region, &caller, &auth_error)) {
      response = FromError(auth_error);
    } else if (empty_body) {
      response = FromError(ToWireError(Status::Serialization("")));
    } else {
      RequestContext context = ServiceRequestContext(options_, request.request_id, std::move(caller));
      RequestHooks* hooks = options_.hooks;
      if (hooks && hooks->armed()) {
        HookedRequest hooked;
        hooked.wire = &request;
        hooked.operation = request.target.substr(request.target.find('.') + 1);
        hooked.body = &document;
        hooked.declare_targets = declare_targets_;
        if (!hooks->Before(&hooked, &context, &response)) response = Run(handler, context, document, request.host);
        hooks->After(hooked, response);
      } else {
        response = Run(handler, context, document, request.host);
      }
    }
  }
  return response;
}

}  // namespace dynapage
