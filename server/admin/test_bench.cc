#include "server/admin/test_bench.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <thread>
#include <utility>

#include "engine/base/check.h"
#include "server/admin/admin_json.h"
#include "server/protocol/in_process_request.h"

namespace dynapage {

namespace {

int64_t SteadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

size_t TransactItemCount(const rapidjson::Value& body) {
  auto transact = body.FindMember("TransactItems");
  return transact != body.MemberEnd() && transact->value.IsArray() ? transact->value.Size() : 0;
}

// The access key of "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, …".
std::string_view AccessKeyOf(std::string_view authorization) {
  size_t at = authorization.find("Credential=");
  if (at == std::string_view::npos) return {};
  std::string_view rest = authorization.substr(at + 11);
  return rest.substr(0, rest.find_first_of("/, "));
}

// The error name of an error answer ("ThrottlingException"), or "".
std::string_view ErrorNameOf(const std::string& body) {
  static const char kType[] = "\"__type\":\"";
  size_t at = body.find(kType);
  if (at == std::string::npos) return {};
  std::string_view type(body);
  type = type.substr(at + sizeof(kType) - 1);
  type = type.substr(0, type.find('"'));
  size_t hash = type.find('#');
  return hash == std::string_view::npos ? type : type.substr(hash + 1);
}

bool IsContinued(std::string_view operation) {
  return operation == "Query" || operation == "Scan" || operation == "ListTables" || operation == "BatchWriteItem" ||
         operation == "BatchGetItem" || operation == "GetRecords" || operation == "ExecuteStatement";
}

std::string UtcNow() {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[96];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(millis));
  return text;
}

}  // namespace

std::string ParseFaultRules(const std::string& json_text, std::vector<FaultRule>* rules) {
  rapidjson::Document document;
  document.Parse(json_text.c_str(), json_text.size());
  if (document.HasParseError()) return "fault rules are not valid JSON";
  if (!document.IsArray()) return "fault rules must be a JSON list of rule objects";
  return ParseFaultRuleList(document, rules);
}

std::string ParseFaultRuleList(const rapidjson::Value& document, std::vector<FaultRule>* rules) {
  rules->clear();
  if (!document.IsArray()) {
    FaultRule rule;
    std::string error = ParseFaultRule(document, &rule);
    if (error.empty()) rules->push_back(std::move(rule));
    return error;
  }
  for (rapidjson::SizeType i = 0; i < document.Size(); i++) {
    FaultRule rule;
    std::string error = ParseFaultRule(document[i], &rule);
    if (!error.empty()) return "fault rule " + std::to_string(i + 1) + ": " + error;
    rules->push_back(std::move(rule));
  }
  return "";
}

TestBench::TestBench(TestBenchOptions options) : options_(std::move(options)) {
  for (const FaultRule& rule : options_.faults) faults_.Add(rule);
  if (options_.audit_pagination) audit_ = std::make_unique<PaginationAudit>();
  if (!options_.request_log.empty()) log_ = std::make_unique<RequestLog>();
  if (options_.metrics) metrics_ = std::make_unique<Metrics>();
  chaos_seed_ = options_.page_chaos_seed;
  Rearm();
}

std::string TestBench::Open() { return log_ ? log_->Open(options_.request_log) : ""; }

void TestBench::Rearm() {
  {
    std::lock_guard<std::mutex> lock(chaos_mu_);
    chaos_on_ = chaos_seed_.has_value() || !table_chaos_.empty();
  }
  faults_on_ = !faults_.empty();
  set_armed(chaos_on_ || faults_on_ || audit_ || log_ || metrics_);
}

void TestBench::SetChaos(const std::string& table, uint64_t seed) {
  {
    std::lock_guard<std::mutex> lock(chaos_mu_);
    if (table.empty()) {
      chaos_seed_ = seed;
    } else {
      table_chaos_[table] = seed;
    }
    chaos_requests_ = 0;  // the seed's sequence starts again: the same requests get the same pages
  }
  Rearm();
}

