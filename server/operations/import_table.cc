// ImportTable, DescribeImport and ListImports: a new table loaded from a local S3 folder
// (engine/transfer/transfer_jobs.h; docs/export-import.md). One file for the three, which share the description.

#include <rapidjson/stringbuffer.h>

#include "engine/model/json_types.h"
#include "engine/transfer/transfer_jobs.h"
#include "server/operations/operation_table.h"
#include "server/operations/transfer_members.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
std::string JsonText(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  value.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

void WriteS3BucketSource(const ImportRecord& i, JsonWriter& w) {
  w.Key("S3BucketSource");
  w.StartObject();
  w.Key("S3BucketOwner");
  w.String(i.s3_bucket_owner);
  w.Key("S3Bucket");
  w.String(i.s3_bucket);
  if (i.s3_key_prefix) {
    w.Key("S3KeyPrefix");
    w.String(*i.s3_key_prefix);
  }
  w.EndObject();
}

void WriteTimes(const ImportRecord& i, JsonWriter& w) {
  w.Key("StartTime");
  w.Double(i.start_time);
  if (i.end_time) {
    w.Key("EndTime");
    w.Double(*i.end_time);
  }
}

void WriteImportDescription(const ImportRecord& i, JsonWriter& w) {
  w.Key("ImportTableDescription");
  w.StartObject();
  w.Key("ImportArn");
  w.String(i.arn);
  w.Key("ImportStatus");
  w.String(i.status);
  w.Key("TableArn");
  w.String(i.table_arn);
  if (!i.table_id.empty()) {
    w.Key("TableId");
    w.String(i.table_id);
  }
  if (!i.client_token.empty()) {
    w.Key("ClientToken");
    w.String(i.client_token);
  }
  WriteS3BucketSource(i, w);
  w.Key("ErrorCount");
  w.Uint64(i.error_count);
  w.Key("CloudWatchLogGroupArn");
  w.String(i.cloud_watch_log_group_arn);
  w.Key("InputFormat");
  w.String(i.input_format);
  if (!i.input_format_options_json.empty()) {
    w.Key("InputFormatOptions");
    w.RawJson(i.input_format_options_json, rapidjson::kObjectType);
  }
  w.Key("InputCompressionType");
  w.String(i.input_compression);
  w.Key("TableCreationParameters");
  w.RawJson(i.table_creation_parameters_json, rapidjson::kObjectType);
  WriteTimes(i, w);
  w.Key("ProcessedSizeBytes");
  w.Uint64(i.processed_size_bytes);
  w.Key("ProcessedItemCount");
  w.Uint64(i.processed_item_count);
  w.Key("ImportedItemCount");
  w.Uint64(i.imported_item_count);
  if (!i.failure_code.empty()) {
    w.Key("FailureCode");
    w.String(i.failure_code);
    w.Key("FailureMessage");
    w.String(i.failure_message);
  }
  w.EndObject();
}

// Csv's members as botocore constrains them (a one-character Delimiter of [,;:|\t ]; a HeaderList of 1 to 255
// names, each 1 to 65,536 printable ASCII characters other than '"' and ','), with their type errors.
Status CheckCsvOptions(const rapidjson::Value& options, ConstraintErrors* errors) {
  const rapidjson::Value* csv = RequestReader(options).Get("Csv");
  if (!csv || csv->IsNull()) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonObject(*csv));
  RequestReader c(*csv);
  std::optional<std::string> delimiter;
  DP_RETURN_IF_ERROR(c.GetString("Delimiter", &delimiter));
  if (delimiter) {
    constexpr std::string_view kPath = "inputFormatOptions.csv.delimiter";
    if (delimiter->size() != 1 || std::string_view(",;:|\t ").find((*delimiter)[0]) == std::string_view::npos) {
      errors->Add(*delimiter, kPath, "Member must satisfy regular expression pattern: [,;:|\\t ]");
    }
    if (delimiter->empty()) errors->Add(*delimiter, kPath, "Member must have length greater than or equal to 1");
    if (delimiter->size() > 1) errors->Add(*delimiter, kPath, "Member must have length less than or equal to 1");
  }
  std::optional<std::vector<std::string>> header;
  DP_RETURN_IF_ERROR(c.GetStringList("HeaderList", &header));
  if (!header) return Status::OK();
  constexpr std::string_view kPath = "inputFormatOptions.csv.headerList";
  if (header->empty()) errors->Add("[]", kPath, "Member must have length greater than or equal to 1");
  if (header->size() > 255) errors->AddUnechoed(kPath, "Member must have length less than or equal to 255");
  for (size_t i = 0; i < header->size(); ++i) {
    const std::string& name = (*header)[i];
    std::string path = std::string(kPath) + "." + std::to_string(i + 1) + ".member";
    if (name.empty()) errors->Add(name, path, "Member must have length greater than or equal to 1");
    if (name.size() > 65536) errors->AddUnechoed(path, "Member must have length less than or equal to 65536");
    for (char ch : name) {
      unsigned char u = static_cast<unsigned char>(ch);
      if (u < 0x20 || u > 0x7e || ch == '"' || ch == ',') {
        errors->AddUnechoed(path,
                            "Member must satisfy regular expression pattern: [\\x20-\\x21\\x23-\\x2B\\x2D-\\x7E]*");
        break;
      }
    }
  }
  return Status::OK();
}

