// ExportTableToPointInTime, DescribeExport and ListExports: exports of a table into a local S3 folder
// (engine/transfer/transfer_jobs.h; docs/export-import.md). One file for the three, which share the description.

#include "engine/model/json_types.h"
#include "engine/transfer/transfer_jobs.h"
#include "server/operations/operation_table.h"
#include "server/operations/transfer_members.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
// A timestamp member (epoch seconds, as SDKs send them) into *out; absent leaves it unset.
Status GetTimestamp(const RequestReader& r, const char* name, std::optional<double>* out) {
  const rapidjson::Value* v = r.Get(name);
  if (!v || v->IsNull()) return Status::OK();
  if (!v->IsNumber()) DP_RETURN_IF_ERROR(CheckJsonInteger(*v, "Date"));
  *out = v->GetDouble();
  return Status::OK();
}

void WriteOptional(JsonWriter& w, const char* key, const std::optional<std::string>& value) {
  if (!value) return;
  w.Key(key);
  w.String(*value);
}

void WriteExportDescription(const ExportRecord& e, JsonWriter& w) {
  w.Key("ExportDescription");
  w.StartObject();
  w.Key("ExportArn");
  w.String(e.arn);
  w.Key("ExportStatus");
  w.String(e.status);
  w.Key("StartTime");
  w.Double(e.start_time);
  if (e.end_time) {
    w.Key("EndTime");
    w.Double(*e.end_time);
  }
  if (!e.export_manifest.empty()) {
    w.Key("ExportManifest");
    w.String(e.export_manifest);
  }
  w.Key("TableArn");
  w.String(e.table_arn);
  w.Key("TableId");
  w.String(e.table_id);
  w.Key("ExportTime");
  w.Double(e.export_time);
  if (!e.client_token.empty()) {
    w.Key("ClientToken");
    w.String(e.client_token);
  }
  w.Key("S3Bucket");
  w.String(e.s3_bucket);
  WriteOptional(w, "S3BucketOwner", e.s3_bucket_owner);
  WriteOptional(w, "S3Prefix", e.s3_prefix);
  w.Key("S3SseAlgorithm");
  w.String(e.s3_sse_algorithm);
  WriteOptional(w, "S3SseKmsKeyId", e.s3_sse_kms_key_id);
  if (!e.failure_code.empty()) {
    w.Key("FailureCode");
    w.String(e.failure_code);
    w.Key("FailureMessage");
    w.String(e.failure_message);
  }
  w.Key("ExportFormat");
  w.String(e.export_format);
  if (e.end_time) {
    w.Key("BilledSizeBytes");
    w.Uint64(e.billed_size_bytes);
    w.Key("ItemCount");
    w.Uint64(e.item_count);
  }
  WriteOptional(w, "ExportType", e.export_type);
  if (e.export_from_time) {
    w.Key("IncrementalExportSpecification");
    w.StartObject();
    w.Key("ExportFromTime");
    w.Double(*e.export_from_time);
    if (e.export_to_time) {
      w.Key("ExportToTime");
      w.Double(*e.export_to_time);
    }
    WriteOptional(w, "ExportViewType", e.export_view_type);
    w.EndObject();
  }
  w.EndObject();
}

}  // namespace

