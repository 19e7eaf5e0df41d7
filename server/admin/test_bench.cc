#include "server/admin/test_bench.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <thread>
#include <utility>

#include "engine/base/check.h"
#include "engine/base/utc_time.h"
#include "server/admin/admin_json.h"
#include "server/admin/logged_continuation.h"
#include "server/protocol/in_process_request.h"
#include "server/protocol/request_targets.h"

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

// Why a Query or Scan page ended: the table or index ran out ("end"), page chaos cut it ("chaos"), it evaluated
// Limit items ("limit"), or it read its bytes (DynamoDB's 1 MB: "size"; a lower --max-page-bytes: "max-page-bytes").
std::string_view PageEnd(const rapidjson::Value& body, const RequestCounters& counters, uint64_t max_page_bytes) {
  if (!counters.returned_last_key) return "end";
  if (counters.injected.rfind("page chaos", 0) == 0) return "chaos";
  auto limit = body.FindMember("Limit");
  if (limit != body.MemberEnd() && limit->value.IsUint64() && counters.items_evaluated >= limit->value.GetUint64()) {
    return "limit";
  }
  return max_page_bytes < kDynamoDbPageBytes ? "max-page-bytes" : "size";
}

bool IsContinued(std::string_view operation) {
  return operation == "Query" || operation == "Scan" || operation == "ListTables" || operation == "BatchWriteItem" ||
         operation == "BatchGetItem" || operation == "GetRecords" || operation == "ExecuteStatement";
}

std::string UtcNow() {
  auto now = std::chrono::system_clock::now();
  return IsoUtcText(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count());
}

}  // namespace

std::string ParseFaultRules(const std::string& json_text, const std::vector<std::string>& operations,
                            std::vector<FaultRule>* rules) {
  rapidjson::Document document;
  document.Parse(json_text.c_str(), json_text.size());
  if (document.HasParseError()) return "fault rules are not valid JSON";
  if (!document.IsArray()) return "fault rules must be a JSON list of rule objects";
  return ParseFaultRuleList(document, operations, rules);
}

std::string ParseFaultRuleList(const rapidjson::Value& document, const std::vector<std::string>& operations,
                               std::vector<FaultRule>* rules) {
  rules->clear();
  if (!document.IsArray()) {
    FaultRule rule;
    std::string error = ParseFaultRule(document, operations, &rule);
    if (error.empty()) rules->push_back(std::move(rule));
    return error;
  }
  for (rapidjson::SizeType i = 0; i < document.Size(); i++) {
    FaultRule rule;
    std::string error = ParseFaultRule(document[i], operations, &rule);
    if (!error.empty()) return "fault rule " + std::to_string(i + 1) + ": " + error;
    rules->push_back(std::move(rule));
  }
  return "";
}

TestBench::TestBench(TestBenchOptions options) : options_(std::move(options)) {
  for (const FaultRule& rule : options_.faults) faults_.Add(rule);
  if (options_.audit_pagination) audit_ = std::make_unique<PaginationAudit>();
  log_ = std::make_unique<RequestLog>();
  log_on_ = log_kept_ = !options_.request_log.empty();
  if (options_.metrics) metrics_ = std::make_unique<Metrics>();
  every_namespace_chaos_.seed = options_.page_chaos_seed;
  Rearm();
}

std::string TestBench::Open() { return options_.request_log.empty() ? "" : log_->Open(options_.request_log); }

const char* TestBench::WatchRequests() {
  if (!options_.request_log.empty()) return "file";
  console_watch_until_ = SteadyNanos() + options_.console_watch_ms * 1000000;
  if (!log_on_) {
    log_kept_ = log_on_ = true;
    Rearm();
  }
  return "memory";
}

void TestBench::Rearm() {
  {
    std::lock_guard<std::mutex> lock(chaos_mu_);
    chaos_on_ = !every_namespace_chaos_.empty() || !chaos_.empty();
  }
  faults_on_ = !faults_.empty();
  set_armed(chaos_on_ || faults_on_ || audit_ || log_on_ || metrics_);
}

