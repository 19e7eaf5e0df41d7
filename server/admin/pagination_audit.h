// PaginationAudit: every continuation dynapage hands out, and whether the same caller followed it
// (docs/testing-pagination.md, "The pagination audit").
//
// A continuation is a LastEvaluatedKey of Query or Scan, a LastEvaluatedTableName of ListTables, or one
// unprocessed request of BatchWriteItem (UnprocessedItems) or BatchGetItem (UnprocessedKeys). It is identified by
// the caller's access key, the operation, the table and index, and the token itself (a key's attributes in name
// order, so a client that reorders them still matches). A later request of the same caller that carries the token
// (an ExclusiveStartKey, ExclusiveStartTableName, or the same put, delete or key again) follows it; whatever is
// never followed is abandoned: the report names the operation, table, index, key condition and filter, the pages
// read so far and the key where the reading stopped.
//
// Thread-safe. At most kMaxOpenContinuations are remembered; more are counted but not kept.

#ifndef DYNAPAGE_SERVER_ADMIN_PAGINATION_AUDIT_H_
#define DYNAPAGE_SERVER_ADMIN_PAGINATION_AUDIT_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace dynapage {

constexpr size_t kMaxOpenContinuations = 100000;

class PaginationAudit {
 public:
  // One answered request: request and response are the parsed bodies (response of a successful call only).
  void Observe(std::string_view operation, std::string_view access_key, std::string_view request_id,
               const rapidjson::Value& request, const rapidjson::Value& response);
  // {"issued": N, "followed": N, "abandoned": [ … ]} (docs/testing-pagination.md).
  std::string ReportJson() const;
  // One line per abandoned continuation, for the summary at shutdown.
  std::string Summary() const;
  size_t abandoned() const;
  void Clear();

 private:
  struct Continuation {
    std::string operation, table, index, key_condition, filter, access_key, request_id;
    std::string token_json;  // what the client should have sent back
    uint64_t pages_read = 0;
    uint64_t items_read = 0;
    uint64_t times = 1;  // handed out this many times without being followed in between
  };

  // Follows the token if it was handed out; returns the pages and items read before it (0 when not found).
  void Follow(const std::string& id, Continuation* chain);
  void Issue(const std::string& id, Continuation continuation);

  mutable std::mutex mu_;
  std::map<std::string, Continuation> open_;  // guarded by mu_; by identity
  uint64_t issued_ = 0;                       // guarded by mu_
  uint64_t followed_ = 0;                     // guarded by mu_
  uint64_t not_kept_ = 0;                     // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_PAGINATION_AUDIT_H_
