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

// Reads one rule from JSON. Returns "" on success, else a message naming what is wrong.
std::string ParseFaultRule(const rapidjson::Value& json, FaultRule* rule);

// The request a rule is matched against.
struct FaultTarget {
  std::string_view operation;
  std::vector<std::string_view> tables;  // TableName, or RequestItems' tables of a batch
  std::vector<std::string_view> indexes;  // IndexName, or the indexes PartiQL statements read (a batch's: each)
  std::string_view access_key;
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
  void Clear();
  bool empty() const;
  // Every rule with how often it matched and fired, as a JSON array.
  std::string ListJson() const;
  // Matches target against every rule, counting; the actions of every rule that fires are combined.
  FaultDecision Decide(const FaultTarget& target);

 private:
  struct Entry {
    FaultRule rule;
    uint64_t matched = 0;
    uint64_t fired = 0;
    ChaosDice dice{1};
  };
  mutable std::mutex mu_;
  std::vector<Entry> rules_;  // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_FAULT_RULES_H_
