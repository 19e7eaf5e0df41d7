#include "server/admin/metrics.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

namespace dynapage {

namespace {

void Line(std::string* out, const std::string& name, const std::string& labels, double value) {
  char number[64];
  std::snprintf(number, sizeof(number), "%.17g", value);
  out->append(name).append(labels.empty() ? "" : "{" + labels + "}").append(" ").append(number).append("\n");
}

void Header(std::string* out, const char* name, const char* type, const char* help) {
  out->append("# HELP ").append(name).append(" ").append(help).append("\n");
  out->append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

void Metrics::Record(std::string_view operation, int http_status, double seconds, const RequestCounters& counters,
                     bool fault_injected) {
  std::lock_guard<std::mutex> lock(mu_);
  requests_[{std::string(operation), http_status}]++;
  for (size_t i = 0; i < kLatencyBuckets.size(); i++) {
    if (seconds <= kLatencyBuckets[i]) buckets_[i]++;
  }
  latency_count_++;
  latency_sum_ += seconds;
  items_read_ += counters.items_evaluated;
  items_returned_ += counters.items_returned;
  bytes_read_ += counters.bytes_read;
  items_written_ += counters.items_written;
  bytes_written_ += counters.bytes_written;
  if (http_status == 200 && (operation == "Query" || operation == "Scan")) pages_++;
  if (counters.returned_last_key) tokens_issued_++;
  if (counters.used_start_key) tokens_followed_++;
  if (fault_injected) faults_++;
  if (!counters.injected.empty()) chaos_++;
}

std::string Metrics::CountersText() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  Header(&out, "dynapage_requests_total", "counter", "DynamoDB requests answered, by operation and HTTP status.");
  for (const auto& [key, count] : requests_) {
    Line(&out, "dynapage_requests_total",
         "operation=\"" + key.first + "\",status=\"" + std::to_string(key.second) + "\"", static_cast<double>(count));
  }
  Header(&out, "dynapage_request_duration_seconds", "histogram", "Time to answer a DynamoDB request.");
  for (size_t i = 0; i < kLatencyBuckets.size(); i++) {
    char bound[32];
    std::snprintf(bound, sizeof(bound), "%g", kLatencyBuckets[i]);
    Line(&out, "dynapage_request_duration_seconds_bucket", "le=\"" + std::string(bound) + "\"",
         static_cast<double>(buckets_[i]));
  }
  Line(&out, "dynapage_request_duration_seconds_bucket", "le=\"+Inf\"", static_cast<double>(latency_count_));
  Line(&out, "dynapage_request_duration_seconds_sum", "", latency_sum_);
  Line(&out, "dynapage_request_duration_seconds_count", "", static_cast<double>(latency_count_));
  const std::pair<const char*, std::pair<const char*, uint64_t>> counters[] = {
      {"dynapage_items_read_total", {"Items evaluated by Query and Scan (ScannedCount).", items_read_}},
      {"dynapage_items_returned_total", {"Items returned by Query and Scan (Count).", items_returned_}},
      {"dynapage_read_bytes_total", {"DynamoDB size of the items Query and Scan read.", bytes_read_}},
      {"dynapage_items_written_total", {"Items put, updated or deleted.", items_written_}},
      {"dynapage_written_bytes_total", {"DynamoDB size of the items put or updated.", bytes_written_}},
      {"dynapage_pages_total", {"Query and Scan pages served.", pages_}},
      {"dynapage_continuations_issued_total", {"Pages that returned a LastEvaluatedKey.", tokens_issued_}},
      {"dynapage_continuations_followed_total", {"Requests that sent an ExclusiveStartKey.", tokens_followed_}},
      {"dynapage_faults_injected_total", {"Requests a fault rule fired on.", faults_}},
      {"dynapage_chaos_applied_total", {"Answers page chaos or an unprocessed rule cut.", chaos_}},
  };
  for (const auto& [name, help_value] : counters) {
    Header(&out, name, "counter", help_value.first);
    Line(&out, name, "", static_cast<double>(help_value.second));
  }
  return out;
}

std::string Metrics::Text(const Metrics* counting, const std::vector<const Catalog*>& catalogs) {
  std::string out = counting ? counting->CountersText() : "";
  uint64_t tables = 0, items = 0, bytes = 0;
  for (const Catalog* catalog : catalogs) {
    std::vector<std::string> names;
    bool more = false;
    catalog->ListTables("", SIZE_MAX, &names, &more);
    tables += names.size();
    for (const std::string& name : names) {
      TableDescription description;
      if (!catalog->DescribeTable(name, &description).ok()) continue;
      items += static_cast<uint64_t>(description.stats.item_count);
      bytes += static_cast<uint64_t>(description.stats.size_bytes);
    }
  }
  Header(&out, "dynapage_tables", "gauge", "Tables.");
  Line(&out, "dynapage_tables", "", static_cast<double>(tables));
  Header(&out, "dynapage_items", "gauge", "Items in all tables.");
  Line(&out, "dynapage_items", "", static_cast<double>(items));
  Header(&out, "dynapage_table_bytes", "gauge", "DynamoDB size of the items in all tables.");
  Line(&out, "dynapage_table_bytes", "", static_cast<double>(bytes));
  Header(&out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
  Line(&out, "process_resident_memory_bytes", "", static_cast<double>(ResidentBytes()));
  return out;
}

void Metrics::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  requests_.clear();
  buckets_.fill(0);
  latency_count_ = 0;
  latency_sum_ = 0;
  items_read_ = bytes_read_ = items_written_ = bytes_written_ = items_returned_ = 0;
  pages_ = tokens_issued_ = tokens_followed_ = faults_ = chaos_ = 0;
}

}  // namespace dynapage
