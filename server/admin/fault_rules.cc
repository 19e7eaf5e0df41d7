#include "server/admin/fault_rules.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/base/check.h"

namespace dynapage {

namespace {

struct KnownError {
  const char* name;
  int http_status;
  const char* type_prefix;
  const char* message;
};

const char kDynamoDb[] = "com.amazonaws.dynamodb.v20120810#";
const char kAvailability[] = "com.amazon.coral.availability#";

// The errors a rule may inject: DynamoDB's own, as it sends them (docs/testing-pagination.md).
const KnownError kErrors[] = {
    {"ProvisionedThroughputExceededException", 400, kDynamoDb,
     "The level of configured provisioned throughput for the table was exceeded. Consider increasing your "
     "provisioning level with the UpdateTable API."},
    {"ThrottlingException", 400, kAvailability, "Rate of requests exceeds the allowed throughput."},
    {"RequestLimitExceeded", 400, kDynamoDb,
     "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at "
     "https://aws.amazon.com/support request a limit increase"},
    {"InternalServerError", 500, kDynamoDb, "Internal server error"},
    {"ServiceUnavailable", 503, kDynamoDb, "Service Unavailable"},
    {"TransactionCanceledException", 400, kDynamoDb,
     "Transaction cancelled, please refer cancellation reasons for "
     "specific reasons"},
};

const KnownError* FindError(std::string_view name) {
  for (const KnownError& e : kErrors) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

bool IsTransaction(std::string_view operation) {
  return operation == "TransactWriteItems" || operation == "TransactGetItems";
}

std::string ErrorNames() {
  std::string names;
  for (const KnownError& e : kErrors) names.append(names.empty() ? "" : ", ").append(e.name);
  return names;
}

bool ReadCount(const rapidjson::Value& v, uint64_t min, uint64_t max, uint64_t* out) {
  if (!v.IsUint64() || v.GetUint64() < min || v.GetUint64() > max) return false;
  *out = v.GetUint64();
  return true;
}

bool ReadShare(const rapidjson::Value& v, double* out) {
  if (!v.IsNumber() || !(v.GetDouble() > 0) || v.GetDouble() > 1) return false;
  *out = v.GetDouble();
  return true;
}

}  // namespace

std::string ParseFaultRule(const rapidjson::Value& json, const std::vector<std::string>& operations, FaultRule* rule) {
  if (!json.IsObject()) return "a fault rule must be a JSON object";
  *rule = FaultRule();
  for (auto m = json.MemberBegin(); m != json.MemberEnd(); ++m) {
    std::string_view name(m->name.GetString(), m->name.GetStringLength());
    const rapidjson::Value& v = m->value;
    std::string* text = name == "operation"    ? &rule->operation
                        : name == "table"      ? &rule->table
                        : name == "index"      ? &rule->index
                        : name == "access_key" ? &rule->access_key
                        : name == "error"      ? &rule->error
                                               : nullptr;
    if (text) {
      if (!v.IsString() || v.GetStringLength() == 0) return "'" + std::string(name) + "' must be a non-empty string";
      text->assign(v.GetString(), v.GetStringLength());
    } else if (name == "nth" || name == "every" || name == "times") {
      uint64_t* count = name == "nth" ? &rule->nth : name == "every" ? &rule->every : &rule->times;
      if (!ReadCount(v, 1, UINT64_MAX, count)) return "'" + std::string(name) + "' must be a whole number >= 1";
    } else if (name == "seed") {
      if (!ReadCount(v, 0, UINT64_MAX, &rule->seed)) return "'seed' must be a whole number >= 0";
    } else if (name == "probability") {
      if (!ReadShare(v, &rule->probability)) return "'probability' must be a number in (0, 1]";
    } else if (name == "unprocessed") {
      if (!ReadShare(v, &rule->unprocessed)) return "'unprocessed' must be a number in (0, 1]";
    } else if (name == "latency_ms") {
      if (!ReadCount(v, 0, 600000, &rule->latency_ms)) return "'latency_ms' must be a whole number from 0 to 600000";
    } else if (name == "drop_connection") {
      if (!v.IsBool()) return "'drop_connection' must be true or false";
      rule->drop_connection = v.GetBool();
    } else {
      return "unknown field '" + std::string(name) +
             "' (match: operation, table, index, access_key, nth, every, probability, seed, times; actions: error, "
             "latency_ms, unprocessed, drop_connection)";
    }
  }
  if (!rule->operation.empty() &&
      std::find(operations.begin(), operations.end(), rule->operation) == operations.end()) {
    std::string names;
    for (const std::string& name : operations) names.append(names.empty() ? "" : ", ").append(name);
    return "unknown operation '" + rule->operation + "' in 'operation' (one of: " + names + ")";
  }
  if (!rule->error.empty() && rule->drop_connection) {
    return "'error' and 'drop_connection' cannot be combined: a dropped connection answers nothing";
  }
  if (rule->unprocessed > 0 && (!rule->error.empty() || rule->drop_connection)) {
    return "'unprocessed' cannot be combined with 'error' or 'drop_connection': the batch would not run";
  }
  if (!rule->error.empty()) {
    if (rule->error == "ConditionalCheckFailedException") {
      return "ConditionalCheckFailedException is not a fault: it depends on the data (write a condition that fails)";
    }
    if (!FindError(rule->error)) return "unknown error '" + rule->error + "' (one of: " + ErrorNames() + ")";
    if (rule->error == "TransactionCanceledException" && !IsTransaction(rule->operation)) {
      return "TransactionCanceledException needs 'operation' TransactWriteItems or TransactGetItems";
    }
  }
  if (rule->unprocessed > 0 && rule->operation != "BatchWriteItem" && rule->operation != "BatchGetItem") {
    return "'unprocessed' needs 'operation' BatchWriteItem or BatchGetItem";
  }
  if (rule->error.empty() && !rule->latency_ms && rule->unprocessed == 0 && !rule->drop_connection) {
    return "a fault rule needs an action: error, latency_ms, unprocessed or drop_connection";
  }
  return "";
}

FaultError FaultErrorOf(const std::string& name) {
  const KnownError* e = FindError(name);
  DP_DCHECK(e != nullptr);
  FaultError out;
  out.http_status = e->http_status;
  out.type = std::string(e->type_prefix) + e->name;
  out.message = e->message;
  return out;
}

std::string FaultErrorBody(const std::string& name, size_t transact_items) {
  FaultError e = FaultErrorOf(name);
  bool cancelled = name == "TransactionCanceledException";
  if (cancelled) {
    e.message += " [";
    for (size_t i = 0; i < transact_items; i++) e.message.append(i ? ", " : "").append("TransactionConflict");
    e.message += "]";
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("__type");
  w.String(e.type.c_str());
  w.Key("message");
  w.String(e.message.c_str());
  if (cancelled) {
    w.Key("CancellationReasons");
    w.StartArray();
    for (size_t i = 0; i < transact_items; i++) {
      w.StartObject();
      w.Key("Code");
      w.String("TransactionConflict");
      w.Key("Message");
      w.String("Transaction is ongoing for the item");
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

void FaultRules::Add(FaultRule rule) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = rules_.emplace_back();
  e.dice = ChaosDice(rule.seed);
  e.rule = std::move(rule);
}

void FaultRules::Clear(const std::string* scope) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!scope) {
    rules_.clear();
    return;
  }
  rules_.erase(std::remove_if(rules_.begin(), rules_.end(), [scope](const Entry& e) { return e.rule.scope == *scope; }),
               rules_.end());
}

bool FaultRules::empty() const {
  std::lock_guard<std::mutex> lock(mu_);
  return rules_.empty();
}

std::string FaultRules::ListJson(const std::string* scope) const {
  std::lock_guard<std::mutex> lock(mu_);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartArray();
  for (const Entry& e : rules_) {
    const FaultRule& r = e.rule;
    if (scope && r.scope && *r.scope != *scope) continue;
    w.StartObject();
    w.Key("scope");
    if (r.scope) {
      w.String(r.scope->c_str(), static_cast<rapidjson::SizeType>(r.scope->size()));
    } else {
      w.String("all");
    }
    auto text = [&w](const char* key, const std::string& value) {
      if (value.empty()) return;
      w.Key(key);
      w.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
    };
    auto count = [&w](const char* key, uint64_t value) {
      if (!value) return;
      w.Key(key);
      w.Uint64(value);
    };
    text("operation", r.operation);
    text("table", r.table);
    text("index", r.index);
    text("access_key", r.access_key);
    count("nth", r.nth);
    count("every", r.every);
    if (r.probability < 1) {
      w.Key("probability");
      w.Double(r.probability);
      w.Key("seed");
      w.Uint64(r.seed);
    }
    count("times", r.times);
    text("error", r.error);
    count("latency_ms", r.latency_ms);
    if (r.unprocessed > 0) {
      w.Key("unprocessed");
      w.Double(r.unprocessed);
    }
    if (r.drop_connection) {
      w.Key("drop_connection");
      w.Bool(true);
    }
    w.Key("matched");
    w.Uint64(e.matched);
    w.Key("fired");
    w.Uint64(e.fired);
    w.EndObject();
  }
  w.EndArray();
  return std::string(buffer.GetString(), buffer.GetSize());
}

FaultDecision FaultRules::Decide(const FaultTarget& target) {
  FaultDecision d;
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < rules_.size(); i++) {
    Entry& e = rules_[i];
    const FaultRule& r = e.rule;
    if (!r.operation.empty() && r.operation != target.operation) continue;
    if (!r.table.empty()) {
      bool any = false;
      for (std::string_view t : target.tables) any = any || t == r.table;
      if (!any) continue;
    }
    if (!r.index.empty() && std::find(target.indexes.begin(), target.indexes.end(), r.index) == target.indexes.end()) {
      continue;
    }
    if (!r.access_key.empty() && r.access_key != target.access_key) continue;
    if (r.scope && *r.scope != target.scope) continue;
    uint64_t n = ++e.matched;
    bool fire = (!r.nth || n == r.nth) && (!r.every || n % r.every == 0) && (!r.times || e.fired < r.times);
    // The dice roll for every matching call, so that a rule's draws depend only on its own calls.
    if (r.probability < 1 && !e.dice.Chance(r.probability)) fire = false;
    if (!fire) continue;
    e.fired++;
    d.fired = true;
    if (d.error.empty() && !r.error.empty()) d.error = r.error;
    d.latency_ms += r.latency_ms;
    // Progress: after kMaxWhollyUnprocessedInARow batches in a row, one is served whole.
    bool leave_unprocessed = r.unprocessed > 0 && e.unprocessed_in_a_row < kMaxWhollyUnprocessedInARow;
    e.unprocessed_in_a_row = leave_unprocessed ? e.unprocessed_in_a_row + 1 : 0;
    if (leave_unprocessed && r.unprocessed > d.unprocessed) d.unprocessed = r.unprocessed;
    d.drop_connection = d.drop_connection || r.drop_connection;
    d.description.append(d.description.empty() ? "" : "; ").append("rule ").append(std::to_string(i + 1));
    if (!r.error.empty()) d.description.append(": ").append(r.error);
    if (r.latency_ms) d.description.append(": +").append(std::to_string(r.latency_ms)).append(" ms");
    if (leave_unprocessed) d.description.append(": unprocessed");
    if (r.unprocessed > 0 && !leave_unprocessed) d.description.append(": served whole (progress)");
    if (r.drop_connection) d.description.append(": connection dropped");
  }
  return d;
}

}  // namespace dynapage
