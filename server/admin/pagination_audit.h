// PaginationAudit: every continuation dynapage hands out, and whether the same caller followed it
// (docs/testing-pagination.md, "The pagination audit").
//
// A continuation is a LastEvaluatedKey of Query or Scan, a LastEvaluatedTableName of ListTables, a NextToken of
// ExecuteStatement, one unprocessed request of BatchWriteItem (UnprocessedItems) or BatchGetItem (UnprocessedKeys),
// or a NextShardIterator of GetRecords. It is identified by the caller's access key, the operation, the table and
// index, and the token itself (a key's attributes in name order, so a client that reorders them still matches). A
// later request of the same caller that carries the token (an ExclusiveStartKey, ExclusiveStartTableName,
// NextToken, ShardIterator, or the same put, delete or key again) follows it; whatever is never followed is abandoned:
// the report names the operation, table, index, key condition and filter, the pages and items read so far, what was
// left, and the token where the reading stopped. A NextShardIterator handed out when the shard held no record after it
// (the reader had caught up) is not abandoned when it is left: a stream reader stops there.
//
// What was left is counted when the report is made: for Query, Scan, ListTables and ExecuteStatement by reading the
// rest of the chain again (as the same caller, without chaos, at the server's page size, so "now"), for a batch one
// request, for GetRecords the records the shard held after the iterator when it was handed out.
//
// Thread-safe. At most kMaxOpenContinuations are remembered; more are counted but not kept.

#ifndef DYNAPAGE_SERVER_ADMIN_PAGINATION_AUDIT_H_
#define DYNAPAGE_SERVER_ADMIN_PAGINATION_AUDIT_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dynapage {

constexpr size_t kMaxOpenContinuations = 100000;

// Most pages a report reads again to count what chains left; beyond them the counts are unknown (null).
constexpr uint64_t kMaxReplayedPages = 10000;

// Runs one DynamoDB request (operation, JSON body) as the caller of that Authorization header, without the test
// bench; returns the answer's body, or nothing when it failed.
using ReplayRequest = std::function<std::optional<std::string>(
    std::string_view operation, const std::string& authorization, const std::string& body)>;

// The table and index a PartiQL statement names (empty when it names none).
struct StatementTarget {
  std::string table, index;
};

// What an answer handed out besides its body.
struct IssuedContinuation {
  std::string_view scope;               // the request's namespace (NamespaceName): reports are made per namespace
  std::string_view authorization;       // the request's Authorization header (to read the rest of a chain again)
  uint64_t records_after_iterator = 0;  // GetRecords: records after its NextShardIterator
  StatementTarget statement;            // ExecuteStatement: what its statement names
};

class PaginationAudit {
 public:
  // One answered request: request and response are the parsed bodies (response of a successful call only).
  void Observe(std::string_view operation, std::string_view access_key, std::string_view request_id,
               const rapidjson::Value& request, const rapidjson::Value& response,
               const IssuedContinuation& issued = IssuedContinuation());
  // {"issued": N, "followed": N, "abandoned": [ … ]} (docs/testing-pagination.md) of namespace scope, or of every
  // namespace when scope is null. replay, when given, counts what Query, Scan and ListTables chains left; without
  // it those counts are null.
  std::string ReportJson(const ReplayRequest* replay = nullptr, const std::string* scope = nullptr) const;
  // The summary at shutdown: one line per abandoned continuation, and one per operation and table for a batch's
  // unprocessed requests never sent again.
  std::string Summary(const ReplayRequest* replay = nullptr) const;
  size_t abandoned() const;
  // How many continuations are abandoned, by operation ("Query": 2), over every namespace.
  std::map<std::string, size_t> AbandonedByOperation() const;
  // Forgets what namespace scope's requests handed out and followed, or everything when scope is null.
  void Clear(const std::string* scope = nullptr);

 private:
  struct Continuation {
    std::string scope;
    std::string operation, table, index, key_condition, filter, statement, access_key, request_id;
    std::string token_json;  // what the client should have sent back
    uint64_t pages_read = 0;
    uint64_t items_read = 0;
    uint64_t times = 1;  // handed out this many times without being followed in between
    // Query, Scan, ListTables, ExecuteStatement: the request and its Authorization header, to read the rest again.
    std::string request_json, authorization;
    std::optional<uint64_t> pages_left, items_left;  // known at issue time (batches, GetRecords)
    bool caught_up = false;                          // GetRecords: nothing followed the iterator when it was handed out
  };

  // Follows the token if it was handed out: *chain gets the pages and items read before it.
  void Follow(const std::string& id, Continuation* chain);
  void Issue(const std::string& id, Continuation continuation);
  // Reads the rest of c's Query, Scan, ListTables or ExecuteStatement chain again, at most *budget pages (taken from
  // it), and sets what c left; leaves it unknown if the reading fails or runs out of budget.
  static void CountLeft(const ReplayRequest& replay, Continuation* c, uint64_t* budget);
  // The abandoned continuations of scope (null: all), with what each left counted (replay may be null).
  std::vector<Continuation> Abandoned(const ReplayRequest* replay, const std::string* scope) const;

  struct Counts {
    uint64_t issued = 0, followed = 0, not_kept = 0;
  };
  // The counts of scope, or their sums over every namespace when scope is null. REQUIRES: mu_ held.
  Counts CountsOf(const std::string* scope) const;

  mutable std::mutex mu_;
  std::map<std::string, Continuation> open_;  // guarded by mu_; by identity (which starts with the namespace)
  std::map<std::string, Counts> counts_;      // guarded by mu_; by namespace
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_PAGINATION_AUDIT_H_
