// ExportRecord: what DescribeExport shows of one export (engine/transfer/transfer_jobs.h runs them).

#ifndef DYNAPAGE_ENGINE_TRANSFER_EXPORT_RECORD_H_
#define DYNAPAGE_ENGINE_TRANSFER_EXPORT_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>

namespace dynapage {

// What DescribeExport shows of one export.
struct ExportRecord {
  std::string arn;
  std::string id;
  std::string status;  // IN_PROGRESS, COMPLETED, FAILED
  std::string table_arn;
  std::string table_id;
  std::string client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::string s3_sse_algorithm;
  std::optional<std::string> s3_sse_kms_key_id;
  std::string export_format;
  std::optional<std::string> export_type;
  std::optional<double> export_from_time, export_to_time;
  std::optional<std::string> export_view_type;
  double start_time = 0;
  double export_time = 0;
  std::optional<double> end_time;  // set once terminal
  std::string export_manifest;     // the manifest-summary.json key, once COMPLETED
  uint64_t item_count = 0;         // once terminal
  uint64_t billed_size_bytes = 0;  // once terminal
  std::string failure_code, failure_message;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_EXPORT_RECORD_H_
