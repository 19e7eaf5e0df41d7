// TestBench: what dynapage adds around requests to find client bugs (docs/testing-pagination.md): page chaos,
// fault rules, the pagination audit, the request log and metrics. It is the dispatcher's RequestHooks, armed only
// while one of them is on, and the state the admin API (admin_api.h) reads and changes.
//
// Everything the admin API sets or reads belongs to one namespace (NamespaceName of the caller, as the DynamoDB API
// picks a database), or to every namespace (--page-chaos, --faults, or the admin API with ?scope=all): parallel
// test workers isolated by access key do not see each other's chaos, faults, audit or log.
//
// Page chaos is on for every table (--page-chaos SEED, or POST /_dynapage/chaos without a table) or for chosen
// tables (POST /_dynapage/chaos with "table"). Each request it applies to gets its own seed, mixed from the
// chaos seed and the count of such requests of its namespace so far: one seed and one sequence of requests give
// the same pages.
//
// Thread-safe.

#ifndef DYNAPAGE_SERVER_ADMIN_TEST_BENCH_H_
#define DYNAPAGE_SERVER_ADMIN_TEST_BENCH_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/admin/fault_rules.h"
#include "server/admin/metrics.h"
#include "server/admin/pagination_audit.h"
#include "server/admin/request_log.h"
#include "server/protocol/dispatcher.h"

namespace dynapage {

struct TestBenchOptions {
  std::optional<uint64_t> page_chaos_seed;  // --page-chaos: every table
  std::vector<FaultRule> faults;            // --faults FILE
  bool audit_pagination = false;            // --audit-pagination
  std::string request_log;                  // --request-log: a path, "-" for stdout, "" for none
  bool log_text = false;                    // --log-format text: the file gets lines a person reads
  bool metrics = false;                     // --metrics
  // How long the request log keeps recording in memory after the console last asked for it (WatchRequests).
  int64_t console_watch_ms = 60000;
};

// Reads a JSON list of fault rules (--faults FILE); operations: as ParseFaultRule's. Returns "" or what is wrong,
// naming the rule.
std::string ParseFaultRules(const std::string& json_text, const std::vector<std::string>& operations,
                            std::vector<FaultRule>* rules);
// One rule (a JSON object) or a list of rules. Returns "" or what is wrong.
std::string ParseFaultRuleList(const rapidjson::Value& json, const std::vector<std::string>& operations,
                               std::vector<FaultRule>* rules);

class TestBench : public RequestHooks {
 public:
  explicit TestBench(TestBenchOptions options);
  // Opens the request log. Returns "" or what went wrong. REQUIRES: called once, before requests.
  std::string Open();

  bool Before(HookedRequest* request, RequestContext* context, WireResponse* fault) override;
  void After(const HookedRequest& request, const WireResponse& response) override;

  // In each method below, scope is a namespace (NamespaceName), or null for every namespace.
  // The namespace of a request signed with authorization (an unsigned one's: the default region's).
  std::string ScopeOf(std::string_view authorization) const;
  // The region of unsigned requests (set by Attach()).
  const std::string& default_region() const { return default_region_; }

  // Page chaos for one table, or for every table when table is empty.
  void SetChaos(const std::string* scope, const std::string& table, uint64_t seed);
  // Turns page chaos off for one table, or for every table when table is empty.
  void ClearChaos(const std::string* scope, const std::string& table);
  // {"seed": N or null, "tables": {"name": N, …}}: what applies to scope's requests (its own setting, else every
  // namespace's), or every namespace's setting when scope is null.
  std::string ChaosJson(const std::string* scope) const;

  void AddFault(FaultRule rule);
  void ClearFaults(const std::string* scope);
  const FaultRules& faults() const { return faults_; }
  // The operation names a fault rule may name (ServedOperationNames, given by Attach()).
  const std::vector<std::string>& operations() const { return operations_; }
  // Null when the feature is off.
  const PaginationAudit* audit() const { return audit_.get(); }
  // The request log: on with --request-log, or (its recent lines in memory only) once the console watched it.
  const RequestLog* log() const { return log_kept_ ? log_.get() : nullptr; }
  // The console asks for the recent requests: without --request-log, the log keeps them in memory (not in a file)
  // from now until options' console_watch_ms after the last call, and then stops, so that a closed console costs requests
  // nothing (docs/console.md). Returns whether the lines go to a file ("file") or memory only ("memory").
  const char* WatchRequests();
  const Metrics* metrics() const { return metrics_.get(); }
  // Forgets what the audit and the request log hold of scope (POST /_dynapage/reset).
  void ForgetRequests(const std::string* scope);

  // Attaches the bench to the server's databases: requests belong to their namespace of databases (under options'
  // default region), fault rules may name operations, and the audit reads abandoned chains again to count what they
  // left, by requests served as with options (and the operations find_operation finds) but without the test bench.
  // REQUIRES: databases outlives the bench, or the next call.
  void Attach(DatabaseSet* databases, const ServiceOptions& options, OperationFinder find_operation,
              std::vector<std::string> operations);
  // The audit's report (of scope) and its summary at shutdown, with what each abandoned chain left.
  // REQUIRES: audit().
  std::string AuditReportJson(const std::string* scope) const;
  std::string AuditSummary() const;

 private:
  void Rearm();
  // Page chaos of one namespace, or of every namespace.
  struct ChaosSetting {
    std::optional<uint64_t> seed;            // every table
    std::map<std::string, uint64_t> tables;  // chosen tables
    bool empty() const { return !seed && tables.empty(); }
  };
  // The chaos seed for a request of scope touching tables, if page chaos applies to it.
  std::optional<uint64_t> ChaosSeedFor(const std::string& scope, const std::vector<std::string>& tables);

  // A request the audit makes to count what a chain left (ReplayRequest); nothing without Attach().
  std::optional<std::string> Replay(std::string_view operation, const std::string& authorization,
                                    const std::string& body) const;

  const TestBenchOptions options_;
  std::unique_ptr<Dispatcher> replays_;  // without hooks: the audit's own reads are not audited, cut or faulted
  FaultRules faults_;
  std::unique_ptr<PaginationAudit> audit_;
  std::unique_ptr<RequestLog> log_;  // always made; writes only while log_on_
  std::unique_ptr<Metrics> metrics_;

  NamespaceMode namespace_mode_ = NamespaceMode::kShared;  // set by Attach()
  std::string default_region_ = "us-east-1";               // set by Attach()
  uint64_t max_page_bytes_ = kDynamoDbPageBytes;           // set by Attach()
  std::vector<std::string> operations_;                    // set by Attach()

  mutable std::mutex chaos_mu_;
  ChaosSetting every_namespace_chaos_;              // guarded by chaos_mu_
  std::map<std::string, ChaosSetting> chaos_;       // guarded by chaos_mu_; by namespace
  std::map<std::string, uint64_t> chaos_requests_;  // guarded by chaos_mu_; by namespace
  std::atomic<bool> chaos_on_{false};
  std::atomic<bool> faults_on_{false};
  // The request log writes lines: always with --request-log, else while the console watches (until
  // console_watch_until_, steady nanoseconds).
  std::atomic<bool> log_on_{false};
  std::atomic<bool> log_kept_{false};
  std::atomic<int64_t> console_watch_until_{0};
};


}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_TEST_BENCH_H_