Status ReadImportRequest(const RequestReader& r, ImportRequest* request, const rapidjson::Value** parameters) {
  DP_RETURN_IF_ERROR(r.GetString("ClientToken", &request->client_token));
  std::optional<std::string> format;
  DP_RETURN_IF_ERROR(r.GetString("InputFormat", &format));
  DP_RETURN_IF_ERROR(r.GetString("InputCompressionType", &request->input_compression));
  const rapidjson::Value* source = r.Get("S3BucketSource");
  std::optional<std::string> bucket;
  if (source && !source->IsNull()) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*source));
    RequestReader s(*source);
    DP_RETURN_IF_ERROR(s.GetString("S3Bucket", &bucket));
    DP_RETURN_IF_ERROR(s.GetString("S3BucketOwner", &request->s3_bucket_owner));
    DP_RETURN_IF_ERROR(s.GetString("S3KeyPrefix", &request->s3_key_prefix));
  }
  const rapidjson::Value* options = r.Get("InputFormatOptions");
  if (options && !options->IsNull()) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*options));
    request->input_format_options_json = JsonText(*options);
  }
  *parameters = r.Get("TableCreationParameters");
  if (*parameters && (*parameters)->IsNull()) *parameters = nullptr;
  std::optional<std::string> table_name;
  if (*parameters) {
    DP_RETURN_IF_ERROR(CheckJsonObject(**parameters));
    DP_RETURN_IF_ERROR(RequestReader(**parameters).GetString("TableName", &table_name));
    request->table_creation_parameters_json = JsonText(**parameters);
  }
  ConstraintErrors errors;
  if (options && !options->IsNull()) DP_RETURN_IF_ERROR(CheckCsvOptions(*options, &errors));
  if (!source || source->IsNull()) {
    errors.AddNull("s3BucketSource");
  } else if (!bucket) {
    errors.AddNull("s3BucketSource.s3Bucket");
  }
  if (!format) errors.AddNull("inputFormat");
  errors.CheckEnum(format, "inputFormat", {"DYNAMODB_JSON", "ION", "CSV"});
  errors.CheckEnum(request->input_compression, "inputCompressionType", {"GZIP", "ZSTD", "NONE"});
  if (!*parameters) errors.AddNull("tableCreationParameters");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  request->s3_bucket = *bucket;
  request->input_format = *format;
  request->table_name = table_name.value_or("");
  if (!request->input_format_options_json.empty() && *format != "CSV") {
    return Status::Validation("Invalid Request: Unsupported InputFormatOptions for the given input format: " + *format +
                              ".");
  }
  return Status::OK();
}

}  // namespace

Status HandleImportTable(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ImportRequest request;
  const rapidjson::Value* parameters = nullptr;
  DP_RETURN_IF_ERROR(ReadImportRequest(r, &request, &parameters));
  TransferJobs* transfers = nullptr;
  DP_RETURN_IF_ERROR(TransfersOf(ctx, true, &transfers));
  // The table is made by CreateTable itself, from TableCreationParameters: the same checks and messages.
  auto create_table = [&]() {
    rapidjson::StringBuffer ignored;
    JsonWriter writer(ignored);
    OperationContext create{ctx.db, ctx.context, *parameters, writer, "", ctx.host, ctx.databases, ctx.transfers};
    return HandleCreateTable(create);
  };
  ImportRecord started;
  DP_RETURN_IF_ERROR(transfers->StartImport(ctx.db, ctx.context, request, create_table, &started));
  ctx.response.StartObject();
  WriteImportDescription(started, ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

Status HandleDescribeImport(OperationContext& ctx) {
  std::string arn;
  DP_RETURN_IF_ERROR(ReadJobArn(RequestReader(ctx.request), "ImportArn", "importArn", &arn));
  TransferJobs* transfers = nullptr;
  DP_RETURN_IF_ERROR(TransfersOf(ctx, true, &transfers));
  ImportRecord record;
  DP_RETURN_IF_ERROR(transfers->DescribeImport(ctx.db, ctx.context, arn, &record));
  ctx.response.StartObject();
  WriteImportDescription(record, ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

Status HandleListImports(OperationContext& ctx) {
  ListJobsRequest list;
  DP_RETURN_IF_ERROR(ReadListJobsRequest(RequestReader(ctx.request), "PageSize", "pageSize", &list));
  TransferJobs* transfers = nullptr;
  DP_RETURN_IF_ERROR(TransfersOf(ctx, true, &transfers));
  std::vector<ImportRecord> records;
  std::string next;
  DP_RETURN_IF_ERROR(transfers->ListImports(ctx.db, list.table_arn, list.page_size, list.next_token, &records, &next));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("ImportSummaryList");
  w.StartArray();
  for (const ImportRecord& i : records) {
    w.StartObject();
    w.Key("ImportArn");
    w.String(i.arn);
    w.Key("ImportStatus");
    w.String(i.status);
    w.Key("TableArn");
    w.String(i.table_arn);
    WriteS3BucketSource(i, w);
    w.Key("CloudWatchLogGroupArn");
    w.String(i.cloud_watch_log_group_arn);
    w.Key("InputFormat");
    w.String(i.input_format);
    WriteTimes(i, w);
    w.EndObject();
  }
  EndListResponse(next, w);
  return Status::OK();
}

}  // namespace dynapage
