#include "server/operations/bulk_members.h"

#include <map>

#include "engine/transfer/transfer_jobs.h"

namespace dynapage {

namespace {
constexpr size_t kMinBulkOperationArnLength = 37;
constexpr size_t kMaxArnLength = 1024;

void WriteOptional(const char* key, const std::optional<std::string>& value, JsonWriter& w) {
  if (!value) return;
  w.Key(key);
  w.String(*value);
}

void WriteIndexBytes(const char* key, const std::map<std::string, uint64_t>& indexes, JsonWriter& w) {
  if (indexes.empty()) return;
  w.Key(key);
  w.StartObject();
  for (const auto& [name, bytes] : indexes) {
    w.Key(name);
    w.StartObject();
    w.Key("BulkPutBytes");
    w.Uint64(bytes);
    w.EndObject();
  }
  w.EndObject();
}

void WriteUsage(const BulkOperationRecord& b, JsonWriter& w) {
  uint64_t total = b.table_put_bytes;
  for (const auto& [name, bytes] : b.local_index_put_bytes) total += bytes;
  for (const auto& [name, bytes] : b.global_index_put_bytes) total += bytes;
  w.Key("BulkOperationUsage");
  w.StartArray();
  w.StartObject();
  w.Key("TableName");
  w.String(b.table_name);
  w.Key("BulkPutBytes");
  w.Uint64(total);
  w.Key("Table");
  w.StartObject();
  w.Key("BulkPutBytes");
  w.Uint64(b.table_put_bytes);
  w.EndObject();
  WriteIndexBytes("LocalSecondaryIndexes", b.local_index_put_bytes, w);
  WriteIndexBytes("GlobalSecondaryIndexes", b.global_index_put_bytes, w);
  w.EndObject();
  w.EndArray();
}
}  // namespace

Status BulkOperationsOf(const OperationContext& ctx, BulkOperations** out) {
  if (!ctx.bulk_operations) return Status::Validation(kNoS3DirMessage);
  *out = ctx.bulk_operations;
  return Status::OK();
}

Status ReadBulkOperationArn(const RequestReader& r, std::string* arn) {
  std::optional<std::string> value;
  DP_RETURN_IF_ERROR(r.GetString("BulkOperationArn", &value));
  ConstraintErrors errors;
  if (!value) {
    errors.AddNull("bulkOperationArn");
  } else if (value->size() < kMinBulkOperationArnLength) {
    errors.Add(*value, "bulkOperationArn",
               "Member must have length greater than or equal to " + std::to_string(kMinBulkOperationArnLength));
  } else if (value->size() > kMaxArnLength) {
    errors.Add(*value, "bulkOperationArn",
               "Member must have length less than or equal to " + std::to_string(kMaxArnLength));
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  *arn = *value;
  return Status::OK();
}

void WriteBulkOperationDescription(const BulkOperationRecord& b, JsonWriter& w) {
  w.Key("BulkOperationDescription");
  w.StartObject();
  w.Key("BulkOperationArn");
  w.String(b.arn);
  w.Key("BulkOperationStatus");
  w.String(b.status);
  w.Key("TableDetails");
  w.StartArray();
  w.StartObject();
  w.Key("TableName");
  w.String(b.table_name);
  w.Key("TableId");
  w.String(b.table_id);
  w.EndObject();
  w.EndArray();
  if (!b.client_token.empty()) {
    w.Key("ClientToken");
    w.String(b.client_token);
  }
  w.Key("InputS3Configuration");
  w.StartObject();
  WriteOptional("S3BucketOwner", b.input.s3_bucket_owner, w);
  w.Key("S3Bucket");
  w.String(b.input.s3_bucket);
  WriteOptional("S3KeyPrefix", b.input.s3_key_prefix, w);
  w.Key("InputFormat");
  w.String(b.input.input_format);
  w.Key("InputCompressionType");
  w.String(b.input.input_compression.value_or("NONE"));
  w.EndObject();
  w.Key("OutputS3Configuration");
  w.StartObject();
  WriteOptional("S3BucketOwner", b.output.s3_bucket_owner, w);
  WriteOptional("S3Bucket", b.output.s3_bucket, w);
  WriteOptional("S3KeyPrefix", b.output.s3_key_prefix, w);
  WriteOptional("S3SseAlgorithm", b.output.s3_sse_algorithm, w);
  WriteOptional("S3SseKmsKeyId", b.output.s3_sse_kms_key_id, w);
  w.Key("OutputType");
  w.StartArray();
  for (const std::string& type : b.output.output_types) w.String(type);
  w.EndArray();
  w.EndObject();
  w.Key("StartTime");
  w.Double(b.start_time);
  if (b.end_time) {
    w.Key("EndTime");
    w.Double(*b.end_time);
  }
  w.Key("ProcessedItemCount");
  w.Uint64(b.processed_item_count);
  w.Key("ProcessedInputBytes");
  w.Uint64(b.processed_input_bytes);
  w.Key("TotalInputBytes");
  w.Uint64(b.total_input_bytes);
  WriteUsage(b, w);
  w.Key("FailedItemCount");
  w.Uint64(b.failed_item_count);
  if (!b.failure_code.empty()) {
    w.Key("FailureCode");
    w.String(b.failure_code);
    w.Key("FailureMessage");
    w.String(b.failure_message);
  }
  if (b.max_write_request_units > 0) {
    w.Key("MaxWriteRequestUnits");
    w.Int64(b.max_write_request_units);
  }
  w.Key("PerformanceTier");
  w.String(b.performance_tier);
  w.EndObject();
}

}  // namespace dynapage
