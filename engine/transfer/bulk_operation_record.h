// BulkOperationRecord: what DescribeBulkOperation shows of one StartBulkPutItems (engine/transfer/bulk_operations.h
// runs them), and the request that starts one.

#ifndef DYNAPAGE_ENGINE_TRANSFER_BULK_OPERATION_RECORD_H_
#define DYNAPAGE_ENGINE_TRANSFER_BULK_OPERATION_RECORD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dynapage {

// InputS3Configuration, as sent.
struct BulkInputConfiguration {
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  std::string input_format;                      // DYNAMODB_JSON or ION
  std::optional<std::string> input_compression;  // GZIP, ZSTD or NONE (absent: NONE)
};

// OutputS3Configuration, as sent.
struct BulkOutputConfiguration {
  std::optional<std::string> s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  std::optional<std::string> s3_sse_algorithm;
  std::optional<std::string> s3_sse_kms_key_id;
  std::vector<std::string> output_types;  // ERROR and/or CONDITION_CHECK_FAILURE

  bool wants(const char* type) const;
};

// StartBulkPutItems' members, as sent.
struct BulkPutRequest {
  std::string table_name;  // a name or a table ARN
  BulkInputConfiguration input;
  BulkOutputConfiguration output;
  std::optional<std::string> client_token;
  std::optional<int64_t> max_write_request_units;
  std::optional<std::string> performance_tier;
};

struct BulkOperationRecord {
  std::string arn;  // {table arn}/bulk-operation/{id}
  std::string id;
  // IN_PROGRESS, then COMPLETED, COMPLETED_WITH_ERRORS or FAILED; CANCELLING then CANCELLED on request.
  std::string status;
  std::string table_name, table_id, table_arn;
  std::string client_token;
  BulkInputConfiguration input;
  BulkOutputConfiguration output;
  double start_time = 0;
  std::optional<double> end_time;     // terminal states only
  uint64_t processed_item_count = 0;  // every record read, failures and condition failures included
  uint64_t processed_input_bytes = 0;
  uint64_t total_input_bytes = 0;
  uint64_t failed_item_count = 0;  // records that could not be parsed or were refused (not condition failures)
  uint64_t condition_failure_count = 0;
  // BulkOperationUsage: the bytes put into the table and into each index (by index name).
  uint64_t table_put_bytes = 0;
  std::map<std::string, uint64_t> local_index_put_bytes, global_index_put_bytes;
  std::string failure_code, failure_message;  // FAILED and CANCELLED only
  int64_t max_write_request_units = 0;        // 0: not sent
  std::string performance_tier;

  bool terminal() const { return status != "IN_PROGRESS" && status != "CANCELLING"; }
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_BULK_OPERATION_RECORD_H_
