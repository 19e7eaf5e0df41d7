// TestBench: what dynapage adds around requests to find client bugs (docs/testing-pagination.md): page chaos,
// fault rules, the pagination audit, the request log and metrics. It is the dispatcher's RequestHooks, armed only
// while one of them is on, and the state the admin API (admin_api.h) reads and changes.
//
// Page chaos is on for every table (--page-chaos SEED, or POST /_dynapage/chaos without a table) or for chosen
// tables (POST /_dynapage/chaos with "table"). Each request it applies to gets its own seed, mixed from the
// chaos seed and the count of such requests so far: one seed and one sequence of requests give the same pages.
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
  bool metrics = false;                     // --metrics
};

// Reads a JSON list of fault rules (--faults FILE). Returns "" or what is wrong, naming the rule.
std::string ParseFaultRules(const std::string& json_text, std::vector<FaultRule>* rules);
// One rule (a JSON object) or a list of rules. Returns "" or what is wrong.
std::string ParseFaultRuleList(const rapidjson::Value& json, std::vector<FaultRule>* rules);

class TestBench : public RequestHooks {
 public:
  explicit TestBench(TestBenchOptions options);
  // Opens the request log. Returns "" or what went wrong. REQUIRES: called once, before requests.
  std::string Open();

  bool Before(HookedRequest* request, RequestContext* context, WireResponse* fault) override;
  void After(const HookedRequest& request, const WireResponse& response) override;

  // Page chaos for one table, or for every table when table is empty.
  void SetChaos(const std::string& table, uint64_t seed);
  // Turns page chaos off for one table, or everywhere when table is empty.
  void ClearChaos(const std::string& table);
  // {"seed": N or null, "tables": {"name": N, …}}
  std::string ChaosJson() const;

  void AddFault(FaultRule rule);
  void ClearFaults();
  const FaultRules& faults() const { return faults_; }
  // Null when the feature is off.
  const PaginationAudit* audit() const { return audit_.get(); }
  const RequestLog* log() const { return log_.get(); }
  const Metrics* metrics() const { return metrics_.get(); }
  // Forgets what the audit and the request log hold (POST /_dynapage/reset).
  void ForgetRequests();

  // Lets the audit read abandoned chains again to count what they left: requests to databases, served as with
  // options (and the operations find_operation finds) but without the test bench. REQUIRES: databases outlives
  // the bench, or the next call.
  void ServeReplays(DatabaseSet* databases, const ServiceOptions& options, OperationFinder find_operation);
  // The audit's report and its summary at shutdown, with what each abandoned chain left. REQUIRES: audit().
  std::string AuditReportJson() const;
  std::string AuditSummary() const;

 private:
  void Rearm();
  // The chaos seed for a request touching tables, if page chaos applies to it.
  std::optional<uint64_t> ChaosSeedFor(const std::vector<std::string>& tables);

  // A request the audit makes to count what a chain left (ReplayRequest); nothing without ServeReplays().
  std::optional<std::string> Replay(std::string_view operation, const std::string& authorization,
                                    const std::string& body) const;

  const TestBenchOptions options_;
  std::unique_ptr<Dispatcher> replays_;  // without hooks: the audit's own reads are not audited, cut or faulted
  FaultRules faults_;
  std::unique_ptr<PaginationAudit> audit_;
  std::unique_ptr<RequestLog> log_;
  std::unique_ptr<Metrics> metrics_;

  mutable std::mutex chaos_mu_;
  std::optional<uint64_t> chaos_seed_;           // guarded by chaos_mu_
  std::map<std::string, uint64_t> table_chaos_;  // guarded by chaos_mu_
  uint64_t chaos_requests_ = 0;                  // guarded by chaos_mu_
  std::atomic<bool> chaos_on_{false};
  std::atomic<bool> faults_on_{false};
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_TEST_BENCH_H_
