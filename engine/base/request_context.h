// RequestContext: what one request carries from the HTTP layer down through the engine.
//
// Modelled on LevelDB's ReadOptions/WriteOptions and Env: the server makes one context per request, where the
// request arrives (before dispatch, so that every log line and error can name the request id), and passes it
// by const reference to every engine call the request makes. The engine reads the time, the caller and the
// page-size limit from here and from nowhere else; nothing per request lives in a global.
//
// Counters are written through a pointer, so that a const context can still report what the request did (for
// the request log and metrics); a null pointer means nobody is counting.

#ifndef DYNAPAGE_ENGINE_BASE_REQUEST_CONTEXT_H_
#define DYNAPAGE_ENGINE_BASE_REQUEST_CONTEXT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/clock.h"
#include "engine/base/message_cohorts.h"
#include "engine/base/request_policies.h"

namespace dynapage {

// DynamoDB's page limit for Query and Scan: 1 MB of items read, before filter and projection.
constexpr uint64_t kDynamoDbPageBytes = 1048576;

// Who sent the request: from the Authorization header's credential scope (signatures are not verified).
struct Caller {
  std::string access_key;                   // empty when the request was not signed
  std::string region = "us-east-1";         // the credential scope's region, else the server's default
  std::string account_id = "000000000000";  // a 12-digit access key is its own account id
};

// What the request did, for the request log and metrics. Filled in by the engine where it knows.
struct RequestCounters {
  uint64_t items_returned = 0;   // items in the response (Query/Scan: Count)
  uint64_t items_evaluated = 0;  // items read before the filter (Query/Scan: ScannedCount)
  uint64_t bytes_read = 0;       // DynamoDB size of the items read
  uint64_t items_written = 0;    // items put, updated or deleted
  uint64_t bytes_written = 0;    // DynamoDB size of the items put or updated
  bool used_start_key = false;   // the request carried an ExclusiveStartKey
  bool returned_last_key = false;  // the response carries a LastEvaluatedKey
  // GetRecords: the records the shard held after the NextShardIterator it answered (0: the reader caught up).
  uint64_t records_after_iterator = 0;
  // What page chaos or a fault rule did to the answer ("short page: 3 items", "2 of 5 unprocessed"), or "".
  std::string injected;
};

struct RequestContext {
  // x-amzn-RequestId of the response: a view of the id the HTTP layer made, which outlives the request.
  std::string_view request_id;
  Caller caller;
  // The wording of the errors that DynamoDB's regions word differently: the caller's region's, or a --messages pin.
  MessageCohorts cohorts;
  const Clock* clock = SystemClock::Get();  // never null
  // Query and Scan stop a page once this many bytes of items have been read (--max-page-bytes lowers it).
  uint64_t max_page_bytes = kDynamoDbPageBytes;
  // For how long a new table or global index shows CREATING, and a deleted table DELETING (DynamoDB Local's
  // -delayTransientStatuses); 0: ACTIVE, or gone, at once.
  uint64_t transient_status_ms = 0;
  // How far behind now a table's LatestRestorableDateTime is (--pitr-latest-lag-seconds; DynamoDB: 300 s).
  int64_t pitr_latest_lag_seconds = 300;
  // UpdateTimeToLive refuses a change this soon after the last one (--ttl-update-cooldown; AWS: about an hour).
  int64_t ttl_update_cooldown_ms = 0;
  RequestCounters* counters = nullptr;  // may be null
  const RequestPolicies* policies = nullptr;  // null: nothing injected (request_policies.h)
};

// A context for calls made outside any request (start-up, tests): the system clock, DynamoDB's page size.
inline const RequestContext& BackgroundContext() {
  static const RequestContext context;
  return context;
}

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_REQUEST_CONTEXT_H_