std::string TestBench::ScopeOf(std::string_view authorization) const {
  return NamespaceName(namespace_mode_, CallerOf(authorization, default_region_));
}

void TestBench::SetChaos(const std::string* scope, const std::string& table, uint64_t seed) {
  {
    std::lock_guard<std::mutex> lock(chaos_mu_);
    ChaosSetting& setting = scope ? chaos_[*scope] : every_namespace_chaos_;
    if (table.empty()) {
      setting.seed = seed;
    } else {
      setting.tables[table] = seed;
    }
    // The seed's sequence starts again: the same requests get the same pages.
    if (scope) {
      chaos_requests_.erase(*scope);
    } else {
      chaos_requests_.clear();
    }
  }
  Rearm();
}

void TestBench::ClearChaos(const std::string* scope, const std::string& table) {
  {
    std::lock_guard<std::mutex> lock(chaos_mu_);
    if (!scope && table.empty()) {
      every_namespace_chaos_ = ChaosSetting();
      chaos_.clear();
    } else if (!scope) {
      every_namespace_chaos_.tables.erase(table);
      for (auto& [name, setting] : chaos_) setting.tables.erase(table);
    } else if (table.empty()) {
      chaos_.erase(*scope);
    } else {
      auto it = chaos_.find(*scope);
      if (it != chaos_.end()) it->second.tables.erase(table);
    }
    for (auto it = chaos_.begin(); it != chaos_.end();) it = it->second.empty() ? chaos_.erase(it) : std::next(it);
  }
  Rearm();
}

