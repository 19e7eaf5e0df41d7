// StartBulkPutItems: puts the items of a local S3 folder into an existing table, asynchronously
// (engine/transfer/bulk_operations.h; docs/export-import.md).

#include <set>

#include "engine/model/json_types.h"
#include "server/operations/bulk_members.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
constexpr int64_t kMinMaxWriteRequestUnits = 1024;

Status ReadInputConfiguration(const rapidjson::Value* json, BulkInputConfiguration* input, ConstraintErrors* errors) {
  if (!json || json->IsNull()) {
    errors->AddNull("inputS3Configuration");
    return Status::OK();
  }
  DP_RETURN_IF_ERROR(CheckJsonObject(*json));
  RequestReader r(*json);
  std::optional<std::string> bucket, format;
  DP_RETURN_IF_ERROR(r.GetString("S3Bucket", &bucket));
  DP_RETURN_IF_ERROR(r.GetString("S3BucketOwner", &input->s3_bucket_owner));
  DP_RETURN_IF_ERROR(r.GetString("S3KeyPrefix", &input->s3_key_prefix));
  DP_RETURN_IF_ERROR(r.GetString("InputFormat", &format));
  DP_RETURN_IF_ERROR(r.GetString("InputCompressionType", &input->input_compression));
  if (!bucket) errors->AddNull("inputS3Configuration.s3Bucket");
  if (!format) errors->AddNull("inputS3Configuration.inputFormat");
  errors->CheckEnum(format, "inputS3Configuration.inputFormat", {"DYNAMODB_JSON", "ION"});
  errors->CheckEnum(input->input_compression, "inputS3Configuration.inputCompressionType", {"GZIP", "ZSTD", "NONE"});
  input->s3_bucket = bucket.value_or("");
  input->input_format = format.value_or("");
  return Status::OK();
}

Status ReadOutputConfiguration(const rapidjson::Value* json, BulkOutputConfiguration* output,
                               ConstraintErrors* errors) {
  if (!json || json->IsNull()) {
    errors->AddNull("outputS3Configuration");
    return Status::OK();
  }
  DP_RETURN_IF_ERROR(CheckJsonObject(*json));
  RequestReader r(*json);
  std::optional<std::vector<std::string>> types;
  DP_RETURN_IF_ERROR(r.GetString("S3Bucket", &output->s3_bucket));
  DP_RETURN_IF_ERROR(r.GetString("S3BucketOwner", &output->s3_bucket_owner));
  DP_RETURN_IF_ERROR(r.GetString("S3KeyPrefix", &output->s3_key_prefix));
  DP_RETURN_IF_ERROR(r.GetString("S3SseAlgorithm", &output->s3_sse_algorithm));
  DP_RETURN_IF_ERROR(r.GetString("S3SseKmsKeyId", &output->s3_sse_kms_key_id));
  DP_RETURN_IF_ERROR(r.GetStringList("OutputType", &types));
  errors->CheckEnum(output->s3_sse_algorithm, "outputS3Configuration.s3SseAlgorithm", {"AES256", "KMS"});
  if (!types) {
    errors->AddNull("outputS3Configuration.outputType");
    return Status::OK();
  }
  if (types->empty() || types->size() > 2) {
    errors->Add("[" + std::to_string(types->size()) + " values]", "outputS3Configuration.outputType",
                "Member must have length between 1 and 2");
  }
  for (const std::string& type : *types) {
    errors->CheckEnum(type, "outputS3Configuration.outputType", {"ERROR", "CONDITION_CHECK_FAILURE"});
  }
  output->output_types = *types;
  return Status::OK();
}

Status ReadBulkPutRequest(const RequestReader& r, BulkPutRequest* request) {
  std::optional<std::string> table;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table));
  DP_RETURN_IF_ERROR(r.GetString("ClientToken", &request->client_token));
  DP_RETURN_IF_ERROR(r.GetInteger("MaxWriteRequestUnits", &request->max_write_request_units));
  DP_RETURN_IF_ERROR(r.GetString("PerformanceTier", &request->performance_tier));
  ConstraintErrors errors;
  errors.CheckTableNameOrArn(table, "tableName");
  DP_RETURN_IF_ERROR(ReadInputConfiguration(r.Get("InputS3Configuration"), &request->input, &errors));
  DP_RETURN_IF_ERROR(ReadOutputConfiguration(r.Get("OutputS3Configuration"), &request->output, &errors));
  errors.CheckMin(request->max_write_request_units, "maxWriteRequestUnits", kMinMaxWriteRequestUnits);
  errors.CheckEnum(request->performance_tier, "performanceTier", {"STANDARD", "ACCELERATED"});
  DP_RETURN_IF_ERROR(errors.ToStatus());
  request->table_name = *table;
  const std::vector<std::string>& types = request->output.output_types;
  if (std::set<std::string>(types.begin(), types.end()).size() != types.size()) {
    return Status::Validation("Invalid Request: OutputType lists a value more than once");
  }
  return Status::OK();
}
}  // namespace

Status HandleStartBulkPutItems(OperationContext& ctx) {
  BulkPutRequest request;
  DP_RETURN_IF_ERROR(ReadBulkPutRequest(RequestReader(ctx.request), &request));
  BulkOperations* bulk = nullptr;
  DP_RETURN_IF_ERROR(BulkOperationsOf(ctx, &bulk));
  BulkOperationRecord started;
  DP_RETURN_IF_ERROR(bulk->StartBulkPut(ctx.db, ctx.context, request, &started));
  ctx.response.StartObject();
  WriteBulkOperationDescription(started, ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

}  // namespace dynapage