void TestBench::ClearChaos(const std::string& table) {
  {
    std::lock_guard<std::mutex> lock(chaos_mu_);
    if (table.empty()) {
      chaos_seed_.reset();
      table_chaos_.clear();
    } else {
      table_chaos_.erase(table);
    }
  }
  Rearm();
}

std::string TestBench::ChaosJson() const {
  std::lock_guard<std::mutex> lock(chaos_mu_);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("seed");
  if (chaos_seed_) {
    w.Uint64(*chaos_seed_);
  } else {
    w.Null();
  }
  w.Key("tables");
  w.StartObject();
  for (const auto& [table, seed] : table_chaos_) {
    w.Key(table.c_str(), static_cast<rapidjson::SizeType>(table.size()));
    w.Uint64(seed);
  }
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

void TestBench::AddFault(FaultRule rule) {
  faults_.Add(std::move(rule));
  Rearm();
}

void TestBench::ClearFaults() {
  faults_.Clear();
  Rearm();
}

void TestBench::ForgetRequests() {
  if (audit_) audit_->Clear();
  if (log_) log_->Clear();
}

void TestBench::ServeReplays(DatabaseSet* databases, const ServiceOptions& options, OperationFinder find_operation) {
  ServiceOptions plain = options;
  plain.hooks = nullptr;
  replays_ = std::make_unique<Dispatcher>(databases, plain, find_operation);
}

std::optional<std::string> TestBench::Replay(std::string_view operation, const std::string& authorization,
                                             const std::string& body) const {
  if (!replays_) return std::nullopt;
  InProcessRequest request("pagination-audit", operation, authorization, body);
  request.wire.host = "localhost";
  request.wire.query_has_algorithm = authorization.empty();  // an unsigned original was presigned
  WireResponse response = replays_->Handle(request.wire);
  if (response.status != 200) return std::nullopt;
  return std::move(response.body);
}

std::string TestBench::AuditReportJson() const {
  DP_DCHECK(audit_ != nullptr);
  ReplayRequest replay = [this](std::string_view operation, const std::string& authorization, const std::string& body) {
    return Replay(operation, authorization, body);
  };
  return audit_->ReportJson(&replay);
}

std::string TestBench::AuditSummary() const {
  DP_DCHECK(audit_ != nullptr);
  ReplayRequest replay = [this](std::string_view operation, const std::string& authorization, const std::string& body) {
    return Replay(operation, authorization, body);
  };
  return audit_->Summary(&replay);
}

std::optional<uint64_t> TestBench::ChaosSeedFor(const std::vector<std::string>& tables) {
  std::lock_guard<std::mutex> lock(chaos_mu_);
  std::optional<uint64_t> seed = chaos_seed_;
  for (const std::string& table : tables) {
    if (seed) break;
    auto it = table_chaos_.find(table);
    if (it != table_chaos_.end()) seed = it->second;
  }
  if (!seed) return std::nullopt;
  // The n-th request under chaos gets the n-th draw of the seed's sequence.
  ChaosDice dice(*seed ^ (++chaos_requests_ * 0xD1B54A32D192ED03ULL));
  return dice.Next();
}

bool TestBench::Before(HookedRequest* request, RequestContext* context, WireResponse* fault) {
  request->start_nanos = SteadyNanos();
  const rapidjson::Value& body = *request->body;
  if (log_ || metrics_ || audit_) context->counters = &request->counters;
  if (chaos_on_) {
    if (std::optional<uint64_t> seed = ChaosSeedFor(request->targets().tables)) {
      request->policies.page_chaos = true;
      request->policies.chaos_seed = *seed;
      context->policies = &request->policies;
    }
  }
  if (!faults_on_) return false;
  FaultTarget target;
  target.operation = request->operation;
  const RequestTargets& targets = request->targets();
  target.tables.assign(targets.tables.begin(), targets.tables.end());
  target.indexes.assign(targets.indexes.begin(), targets.indexes.end());
  target.access_key = AccessKeyOf(request->wire->authorization);
  FaultDecision decision = faults_.Decide(target);
  if (!decision.fired) return false;
  request->fault = decision.description;
  if (decision.latency_ms) std::this_thread::sleep_for(std::chrono::milliseconds(decision.latency_ms));
  if (decision.unprocessed > 0) {
    request->policies.unprocessed = decision.unprocessed;
    if (!request->policies.page_chaos) request->policies.chaos_seed = request->start_nanos;
    context->policies = &request->policies;
  }
  if (decision.drop_connection) {
    *fault = WireResponse();
    fault->drop_connection = true;
    return true;
  }
  if (!decision.error.empty()) {
    FaultError error = FaultErrorOf(decision.error);
    *fault = WireResponse();
    fault->status = error.http_status;
    fault->body = FaultErrorBody(decision.error, TransactItemCount(body));
    return true;
  }
  return false;
}

void TestBench::After(const HookedRequest& request, const WireResponse& response) {
  double seconds = static_cast<double>(SteadyNanos() - request.start_nanos) / 1e9;
  const RequestCounters& counters = request.counters;
  const rapidjson::Value& body = *request.body;
  std::string_view error = response.status == 200 ? std::string_view() : ErrorNameOf(response.body);
  if (audit_ && response.status == 200 && IsContinued(request.operation)) {
    rapidjson::Document answer;
    answer.Parse(response.body.c_str(), response.body.size());
    if (!answer.HasParseError()) {
      IssuedContinuation issued;
      issued.authorization = request.wire->authorization;
      issued.records_after_iterator = counters.records_after_iterator;
      if (request.operation == "ExecuteStatement") {
        issued.statement = {request.targets().statement_table, request.targets().statement_index};
      }
      audit_->Observe(request.operation, AccessKeyOf(request.wire->authorization), request.wire->request_id, body,
                      answer, issued);
    }
  }
  std::string injected = request.fault;
  if (!counters.injected.empty()) injected.append(injected.empty() ? "" : "; ").append(counters.injected);
  if (metrics_) metrics_->Record(request.operation, response.status, seconds, counters, !request.fault.empty());
  if (!log_) return;
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("time");
  w.String(UtcNow().c_str());
  WriteOptionalText(&w, "request_id", request.wire->request_id);
  WriteOptionalText(&w, "operation", request.operation);
  const RequestTargets& targets = request.targets();
  std::string tables;
  for (const std::string& table : targets.tables) tables.append(tables.empty() ? "" : ",").append(table);
  WriteOptionalText(&w, "table", tables);
  WriteOptionalText(&w, "index", targets.index);
  w.Key("status");
  w.Int(response.drop_connection ? 0 : response.status);
  WriteOptionalText(&w, "error", response.drop_connection ? "connection dropped" : error);
  w.Key("latency_ms");
  w.Double(static_cast<double>(static_cast<int64_t>(seconds * 1e6)) / 1e3);
  w.Key("items_returned");
  w.Uint64(counters.items_returned);
  w.Key("items_evaluated");
  w.Uint64(counters.items_evaluated);
  w.Key("bytes_read");
  w.Uint64(counters.bytes_read);
  w.Key("items_written");
  w.Uint64(counters.items_written);
  w.Key("exclusive_start_key");
  w.Bool(counters.used_start_key || body.HasMember("ExclusiveStartKey") || body.HasMember("ExclusiveStartTableName"));
  w.Key("last_evaluated_key");
  w.Bool(counters.returned_last_key);
  WriteOptionalText(&w, "injected", injected);
  w.EndObject();
  log_->Write(std::string(buffer.GetString(), buffer.GetSize()));
}

}  // namespace dynapage
