#include "engine/transfer/transfer_jobs.h"

// The low-level MD5 interface, as engine/storage/key_codec.cc uses it (EVP would load OpenSSL's providers).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <rapidjson/stringbuffer.h>

#include "engine/base/base64.h"
#include "engine/base/utc_time.h"
#include "engine/model/attribute_value_json.h"
#include "engine/storage/item_key.h"
#include "engine/transfer/export_layout.h"
#include "engine/transfer/export_lines.h"
#include "engine/transfer/gzip_codec.h"
#include "engine/transfer/input_object.h"
#include "engine/transfer/table_as_of.h"
#include "engine/transfer/transfer_ids.h"
#include "engine/write/backups.h"
#include "engine/write/write_path.h"

namespace dynapage {

const char kNoS3DirMessage[] =
    "Export and import need a local S3 folder: start dynapage with --s3-dir DIR (bucket b is the folder DIR/b)";

namespace {
// A data file is closed and a new one begun after this many uncompressed bytes.
constexpr size_t kDataFileBytes = 64 << 20;
// Incremental export windows: at least 15 minutes, at most 24 hours.
constexpr double kMinIncrementalSeconds = 15 * 60;
constexpr double kMaxIncrementalSeconds = 24 * 3600;
// An incremental export bills at least 10 MB, as DynamoDB's.
constexpr uint64_t kMinIncrementalBilledBytes = 10000000;

Status InvalidExportTime(std::string message) {
  return Status::Error(ErrorCode::kInvalidExportTime, std::move(message));
}

// The export's table, checked: it exists in the caller's namespace under that ARN.
Status FindExportTable(const Database& db, const RequestContext& ctx, const std::string& arn,
                       std::shared_ptr<const TableDefinition>* table) {
  TableArnParts parts;
  DP_RETURN_IF_ERROR(ParseExportTableArn(arn, &parts));
  *table = db.catalog().FindTable(parts.table);
  if (!*table || parts.account != ctx.caller.account_id || parts.region != ctx.caller.region) {
    return Status::Error(ErrorCode::kTableNotFound, "Table not found: " + arn);
  }
  return Status::OK();
}

// The incremental export members' checks, in DynamoDB's order.
Status CheckExportKind(const ExportRequest& r, const TableDefinition& table, double now) {
  bool incremental = r.export_type && *r.export_type == "INCREMENTAL_EXPORT";
  if (r.has_incremental_specification && !r.export_type) {
    return Status::Validation(
        "Invalid Request: Export Type expected to be Incremental Export when incremental export specification is "
        "provided");
  }
  if (r.has_incremental_specification && !incremental) {
    return Status::Validation(
        "Invalid Request: When Export Type is Full Export , Incremental Export Specification should not be provided");
  }
  if (incremental && !r.has_incremental_specification) {
    return Status::Validation(
        "Invalid Request: Incremental Export Specification expected when export type is set as Incremental Export");
  }
  if (!incremental) return Status::OK();
  if (!r.export_from_time) {
    return Status::Validation("Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification");
  }
  double from = *r.export_from_time;
  double to = r.export_to_time.value_or(now);
  double since = table.point_in_time_recovery_since;
  if (from < since || from > to) {
    return InvalidExportTime("Incremental export period from time cannot be less than the table creation time : " +
                             IsoUtcTextOfSeconds(since));
  }
  if (to - from < kMinIncrementalSeconds) {
    return InvalidExportTime(
        "Difference between export period from time and export period to time is less than 15 minutes");
  }
  if (to > now) {
    return InvalidExportTime("Incremental export period to time cannot be greater than the current time : " +
                             IsoUtcTextOfSeconds(now));
  }
  if (to - from > kMaxIncrementalSeconds) {
    return InvalidExportTime(
        "Difference between export period from time and export period to time is greater than 24 hours");
  }
  return Status::OK();
}

// Every synchronous error of ExportTableToPointInTime, in DynamoDB's order.
Status CheckExportRequest(const Database& db, const RequestContext& ctx, const ExportRequest& r,
                          std::shared_ptr<const TableDefinition>* table) {
  DP_RETURN_IF_ERROR(FindExportTable(db, ctx, r.table_arn, table));
  const TableDefinition& t = **table;
  if (!t.point_in_time_recovery) {
    return Status::Error(ErrorCode::kPointInTimeRecoveryUnavailable,
                         "Point in time recovery is not enabled for table '" + t.name + "'");
  }
  double now = ctx.clock->NowSeconds();
  if (r.export_time) {
    const RestorableWindow window = RestorableWindowOf(t, now, static_cast<double>(ctx.pitr_latest_lag_seconds));
    if (*r.export_time > now || *r.export_time < window.earliest) return InvalidExportTime("Export Time is invalid");
    if (*r.export_time > window.latest) {
      return InvalidExportTime("Point in Time Recovery is not available for specified export time");
    }
  }
  DP_RETURN_IF_ERROR(CheckExportKind(r, t, now));
  if (r.s3_sse_kms_key_id && r.s3_sse_algorithm.value_or("AES256") != "KMS") {
    return Status::Validation("Invalid Request: KMS Key Id is not supported for this encryption type");
  }
  if (r.has_filter_specification && r.filter_specification_empty) {
    return Status::Validation("Invalid Request: Invalid FilterSpecification: The specification can not be empty");
  }
  return Status::OK();
}

// What makes two requests with one ClientToken the same request: every member as sent.
std::string Fingerprint(const ExportRequest& r) {
  auto opt = [](const std::optional<std::string>& v) { return v ? "=" + *v : std::string("-"); };
  auto num = [](const std::optional<double>& v) { return v ? "=" + std::to_string(*v) : std::string("-"); };
  return r.table_arn + "|" + r.s3_bucket + "|" + opt(r.s3_bucket_owner) + "|" + opt(r.s3_prefix) + "|" +
         opt(r.s3_sse_algorithm) + "|" + opt(r.s3_sse_kms_key_id) + "|" + opt(r.export_format) + "|" +
         opt(r.export_type) + "|" + num(r.export_time) + "|" + num(r.export_from_time) + "|" + num(r.export_to_time) +
         "|" + opt(r.export_view_type) + "|" + (r.has_filter_specification ? "f" : "-");
}

std::string Md5(std::string_view data) {
  unsigned char digest[MD5_DIGEST_LENGTH];
  MD5(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return std::string(reinterpret_cast<char*>(digest), sizeof digest);
}

// A data file's random name, 26 lowercase letters and digits as DynamoDB's.
std::string RandomFileName() {
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  std::string name;
  for (int i = 0; i < 26; ++i) name.push_back(kAlphabet[JobRandom()() % 32]);
  return name;
}

// Items are written in batches of this many.
constexpr size_t kImportBatchItems = 1000;
constexpr uint64_t kMaxItemBytes = 400 * 1024;
constexpr char kItemValidationMessage[] =
    "Some of the items failed validation checks and were not imported. Please check CloudWatch error logs for more "
    "details.";

}  // namespace

TransferJobs::TransferJobs(std::string s3_dir) {
  if (!s3_dir.empty()) store_ = std::make_unique<LocalObjectStore>(std::move(s3_dir));
}

Status TransferJobs::StartExport(Database& db, const RequestContext& ctx, const ExportRequest& request,
                                 ExportRecord* started) {
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(CheckExportRequest(db, ctx, request, &table));
  double now = ctx.clock->NowSeconds();
  std::string fingerprint = Fingerprint(request);
  uint32_t ns = db.namespace_id();
  size_t index;
  {
    std::lock_guard<std::mutex> lock(mu_);
    size_t earlier;
    DP_RETURN_IF_ERROR(FindTokenUse(export_tokens_, ns, request.client_token, fingerprint, now,
                                    Status::Error(ErrorCode::kExportConflict,
                                                  "Export conflict: Duplicate request detected with conflicting "
                                                  "parameters"),
                                    &earlier));
    if (earlier != kNoTokenUse) {
      *started = exports_[ns][earlier];
      return Status::OK();
    }
    if (!store_) return Status::Validation(kNoS3DirMessage);
    ExportRecord record;
    record.id = NewJobId(ctx.clock->NowMillis());
    record.arn = table->arn + "/export/" + record.id;
    record.status = "IN_PROGRESS";
    record.table_arn = table->arn;
    record.table_id = table->table_id;
    record.client_token = request.client_token.value_or("");
    record.s3_bucket = request.s3_bucket;
    record.s3_bucket_owner = request.s3_bucket_owner;
    record.s3_prefix = request.s3_prefix;
    record.s3_sse_algorithm = request.s3_sse_algorithm.value_or("AES256");
    record.s3_sse_kms_key_id = request.s3_sse_kms_key_id;
    record.export_format = request.export_format.value_or("DYNAMODB_JSON");
    record.export_type = request.export_type;
    if (request.has_incremental_specification) {
      record.export_from_time = request.export_from_time;
      record.export_to_time = request.export_to_time.value_or(now);
      record.export_view_type = request.export_view_type.value_or("NEW_AND_OLD_IMAGES");
    }
    record.start_time = now;
    record.export_time = request.export_time.value_or(now);
    std::vector<ExportRecord>& records = exports_[ns];
    index = records.size();
    records.push_back(record);
    if (request.client_token) export_tokens_[{ns, *request.client_token}] = TokenUse{index, fingerprint, now};
    *started = record;
  }
  ExportRecord finished = *started;
  RunExport(db, *table, &finished);
  finished.end_time = std::max(ctx.clock->NowSeconds(), now);
  std::lock_guard<std::mutex> lock(mu_);
  exports_[ns][index] = finished;
  return Status::OK();
}

void TransferJobs::RunExport(const Database& db, const TableDefinition& table, ExportRecord* record) const {
  auto fail = [record](const char* code, std::string message) {
    record->status = "FAILED";
    record->failure_code = code;
    record->failure_message = std::move(message);
  };
  if (!store_->BucketExists(record->s3_bucket)) {
    return fail("S3NoSuchBucket",
                "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; "
                "Error Code: NoSuchBucket)");
  }
  TableArnParts parts;
  if (record->s3_bucket_owner && ParseExportTableArn(record->table_arn, &parts).ok() &&
      *record->s3_bucket_owner != parts.account) {
    return fail("S3AccessDenied", "Access Denied (Service: Amazon S3; Status Code: 403; Error Code: AccessDenied)");
  }
  Status s = WriteExportFiles(db, table, record);
  if (!s.ok()) fail("UnknownError", s.message());
}

Status TransferJobs::WriteExportFiles(const Database& db, const TableDefinition& table, ExportRecord* record) const {
  ExportFormat format = record->export_format == "ION" ? ExportFormat::kIon : ExportFormat::kDynamoDbJson;
  const bool incremental = record->export_type && *record->export_type == "INCREMENTAL_EXPORT";
  std::string base = ExportFolderKey(record->s3_prefix.value_or(""), record->id);
  // An incremental export's data files go to the prefix's shared data folder, a full export's to its own.
  std::string data = incremental ? IncrementalDataFolderKey(record->s3_prefix.value_or("")) : base + "data/";
  DP_RETURN_IF_ERROR(store_->Write(record->s3_bucket, base + "_started", ""));
  std::string manifest_files, lines;
  uint64_t file_items = 0;
  auto flush = [&]() -> Status {
    std::string key = data + RandomFileName() + (format == ExportFormat::kIon ? ".ion.gz" : ".json.gz");
    std::string compressed;
    DP_RETURN_IF_ERROR(GzipCompress(lines, &compressed));
    DP_RETURN_IF_ERROR(store_->Write(record->s3_bucket, key, compressed));
    std::string md5 = Md5(compressed);
    manifest_files += ManifestFilesLine(file_items, Base64Encode(md5), Hex(md5), key);
    lines.clear();
    file_items = 0;
    return Status::OK();
  };
  auto added = [&](uint64_t size) {
    ++file_items;
    ++record->item_count;
    record->billed_size_bytes += size;
    return lines.size() >= kDataFileBytes ? flush() : Status::OK();
  };
  if (incremental) {
    const bool old_images = record->export_view_type.value_or("NEW_AND_OLD_IMAGES") == "NEW_AND_OLD_IMAGES";
    DP_RETURN_IF_ERROR(ReadTableChangesBetween(
        db, table, *record->export_from_time, *record->export_to_time, [&](const TableItemChange& change) {
          AppendIncrementalExportLine(format, change.last_write_ms * 1000, change.keys, change.new_image,
                                      old_images ? change.old_image : nullptr, &lines);
          return added(change.size);
        }));
    record->billed_size_bytes = std::max(record->billed_size_bytes, kMinIncrementalBilledBytes);
  } else {
    DP_RETURN_IF_ERROR(ReadTableItemsAsOf(db, table, record->export_time, [&](const AttributeMap& item, uint64_t size) {
      AppendExportLine(format, item, &lines);
      return added(size);
    }));
  }
  if (file_items > 0 || manifest_files.empty()) DP_RETURN_IF_ERROR(flush());  // at least one data file
  DP_RETURN_IF_ERROR(store_->Write(record->s3_bucket, base + "manifest-files.json", manifest_files));
  DP_RETURN_IF_ERROR(store_->Write(record->s3_bucket, base + "manifest-files.checksum", Hex(Md5(manifest_files))));
  record->status = "COMPLETED";
  record->end_time = record->start_time;  // the summary's endTime: when the data was written (set again by the caller)
  record->export_manifest = base + "manifest-summary.json";
  std::string summary = ManifestSummaryJson(*record, base + "manifest-files.json");
  DP_RETURN_IF_ERROR(store_->Write(record->s3_bucket, base + "manifest-summary.json", summary));
  return store_->Write(record->s3_bucket, base + "manifest-summary.checksum", Hex(Md5(summary)));
}

Status TransferJobs::DescribeExport(const Database& db, const RequestContext& ctx, const std::string& export_arn,
                                    ExportRecord* out) const {
  TableArnParts parts;
  DP_RETURN_IF_ERROR(ParseJobArn(export_arn, "/export/", "Invalid Export ARN", ctx, &parts));
  if (parts.region != ctx.caller.region) {
    return Status::Error(ErrorCode::kExportNotFound, "Export not found: Invalid export arn");
  }
  std::lock_guard<std::mutex> lock(mu_);
  const ExportRecord* record = FindRecord(exports_, db.namespace_id(), export_arn);
  if (!record) return Status::Error(ErrorCode::kExportNotFound, "Export not found: Export not found: " + export_arn);
  *out = *record;
  return Status::OK();
}

Status TransferJobs::ListExports(const Database& db, const std::optional<std::string>& table_arn, int64_t max_results,
                                 const std::string& next_token, std::vector<ExportRecord>* out,
                                 std::string* next_token_out) const {
  std::lock_guard<std::mutex> lock(mu_);
  return ListRecords(exports_, db, 'e', table_arn, max_results, next_token, out, next_token_out);
}

Status TransferJobs::StartImport(Database& db, const RequestContext& ctx, const ImportRequest& request,
                                 const std::function<Status()>& create_table, ImportRecord* started) {
  uint32_t ns = db.namespace_id();
  double now = ctx.clock->NowSeconds();
  std::string fingerprint = request.table_name;  // another S3KeyPrefix with one token is silently the same import
  if (request.client_token) {
    std::lock_guard<std::mutex> lock(mu_);
    auto used = import_tokens_.find({ns, *request.client_token});
    if (used != import_tokens_.end() && now - used->second.time < kClientTokenSeconds &&
        used->second.fingerprint != fingerprint) {
      return Status::Error(ErrorCode::kImportConflict,
                           "Import conflict: Duplicate request detected with conflicting parameters");
    }
  }
  if (!store_) return Status::Validation(kNoS3DirMessage);
  ImportRecord record;
  record.id = NewJobId(ctx.clock->NowMillis());
  record.table_arn =
      "arn:aws:dynamodb:" + ctx.caller.region + ":" + ctx.caller.account_id + ":table/" + request.table_name;
  record.arn = record.table_arn + "/import/" + record.id;
  record.status = "IN_PROGRESS";
  record.client_token = request.client_token.value_or("");
  record.s3_bucket = request.s3_bucket;
  record.s3_bucket_owner = request.s3_bucket_owner.value_or(ctx.caller.account_id);
  record.s3_key_prefix = request.s3_key_prefix;
  record.input_format = request.input_format;
  record.input_compression = request.input_compression.value_or("NONE");
  record.input_format_options_json = request.input_format_options_json;
  record.table_creation_parameters_json = request.table_creation_parameters_json;
  record.cloud_watch_log_group_arn =
      "arn:aws:logs:" + ctx.caller.region + ":" + ctx.caller.account_id + ":log-group:/aws-dynamodb/imports:*";
  record.start_time = now;
  std::shared_ptr<const TableDefinition> table;
  if (store_->BucketExists(request.s3_bucket)) {
    DP_RETURN_IF_ERROR(create_table());
    table = db.catalog().FindTable(request.table_name);
    if (!table) return Status::Internal("the imported table vanished: " + request.table_name);
    record.table_id = table->table_id;
    // Until the load ends, a restart deletes the table: a crash leaves it absent, never half-loaded.
    DP_RETURN_IF_ERROR(db.writes().MarkImporting(table->name, table->table_id));
  }
  size_t index;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<ImportRecord>& records = imports_[ns];
    index = records.size();
    records.push_back(record);
    if (request.client_token) import_tokens_[{ns, *request.client_token}] = TokenUse{index, fingerprint, now};
  }
  *started = record;
  if (!table) {
    record.status = "FAILED";
    record.failure_code = "S3NoSuchBucket";
    record.failure_message =
        "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: "
        "NoSuchBucket)";
  } else {
    RunImport(db, ctx, table, &record);
    Status ended = db.writes().EndImporting(table->name);
    if (!ended.ok()) return ended;
  }
  record.end_time = std::max(ctx.clock->NowSeconds(), now);
  std::lock_guard<std::mutex> lock(mu_);
  imports_[ns][index] = record;
  return Status::OK();
}

void TransferJobs::LogImportError(const ImportRecord& record, const std::string& key, size_t item_index,
                                  const std::string& message) const {
  std::filesystem::path folder =
      std::filesystem::path(store_->root()) / ".dynapage" / "logs" / "aws-dynamodb" / "imports" / record.id;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("itemS3Pointer");
  w.StartObject();
  w.Key("bucket");
  w.String(record.s3_bucket);
  w.Key("key");
  w.String(key);
  w.Key("itemIndex");
  w.Uint64(item_index);
  w.EndObject();
  w.Key("importArn");
  w.String(record.arn);
  w.Key("errorMessages");
  w.StartArray();
  w.String(message);
  w.EndArray();
  w.EndObject();
  std::ofstream out(folder / "error", std::ios::app | std::ios::binary);
  out << buffer.GetString() << '\n';
}

void TransferJobs::RunImport(Database& db, const RequestContext& ctx, std::shared_ptr<const TableDefinition> table,
                             ImportRecord* record) const {
  std::vector<std::string> keys;
  Status listed = store_->ListKeys(record->s3_bucket, record->s3_key_prefix.value_or(""), &keys);
  if (!listed.ok()) {
    record->status = "FAILED";
    record->failure_code = "UnknownError";
    record->failure_message = listed.message();
    return;
  }
  std::vector<ItemWrite> writes;
  std::vector<std::pair<std::string, size_t>> sources;  // each write's object key and item index
  std::set<std::string> batch_keys;
  auto flush = [&]() {
    if (writes.empty()) return;
    std::vector<Status> statuses;
    if (db.writes().ApplyWrites(ctx, &writes, &statuses).ok()) {
      record->imported_item_count += writes.size();
    } else {
      // One at a time, so that one refused item does not keep the others out.
      for (size_t i = 0; i < writes.size(); ++i) {
        std::vector<ItemWrite> one{writes[i]};
        Status s = db.writes().ApplyWrites(ctx, &one, &statuses);
        if (s.ok()) {
          ++record->imported_item_count;
        } else {
          ++record->error_count;
          LogImportError(*record, sources[i].first, sources[i].second, s.message());
        }
      }
    }
    writes.clear();
    sources.clear();
    batch_keys.clear();
  };
  InputObjectFormat format =
      ImportFormatOf(record->input_format, record->input_compression, record->input_format_options_json, *table);
  for (const std::string& key : keys) {
    std::string raw;
    uint64_t uncompressed_bytes = 0;
    Status s = store_->Read(record->s3_bucket, key, &raw);
    if (s.ok()) {
      s = ReadInputObject(
          format, raw,
          [&](size_t item_index, const Status& parsed, AttributeMap* item) {
            ++record->processed_item_count;
            Status valid = parsed;
            if (valid.ok()) valid = ValidateItemKeys(*table, *item);
            if (valid.ok() && ItemSize(*item) > kMaxItemBytes) {
              valid = Status::Validation("Item size has exceeded the maximum allowed size");
            }
            if (!valid.ok()) {
              ++record->error_count;
              LogImportError(*record, key, item_index, valid.message());
              return;
            }
            std::string storage_key = TableItemKey(*table, *item);
            if (!batch_keys.insert(storage_key).second) {
              flush();  // a key again: the later item wins, as it overwrites the earlier
              batch_keys.insert(storage_key);
            }
            ItemWrite& w = writes.emplace_back();
            w.table = table;
            w.storage_key = std::move(storage_key);
            auto put = std::make_shared<AttributeMap>(std::move(*item));
            w.mutate = [put](const AttributeMap*, std::optional<AttributeMap>* next) {
              *next = *put;
              return Status::OK();
            };
            sources.emplace_back(key, item_index);
            if (writes.size() >= kImportBatchItems) flush();
          },
          &uncompressed_bytes);
    }
    record->processed_size_bytes += uncompressed_bytes;
    if (!s.ok()) {
      ++record->error_count;
      LogImportError(*record, key, 0, s.message());
    }
  }
  flush();
  if (record->error_count > 0) {
    record->status = "FAILED";
    record->failure_code = "ItemValidationError";
    record->failure_message = kItemValidationMessage;
  } else {
    record->status = "COMPLETED";
  }
}

Status TransferJobs::DescribeImport(const Database& db, const RequestContext& ctx, const std::string& import_arn,
                                    ImportRecord* out) const {
  TableArnParts parts;
  DP_RETURN_IF_ERROR(ParseJobArn(import_arn, "/import/", "Invalid Import ARN", ctx, &parts));
  std::lock_guard<std::mutex> lock(mu_);
  const ImportRecord* record = FindRecord(imports_, db.namespace_id(), import_arn);
  if (!record) return Status::Error(ErrorCode::kImportNotFound, "Import not found: " + import_arn);
  *out = *record;
  return Status::OK();
}

Status TransferJobs::ListImports(const Database& db, const std::optional<std::string>& table_arn, int64_t page_size,
                                 const std::string& next_token, std::vector<ImportRecord>* out,
                                 std::string* next_token_out) const {
  std::lock_guard<std::mutex> lock(mu_);
  return ListRecords(imports_, db, 'i', table_arn, page_size, next_token, out, next_token_out);
}

}  // namespace dynapage
