// Dispatcher: DynamoDB's JSON 1.0 protocol over one HTTP exchange, independent of the HTTP library.
//
// Checks run in DynamoDB's order (docs/behaviour.md §8.5): method and content type, JSON parse, X-Amz-Target, the shape
// of the Authorization header (signatures are not verified), empty body, then the operation. Every answer is
// application/x-amz-json-1.0 (the HTTP layer adds x-amzn-RequestId and x-amz-crc32 to every response).
// X-Amz-Target "DynamoDB_20120810.<op>" names a DynamoDB operation, "DynamoDBStreams_20120810.<op>" one of DynamoDB
// Streams (docs/streams-and-ttl.md): both services are served on the one port.

#ifndef DYNAPAGE_SERVER_PROTOCOL_DISPATCHER_H_
#define DYNAPAGE_SERVER_PROTOCOL_DISPATCHER_H_

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/base/clock.h"
#include "engine/base/offset_clock.h"
#include "engine/base/request_context.h"
#include "engine/database/database.h"
#include "engine/database/database_set.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_targets.h"

namespace dynapage {

class RequestHooks;
class BulkOperations;
class TransferJobs;

// How requests are served: what goes into each request's RequestContext besides what the request says.
struct ServiceOptions {
  // Query and Scan pages stop after this many bytes of items (--max-page-bytes; DynamoDB's 1 MB by default).
  uint64_t max_page_bytes = kDynamoDbPageBytes;
  // New tables and indexes show CREATING, deleted tables DELETING, for this long (--transient-status-delay,
  // -delayTransientStatuses).
  uint64_t transient_status_ms = 0;
  // UpdateTimeToLive's cooldown between changes of a table (--ttl-update-cooldown); 0: none.
  int64_t ttl_update_cooldown_ms = 0;
  // How far behind now LatestRestorableDateTime is (--pitr-latest-lag-seconds; DynamoDB's 300 s).
  int64_t pitr_latest_lag_seconds = 300;
  // The region of requests that do not name one in their credential scope (unsigned ones); the account of an
  // access key comes from the key (AccountIdOf).
  std::string region = "us-east-1";
  // --messages: every request worded as these cohorts; none: each request as its own region's.
  std::optional<MessageCohorts> messages_pin;
  const Clock* clock = SystemClock::Get();  // never null
  // The clock POST /_dynapage/clock sets and advances (the server makes it its clock too); null refuses that call.
  OffsetClock* settable_clock = nullptr;
  // The test bench around each request (server/admin/test_bench.h), or null. REQUIRES: outlives the dispatcher.
  RequestHooks* hooks = nullptr;
  // The folder of the local S3 buckets of export and import (--s3-dir); empty: they are refused.
  std::string s3_dir;
  // The export and import jobs (engine/transfer/transfer_jobs.h), made by the Service from s3_dir; null: none.
  TransferJobs* transfers = nullptr;
  // The bulk operations (engine/transfer/bulk_operations.h), made by the Service from s3_dir; null: none.
  BulkOperations* bulk_operations = nullptr;
};

// The X-Amz-Target of a DynamoDB operation is this prefix and its name ("DynamoDB_20120810.PutItem").
constexpr char kDynamoDbTargetPrefix[] = "DynamoDB_20120810.";

// Views into the HTTP layer's request. REQUIRES: what they view outlives Handle().
struct WireRequest {
  std::string_view request_id;  // made by the HTTP layer before dispatch; the response's x-amzn-RequestId
  std::string_view method;
  std::string_view path;
  std::string_view content_type;
  std::string_view target;           // X-Amz-Target
  std::string_view authorization;    // Authorization header
  std::string_view host;             // Host header (host:port the server was reached at)
  bool has_amz_date = false;         // X-Amz-Date or Date present
  bool query_has_algorithm = false;  // X-Amz-Algorithm in the query string (presigned)
  // REQUIRES: followed by a NUL byte (it views a std::string's buffer).
  std::string_view body;
};

struct WireResponse {
  int status = 200;
  std::string_view content_type = "application/x-amz-json-1.0";  // REQUIRES: static storage (HttpAnswer's)
  std::string body;
  bool drop_connection = false;  // an injected fault: close the connection without answering
  // More header lines (name, value): the console's Cache-Control and Content-Security-Policy (HttpAnswer's).
  std::vector<std::pair<std::string, std::string>> headers;
};

// What the hooks see of a dispatched request, and keep for it from Before() to After().
struct HookedRequest {
  const WireRequest* wire = nullptr;
  std::string_view operation;              // "Query"
  const rapidjson::Value* body = nullptr;  // the parsed request (a JSON object)
  RequestPolicies policies;
  RequestCounters counters;
  int64_t start_nanos = 0;                   // steady clock
  std::string fault;                         // the fault rule that fired, described, or ""
  TargetDeclarer declare_targets = nullptr;  // the operations'; null: the targets its members name