std::string TestBench::ChaosJson(const std::string* scope) const {
  std::lock_guard<std::mutex> lock(chaos_mu_);
  const ChaosSetting* setting = &every_namespace_chaos_;
  if (scope) {
    auto it = chaos_.find(*scope);
    if (it != chaos_.end()) setting = &it->second;
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("seed");
  if (setting->seed) {
    w.Uint64(*setting->seed);
  } else {
    w.Null();
  }
  w.Key("tables");
  w.StartObject();
  for (const auto& [table, seed] : setting->tables) {
    w.Key(table.c_str(), static_cast<rapidjson::SizeType>(table.size()));
    w.Uint64(seed);
  }
  w.EndObject();
  w.Key("scope");
  if (setting == &every_namespace_chaos_) {
    w.String("all");
  } else {
    w.String(scope->c_str(), static_cast<rapidjson::SizeType>(scope->size()));
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

void TestBench::AddFault(FaultRule rule) {
  faults_.Add(std::move(rule));
  Rearm();
}

void TestBench::ClearFaults(const std::string* scope) {
  faults_.Clear(scope);
  Rearm();
}

void TestBench::ForgetRequests(const std::string* scope) {
  if (audit_) audit_->Clear(scope);
  if (log_) log_->Clear(scope);
}

void TestBench::Attach(DatabaseSet* databases, const ServiceOptions& options, OperationFinder find_operation,
                       std::vector<std::string> operations) {
  namespace_mode_ = databases->mode();
  default_region_ = options.region;
  max_page_bytes_ = options.max_page_bytes;
  operations_ = std::move(operations);
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

std::string TestBench::AuditReportJson(const std::string* scope) const {
  DP_DCHECK(audit_ != nullptr);
  ReplayRequest replay = [this](std::string_view operation, const std::string& authorization, const std::string& body) {
    return Replay(operation, authorization, body);
  };
  return audit_->ReportJson(&replay, scope);
}

std::string TestBench::AuditSummary() const {
  DP_DCHECK(audit_ != nullptr);
  ReplayRequest replay = [this](std::string_view operation, const std::string& authorization, const std::string& body) {
    return Replay(operation, authorization, body);
  };
  return audit_->Summary(&replay);
}

std::optional<uint64_t> TestBench::ChaosSeedFor(const std::string& scope, const std::vector<std::string>& tables) {
  std::lock_guard<std::mutex> lock(chaos_mu_);
  auto own = chaos_.find(scope);
  // The namespace's own setting, else every namespace's.
  const ChaosSetting& setting = own != chaos_.end() ? own->second : every_namespace_chaos_;
  std::optional<uint64_t> seed = setting.seed;
  for (const std::string& table : tables) {
    if (seed) break;
    auto it = setting.tables.find(table);
    if (it != setting.tables.end()) seed = it->second;
  }
  if (!seed) return std::nullopt;
  // The n-th request of the namespace under chaos gets the n-th draw of the seed's sequence.
  ChaosDice dice(*seed ^ (++chaos_requests_[scope] * 0xD1B54A32D192ED03ULL));
  return dice.Next();
}

bool TestBench::Before(HookedRequest* request, RequestContext* context, WireResponse* fault) {
  request->start_nanos = SteadyNanos();
  const rapidjson::Value& body = *request->body;
  if (log_on_ || metrics_ || audit_) context->counters = &request->counters;
  const RequestTargets& targets = request->targets();
  std::string scope;
  if (chaos_on_ || faults_on_) scope = ScopeOf(request->wire->authorization);
  if (chaos_on_) {
    if (std::optional<uint64_t> seed = ChaosSeedFor(scope, targets.tables)) {
      request->policies.page_chaos = true;
      request->policies.chaos_seed = *seed;
      context->policies = &request->policies;
    }
  }
  if (!faults_on_) return false;
  FaultTarget target;
  target.operation = request->operation;
  target.tables.assign(targets.tables.begin(), targets.tables.end());
  target.indexes.assign(targets.indexes.begin(), targets.indexes.end());
  target.access_key = AccessKeyOf(request->wire->authorization);
  target.scope = scope;
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
  // The console stopped watching a log kept in memory only: it stops recording.
  if (log_on_ && options_.request_log.empty() && request.start_nanos > console_watch_until_) {
    log_on_ = false;
    Rearm();
  }
  const bool log_on = log_on_;
  const std::string scope = audit_ || log_on ? ScopeOf(request.wire->authorization) : std::string();
  if (audit_ && response.status == 200 && IsContinued(request.operation)) {
    rapidjson::Document answer;
    answer.Parse(response.body.c_str(), response.body.size());
    if (!answer.HasParseError()) {
      IssuedContinuation issued;
      issued.authorization = request.wire->authorization;
      issued.scope = scope;
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
  if (!log_on) return;
  Caller caller = CallerOf(request.wire->authorization, default_region_);
  const RequestTargets& targets = request.targets();
  LoggedRequest line;
  line.time = UtcNow();
  line.request_id = request.wire->request_id;
  line.access_key = caller.access_key;
  line.region = caller.region;
  line.operation = request.operation;
  for (const std::string& table : targets.tables) line.table.append(line.table.empty() ? "" : ",").append(table);
  line.index = targets.index;
  line.status = response.drop_connection ? 0 : response.status;
  line.error = response.drop_connection ? "connection dropped" : error;
  rapidjson::Document answer;
  if (response.status != 200 && !response.drop_connection) {
    answer.Parse(response.body.c_str(), response.body.size());
    line.message = TextMember(answer, "message");
    if (line.message.empty()) line.message = TextMember(answer, "Message");
  }
  line.latency_ms = static_cast<double>(static_cast<int64_t>(seconds * 1e6)) / 1e3;
  line.items_returned = counters.items_returned;
  line.items_evaluated = counters.items_evaluated;
  line.bytes_read = counters.bytes_read;
  line.items_written = counters.items_written;
  line.exclusive_start_key =
      counters.used_start_key || body.HasMember("ExclusiveStartKey") || body.HasMember("ExclusiveStartTableName");
  line.last_evaluated_key = counters.returned_last_key;
  if (response.status == 200 && (request.operation == "Query" || request.operation == "Scan")) {
    line.page_end = PageEnd(body, counters, max_page_bytes_);
  }
  line.injected = std::move(injected);
  LoggedContinuation continuation =
      ContinuationOf(request.operation, body, response.status == 200 ? response.body : "", counters.returned_last_key);
  line.start_key = std::move(continuation.start);
  line.next_key = std::move(continuation.next);
  std::string json = RequestLogJson(line);
  log_->Write(std::move(json), scope, options_.log_text ? RequestLogText(line) : std::string());
}

}  // namespace dynapage
