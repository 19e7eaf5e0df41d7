// FaultRules: errors, latency, unprocessed batches and dropped connections injected by rule
// (docs/testing-pagination.md, "Fault rules").
//
// A rule is a JSON object: match fields (operation, table, index, access_key, and when among the matching calls:
// nth, every, probability, times) and actions (error, latency_ms, unprocessed, drop_connection). A rule counts
// the calls it matches; it fires on a call when every one of its "when" conditions holds: the nth matching call,
// every k-th, with probability p (drawn from the rule's own seeded dice), and fewer than `times` firings so far.
// Each error is one DynamoDB really returns, with its HTTP status, __type and message; a
// ConditionalCheckFailedException is not a fault (it depends on the data) and is refused.
//
// A rule belongs to one namespace (it sees only its requests) or to every namespace (test_bench.h). A rule that
// could never do what it says (an unknown field or operation, an action another one voids) is refused.
//
// Thread-safe: rules are added, listed and cleared while requests are matched.

#ifndef DYNAPAGE_SERVER_ADMIN_FAULT_RULES_H_
#define DYNAPAGE_SERVER_ADMIN_FAULT_RULES_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/request_policies.h"

namespace dynapage {

struct FaultRule {
  // The namespace (NamespaceName) whose requests the rule sees; none: every namespace's (--faults FILE, or a rule
  // added with ?scope=all).
  std::optional<std::string> scope;
  // Match: empty means any.
  std::string operation, table, index, access_key;
  // When, among the matching calls (counted from 1): 0 / 1.0 mean no such condition.
  uint64_t nth = 0, every = 0, times = 0;
  double probability = 1.0;
  uint64_t seed = 1;  // of the probability's dice
  // Actions.
  std::string error;  // a name from the list in docs/testing-pagination.md, or ""
  uint64_t latency_ms = 0;
  double unprocessed = 0;  // BatchWriteItem, BatchGetItem: the share of requests left unprocessed
  bool drop_connection = false;
};

// Reads one rule from JSON. operations: the names a rule's "operation" may be (the operations dynapage serves).
// Returns "" on success, else a message naming the field that is wrong and what it may be.
std::string ParseFaultRule(const rapidjson::Value& json, const std::vector<std::string>& operations, FaultRule* rule);

// The most batches in a row a rule's "unprocessed" applies to: the next one it fires on is served whole (and the
// count starts again), so that a client resending what is left always progresses, even when the share leaves a
// whole batch unprocessed (a one-item batch: the share is rounded up).
constexpr uint64_t kMaxWhollyUnprocessedInARow = 3;

// The request a rule is matched against.
struct FaultTarget {
  std::string_view operation;
  std::vector<std::string_view> tables;   // TableName, or RequestItems' tables of a batch
  std::vector<std::string_view> indexes;  // IndexName, or the indexes PartiQL statements read (a batch's: each)
  std::string_view access_key;
  std::string_view scope;  // the request's namespace (NamespaceName)
};

// What the rules that fired decided for one request.
struct FaultDecision {
  bool fired = false;
  std::string error;
  uint64_t latency_ms = 0;
  double unprocessed = 0;
  bool drop_connection = false;
  std::string description;  // "rule 2: ThrottlingException", for the request log
};

// An injected error's answer.
struct FaultError {
  int http_status = 400;
  std::string type;  // the full __type
  std::string message;
};
// REQUIRES: name was accepted by ParseFaultRule. transact_items: the number of actions of a transaction, for a
// TransactionCanceledException's CancellationReasons (appended to body).
FaultError FaultErrorOf(const std::string& name);
// The JSON body of an injected error.
std::string FaultErrorBody(const std::string& name, size_t transact_items);

class FaultRules {
 public:
  void Add(FaultRule rule);
  // Removes the rules of namespace scope (those of every namespace stay), or every rule when scope is null.
  void Clear(const std::string* scope);
  bool empty() const;
  // The rules a namespace's requests see (its own and every namespace's), or every rule when scope is null, with
  // how often each matched and fired, as a JSON array.
  std::string ListJson(const std::string* scope) const;
  // Matches target against every rule, counting; the actions of every rule that fires are combined.
  FaultDecision Decide(const FaultTarget& target);

 private:
  struct Entry {
    FaultRule rule;
    uint64_t matched = 0;
    uint64_t fired = 0;
    uint64_t unprocessed_in_a_row = 0;  // firings in a row that left a batch unprocessed
    ChaosDice dice{1};
  };
  mutable std::mutex mu_;
  std::vector<Entry> rules_;  // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_FAULT_RULES_H_
