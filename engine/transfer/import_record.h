// ImportRecord: what DescribeImport shows of one import (engine/transfer/transfer_jobs.h runs them).

#ifndef DYNAPAGE_ENGINE_TRANSFER_IMPORT_RECORD_H_
#define DYNAPAGE_ENGINE_TRANSFER_IMPORT_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>

namespace dynapage {

// ImportTable's members, as sent.
struct ImportRequest {
  std::optional<std::string> client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  std::string input_format;                      // DYNAMODB_JSON, ION or CSV
  std::optional<std::string> input_compression;  // GZIP, ZSTD, NONE
  std::string input_format_options_json;         // InputFormatOptions as sent, or empty
  std::string table_name;                        // TableCreationParameters.TableName
  std::string table_creation_parameters_json;    // TableCreationParameters as sent, echoed verbatim
};

struct ImportRecord {
  std::string arn;
  std::string id;
  std::string status;  // IN_PROGRESS, COMPLETED, FAILED
  std::string table_arn;
  std::string table_id;
  std::string client_token;
  std::string s3_bucket;
  std::string s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  std::string input_format;
  std::string input_compression;
  std::string input_format_options_json;
  std::string table_creation_parameters_json;
  std::string cloud_watch_log_group_arn;
  double start_time = 0;
  std::optional<double> end_time;
  uint64_t processed_size_bytes = 0;
  uint64_t processed_item_count = 0;
  uint64_t imported_item_count = 0;
  uint64_t error_count = 0;
  std::string failure_code, failure_message;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_IMPORT_RECORD_H_