Status HandleExportTableToPointInTime(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ExportRequest request;
  std::optional<std::string> table_arn, bucket;
  DP_RETURN_IF_ERROR(r.GetString("TableArn", &table_arn));
  DP_RETURN_IF_ERROR(GetTimestamp(r, "ExportTime", &request.export_time));
  DP_RETURN_IF_ERROR(r.GetString("ClientToken", &request.client_token));
  DP_RETURN_IF_ERROR(r.GetString("S3Bucket", &bucket));
  DP_RETURN_IF_ERROR(r.GetString("S3BucketOwner", &request.s3_bucket_owner));
  DP_RETURN_IF_ERROR(r.GetString("S3Prefix", &request.s3_prefix));
  DP_RETURN_IF_ERROR(r.GetString("S3SseAlgorithm", &request.s3_sse_algorithm));
  DP_RETURN_IF_ERROR(r.GetString("S3SseKmsKeyId", &request.s3_sse_kms_key_id));
  DP_RETURN_IF_ERROR(r.GetString("ExportFormat", &request.export_format));
  DP_RETURN_IF_ERROR(r.GetString("ExportType", &request.export_type));
  if (const rapidjson::Value* spec = r.Get("IncrementalExportSpecification"); spec && !spec->IsNull()) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*spec));
    RequestReader s(*spec);
    request.has_incremental_specification = true;
    DP_RETURN_IF_ERROR(GetTimestamp(s, "ExportFromTime", &request.export_from_time));
    DP_RETURN_IF_ERROR(GetTimestamp(s, "ExportToTime", &request.export_to_time));
    DP_RETURN_IF_ERROR(s.GetString("ExportViewType", &request.export_view_type));
  }
  if (const rapidjson::Value* filter = r.Get("FilterSpecification"); filter && !filter->IsNull()) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*filter));
    request.has_filter_specification = true;
    request.filter_specification_empty = filter->MemberCount() == 0;
  }
  ConstraintErrors errors;
  if (!table_arn) errors.AddNull("tableArn");
  if (!bucket) errors.AddNull("s3Bucket");
  errors.CheckEnum(request.export_format, "exportFormat", {"DYNAMODB_JSON", "ION"});
  errors.CheckEnum(request.export_type, "exportType", {"FULL_EXPORT", "INCREMENTAL_EXPORT"});
  errors.CheckEnum(request.s3_sse_algorithm, "s3SseAlgorithm", {"AES256", "KMS"});
  errors.CheckEnum(request.export_view_type, "incrementalExportSpecification.exportViewType",
                   {"NEW_IMAGE", "NEW_AND_OLD_IMAGES"});
  DP_RETURN_IF_ERROR(errors.ToStatus());
  request.table_arn = *table_arn;
  request.s3_bucket = *bucket;
  TransferJobs* transfers = nullptr;
  DP_RETURN_IF_ERROR(TransfersOf(ctx, false, &transfers));
  ExportRecord started;
  DP_RETURN_IF_ERROR(transfers->StartExport(ctx.db, ctx.context, request, &started));
  ctx.response.StartObject();
  WriteExportDescription(started, ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

Status HandleDescribeExport(OperationContext& ctx) {
  std::string arn;
  DP_RETURN_IF_ERROR(ReadJobArn(RequestReader(ctx.request), "ExportArn", "exportArn", &arn));
  TransferJobs* transfers = nullptr;
  DP_RETURN_IF_ERROR(TransfersOf(ctx, true, &transfers));
  ExportRecord record;
  DP_RETURN_IF_ERROR(transfers->DescribeExport(ctx.db, ctx.context, arn, &record));
  ctx.response.StartObject();
  WriteExportDescription(record, ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

Status HandleListExports(OperationContext& ctx) {
  ListJobsRequest list;
  DP_RETURN_IF_ERROR(ReadListJobsRequest(RequestReader(ctx.request), "MaxResults", "maxResults", &list));
  TransferJobs* transfers = nullptr;
  DP_RETURN_IF_ERROR(TransfersOf(ctx, true, &transfers));
  std::vector<ExportRecord> records;
  std::string next;
  DP_RETURN_IF_ERROR(transfers->ListExports(ctx.db, list.table_arn, list.page_size, list.next_token, &records, &next));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("ExportSummaries");
  w.StartArray();
  for (const ExportRecord& e : records) {
    w.StartObject();
    w.Key("ExportArn");
    w.String(e.arn);
    w.Key("ExportStatus");
    w.String(e.status);
    w.Key("ExportType");
    w.String(e.export_type.value_or("FULL_EXPORT"));
    w.EndObject();
  }
  EndListResponse(next, w);
  return Status::OK();
}

}  // namespace dynapage