  // What the request targets, as its operation declares them (declared once, on first use).
  const RequestTargets& targets() const;
  mutable std::optional<RequestTargets> declared_targets;  // targets(), once declared
};

// What a test bench adds around each operation (docs/testing-pagination.md): page chaos and fault rules before
// it, the request log, the pagination audit and metrics after it. The dispatcher calls them only while armed(),
// so with everything off a request pays one load of a flag.
class RequestHooks {
 public:
  virtual ~RequestHooks() = default;
  bool armed() const { return armed_.load(std::memory_order_relaxed); }
  // Before the operation: may point context->policies and context->counters into *request, and returns true
  // when an injected fault answers instead of the operation (then *fault is the answer).
  virtual bool Before(HookedRequest* request, RequestContext* context, WireResponse* fault) = 0;
  // After the operation (or the fault) answered.
  virtual void After(const HookedRequest& request, const WireResponse& response) = 0;

 protected:
  void set_armed(bool armed) { armed_.store(armed, std::memory_order_relaxed); }

 private:
  std::atomic<bool> armed_{false};
};

// Checks the credential scope of a signed request's Authorization header (whose parameters are all there):
// "Credential=KEY/DATE/REGION/SERVICE/TERM", five parts, an access key of printable ASCII, a region of lower-case
// letters, digits and '-' (docs/behaviour.md §8.5). False, with DynamoDB's error name and message, when it is not.
bool CheckCredentialScope(std::string_view authorization, std::string* type, std::string* message);

// The caller of a request signed with authorization: the access key and region of its credential scope
// ("Credential=AKID/20260101/us-west-2/dynamodb/aws4_request"), default_region where it names none, and the
// account of the access key (AccountIdOf).
Caller CallerOf(std::string_view authorization, const std::string& default_region);

// The RequestContext of a request served under options: its id, its caller (CallerOf its Authorization header), and
// options' clock, page limit and delays.
RequestContext ServiceRequestContext(const ServiceOptions& options, std::string_view request_id,
                                     std::string_view authorization);
// The same, for a caller already known.
RequestContext ServiceRequestContext(const ServiceOptions& options, std::string_view request_id, Caller caller);

class Dispatcher {
 public:
  // Serves each caller the database of its namespace (one database for all: DatabaseSet(db)). REQUIRES: databases
  // outlives the dispatcher; find_operation is not null. find_streams_operation finds the operations of DynamoDB
  // Streams (null: none); declare_targets declares what a request targets, for the hooks (null: what its members
  // name).
  Dispatcher(DatabaseSet* databases, ServiceOptions options, OperationFinder find_operation,
             OperationFinder find_streams_operation = nullptr, TargetDeclarer declare_targets = nullptr);
  WireResponse Handle(const WireRequest& request) const;

 private:
  // The handler X-Amz-Target names, or nullptr.
  OperationHandler FindHandler(std::string_view target) const;
  // Runs the operation and makes its answer.
  WireResponse Run(OperationHandler handler, const RequestContext& context, const rapidjson::Value& document,
                   std::string_view host) const;

  DatabaseSet* databases_;
  ServiceOptions options_;
  OperationFinder find_operation_;
  OperationFinder find_streams_operation_;
  TargetDeclarer declare_targets_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_DISPATCHER_H_
