#include "engine/transfer/bulk_operations.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <set>
#include <utility>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include "engine/base/messages.h"
#include "engine/model/attribute_value_json.h"
#include "engine/storage/item_key.h"
#include "engine/transfer/gzip_codec.h"
#include "engine/transfer/import_reader.h"
#include "engine/transfer/ion_reader.h"
#include "engine/transfer/transfer_ids.h"
#include "engine/transfer/transfer_jobs.h"
#include "engine/transfer/zstd_codec.h"
#include "engine/write/item_operations.h"

namespace dynapage {

bool BulkOutputConfiguration::wants(const char* type) const {
  return std::find(output_types.begin(), output_types.end(), type) != output_types.end();
}

namespace {

// An uncompressed input object may be at most this large in memory.
constexpr uint64_t kMaxBulkObjectBytes = 1ULL << 31;
// A report file is closed and a new one begun after this many bytes.
constexpr size_t kReportFileBytes = 16 << 20;

constexpr char kNoSuchBucketMessage[] =
    "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket)";
constexpr char kAccessDeniedMessage[] =
    "Access Denied (Service: Amazon S3; Status Code: 403; Error Code: AccessDenied)";
constexpr char kConditionFailedMessage[] = "The conditional request failed";

// What makes two requests with one ClientToken the same request: every member as sent.
std::string Fingerprint(const BulkPutRequest& r) {
  auto opt = [](const std::optional<std::string>& v) { return v ? "=" + *v : std::string("-"); };
  std::string types;
  for (const std::string& type : r.output.output_types) types += type + ",";
  return r.table_name + "|" + r.input.s3_bucket + "|" + opt(r.input.s3_bucket_owner) + "|" +
         opt(r.input.s3_key_prefix) + "|" + r.input.input_format + "|" + opt(r.input.input_compression) + "|" +
         opt(r.output.s3_bucket) + "|" + opt(r.output.s3_bucket_owner) + "|" + opt(r.output.s3_key_prefix) + "|" +
         opt(r.output.s3_sse_algorithm) + "|" + opt(r.output.s3_sse_kms_key_id) + "|" + types + "|" +
         (r.max_write_request_units ? std::to_string(*r.max_write_request_units) : "-") + "|" + opt(r.performance_tier);
}

// The table a StartBulkPutItems names (a name, or an ARN of the caller's account and region).
Status FindBulkTable(const Database& db, const RequestContext& ctx, const std::string& name_or_arn,
                     std::shared_ptr<const TableDefinition>* table) {
  std::string name = name_or_arn;
  if (name_or_arn.compare(0, 4, "arn:") == 0) {
    TableArnParts parts;
    DP_RETURN_IF_ERROR(ParseExportTableArn(name_or_arn, &parts));
    if (parts.account == ctx.caller.account_id && parts.region == ctx.caller.region)
      name = parts.table;
    else
      name.clear();
  }
  *table = name.empty() ? nullptr : db.catalog().FindTable(name);
  if (!*table) return Status::NotFound("Requested resource not found: Table: " + name_or_arn + " not found");
  return Status::OK();
}

bool StillSettling(const RequestContext& ctx, double since) {
  return ctx.transient_status_ms > 0 &&
         (ctx.clock->NowSeconds() - since) * 1000 < static_cast<double>(ctx.transient_status_ms);
}

// ResourceInUseException unless the table is ACTIVE with every index ACTIVE; ValidationException for a replica
// of a global table (DynamoDB refuses bulk operations on those).
Status CheckTableAcceptsBulkPut(const RequestContext& ctx, const TableDefinition& table) {
  if (StillSettling(ctx, table.creation_time)) {
    return Status::InUse("Table is not ACTIVE: " + table.name + " is being created");
  }
  for (const IndexDefinition& index : table.indexes) {
    if (index.creation_time > 0 && StillSettling(ctx, index.creation_time)) {
      return Status::InUse("Table " + table.name + " has an index being created: " + index.name);
    }
  }
  if (table.global.is_global()) {
    return Status::Validation("Bulk operations are not supported on a table of a global table: " + table.name);
  }
  return Status::OK();
}

// The one step from an input object's bytes to its records: decompressed (GZIP, ZSTD or none), then each record's
// object (or why it is none) to each. A DYNAMODB_JSON record is its object as written (an Item and, optionally, a
// condition); an ION record is read by ImportTable's ION reader and handed on as {"Item": …} (no condition).
Status ReadBulkObjectRecords(const std::string& raw, const BulkInputConfiguration& input,
                             const ImportObjectVisitor& each) {
  const std::string compression = input.input_compression.value_or("NONE");
  std::string decompressed;
  std::string_view text = raw;
  if (compression == "GZIP" || compression == "ZSTD") {
    DP_RETURN_IF_ERROR(compression == "GZIP" ? GzipDecompress(raw, kMaxBulkObjectBytes, &decompressed)
                                             : ZstdDecompress(raw, kMaxBulkObjectBytes, &decompressed));
    text = decompressed;
  }
  if (input.input_format != "ION") {
    ReadDynamoDbJsonObjects(text, each);
    return Status::OK();
  }
  ReadIonItems(text, [&](size_t index, const Status& parsed, AttributeMap* item) {
    if (!parsed.ok()) return each(index, parsed, nullptr);
    rapidjson::StringBuffer buffer;
    JsonWriter writer(buffer);
    writer.StartObject();
    writer.Key("Item");
    WriteAttributeMap(*item, &writer);
    writer.EndObject();
    rapidjson::Document record;
    record.Parse<rapidjson::kParseIterativeFlag>(buffer.GetString(), buffer.GetSize());
    each(index, Status::OK(), &record);
  });
  return Status::OK();
}

// A record's ConditionExpression, ExpressionAttributeNames and ExpressionAttributeValues, into request.
Status ReadRecordCondition(const rapidjson::Value& object, PutItemRequest* request) {
  auto member = object.FindMember("ConditionExpression");
  if (member != object.MemberEnd()) {
    if (!member->value.IsString()) return Status::Validation("Unexpected data: ConditionExpression is not a string");
    request->condition.expression = std::string(member->value.GetString(), member->value.GetStringLength());
  }
  member = object.FindMember("ExpressionAttributeNames");
  if (member != object.MemberEnd()) {
    if (!member->value.IsObject()) return Status::Validation("Unexpected data: ExpressionAttributeNames is no map");
    auto& names = request->expression_inputs.names.emplace();
    for (auto n = member->value.MemberBegin(); n != member->value.MemberEnd(); ++n) {
      if (!n->value.IsString()) return Status::Validation("Unexpected data: an ExpressionAttributeNames value");
      names[std::string(n->name.GetString(), n->name.GetStringLength())] =
          std::string(n->value.GetString(), n->value.GetStringLength());
    }
  }
  member = object.FindMember("ExpressionAttributeValues");
  if (member != object.MemberEnd()) {
    AttributeMap values;
    DP_RETURN_IF_ERROR(DecodeAttributeMap(member->value, &values));
    request->expression_inputs.values = std::move(values);
  }
  return Status::OK();
}

// The bytes an item puts into an index: those of the attributes the index keeps, if it has the index's keys.
uint64_t IndexPutBytes(const TableDefinition& table, const IndexDefinition& index, const AttributeMap& item) {
  for (size_t i = 0; i < index.key.hash_count(); ++i) {
    if (!item.count(index.key.hash_at(i).name)) return 0;
  }
  for (size_t i = 0; i < index.key.range_count(); ++i) {
    if (!item.count(index.key.range_at(i).name)) return 0;
  }
  uint64_t bytes = 0;
  for (const auto& [name, value] : item) {
    if (index.Projects(name, table.key)) bytes += name.size() + ValueSize(value);
  }
  return bytes;
}

std::string ReportFolderKey(const BulkOperationRecord& record) {
  std::string prefix = record.output.s3_key_prefix.value_or("");
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  return prefix + "AWSDynamoDB/BulkOperations/" + record.id + "/";
}

}  // namespace

// One operation's work, on the worker thread.
class BulkOperations::Run {
 public:
  Run(BulkOperations* owner, const Job& job, BulkOperationRecord record)
      : owner_(owner), job_(job), store_(*owner->store_), record_(std::move(record)) {}

  // Runs the operation to its terminal state and stores it.
  void Execute() {
    ReadInputs();
    if (!stopped_) Flush();
    if (cancelled_) {
      record_.status = "CANCELLED";
      record_.failure_code = "BulkOperationCancelled";
      record_.failure_message = "The bulk operation was cancelled by CancelBulkOperation";
    } else if (record_.status == "IN_PROGRESS") {
      record_.status = record_.failed_item_count > 0 ? "COMPLETED_WITH_ERRORS" : "COMPLETED";
    }
    if (record_.output.s3_bucket && store_.BucketExists(*record_.output.s3_bucket)) WriteReports();
    record_.end_time = std::max(job_.ctx.clock->NowSeconds(), record_.start_time);
    owner_->Finish(job_, &record_);
  }

 private:
  struct Pending {
    std::unique_ptr<PutItemRequest> request;  // what write's mutator reads
    ItemWrite write;
    std::shared_ptr<std::optional<AttributeMap>> existing;  // the item as it was, when the condition failed
    std::string key;
    size_t index;
  };

  void Fail(const char* code, std::string message) {
    record_.status = "FAILED";
    record_.failure_code = code;
    record_.failure_message = std::move(message);
    stopped_ = true;
  }

  void ReadInputs() {
    const BulkInputConfiguration& input = record_.input;
    if (!store_.BucketExists(input.s3_bucket) ||
        (record_.output.s3_bucket && !store_.BucketExists(*record_.output.s3_bucket))) {
      return Fail("S3NoSuchBucket", kNoSuchBucketMessage);
    }
    if (input.s3_bucket_owner && *input.s3_bucket_owner != job_.ctx.caller.account_id) {
      return Fail("S3AccessDenied", kAccessDeniedMessage);
    }
    std::vector<std::string> keys;
    Status listed = store_.ListKeys(input.s3_bucket, input.s3_key_prefix.value_or(""), &keys);
    if (!listed.ok()) return Fail("UnknownError", listed.message());
    for (const std::string& key : keys) {
      std::string path;
      std::error_code ec;
      if (store_.PathOf(input.s3_bucket, key, &path).ok())
        record_.total_input_bytes += std::filesystem::file_size(path, ec);
    }
    if (!Continue()) return;
    for (const std::string& key : keys) {
      std::string raw;
      Status s = store_.Read(input.s3_bucket, key, &raw);
      if (s.ok()) {
        s = ReadBulkObjectRecords(raw, input, [&](size_t index, const Status& parsed, const rapidjson::Value* object) {
          if (!stopped_) AddRecord(key, index, parsed, object);
        });
      }
      if (stopped_) return;
      if (!s.ok()) {
        ++record_.processed_item_count;
        Refuse(key, 0, s.message(), nullptr);
      }
      record_.processed_input_bytes += raw.size();
    }
  }

  void AddRecord(const std::string& key, size_t index, const Status& parsed, const rapidjson::Value* object) {
    ++record_.processed_item_count;
    if (!parsed.ok()) return Refuse(key, index, parsed.message(), nullptr);
    Pending p;
    p.request = std::make_unique<PutItemRequest>();
    p.request->table_name = record_.table_name;
    Status s = DecodeRecordItem(*object, &p.request->item);
    if (s.ok()) s = ReadRecordCondition(*object, p.request.get());
    if (s.ok()) s = PreparePutItem(job_.db->writes(), *p.request, &p.write);
    if (s.ok() && p.write.table->table_id != record_.table_id) s = Status::NotFound(kResourceNotFound);
    if (s.code() == ErrorCode::kResourceNotFound) return Fail("ResourceNotFound", "The table was deleted");
    if (!s.ok()) return Refuse(key, index, s.message(), p.request->item.empty() ? nullptr : &p.request->item);
    p.existing = std::make_shared<std::optional<AttributeMap>>();
    ItemMutator inner = std::move(p.write.mutate);
    p.write.mutate = [inner, existing = p.existing](const AttributeMap* current, std::optional<AttributeMap>* next) {
      Status checked = inner(current, next);
      if (checked.code() == ErrorCode::kConditionalCheckFailed && current) *existing = *current;
      return checked;
    };
    p.key = key;
    p.index = index;
    if (!batch_keys_.insert(p.write.storage_key).second) {
      Flush();  // the key again: the later record is put after the earlier, as it comes later
      if (stopped_) return;
      batch_keys_.insert(p.write.storage_key);
    }
    batch_.push_back(std::move(p));
    if (batch_.size() >= kBulkPutBatchRecords) Flush();
  }

  // Publishes the counters; false (and stopped_) when the operation was cancelled or the server is stopping.
  bool Continue() {
    if (owner_->Publish(job_, record_, &cancelled_)) return true;
    stopped_ = true;
    return false;
  }

  // Puts the batch, after the pause between batches of a transient-status delay.
  void Flush() {
    if (batch_.empty()) return;
    if (flushed_any_ && job_.ctx.transient_status_ms > 0 && !owner_->Pause(job_.ctx.transient_status_ms)) {
      stopped_ = true;
    }
    if (stopped_ || !Continue()) return;
    flushed_any_ = true;
    std::vector<ItemWrite> writes;
    for (const Pending& p : batch_) writes.push_back(p.write);
    std::vector<Status> statuses;
    if (job_.db->writes().ApplyWrites(job_.ctx, &writes, &statuses).ok()) {
      for (const ItemWrite& w : writes) Account(w);
    } else {
      // One at a time, so that one refused or conditional record does not keep the others out.
      for (Pending& p : batch_) {
        std::vector<ItemWrite> one{p.write};
        Status s = job_.db->writes().ApplyWrites(job_.ctx, &one, &statuses);
        if (s.ok()) {
          Account(one[0]);
        } else if (s.code() == ErrorCode::kConditionalCheckFailed) {
          ConditionFailed(p);
        } else if (s.code() == ErrorCode::kResourceNotFound) {
          Fail("ResourceNotFound", "The table was deleted");
          break;
        } else {
          Refuse(p.key, p.index, s.message(), &p.request->item);
        }
      }
    }
    batch_.clear();
    batch_keys_.clear();
    Continue();
  }

  void Account(const ItemWrite& w) {
    record_.table_put_bytes += w.new_size;
    if (!w.new_item) return;
    for (const IndexDefinition& index : w.table->indexes) {
      uint64_t bytes = IndexPutBytes(*w.table, index, *w.new_item);
      (index.global ? record_.global_index_put_bytes : record_.local_index_put_bytes)[index.name] += bytes;
    }
  }

  // A record that could not be put: FailedItemCount, and the ERROR report.
  void Refuse(const std::string& key, size_t index, const std::string& message, const AttributeMap* item) {
    ++record_.failed_item_count;
    if (record_.output.wants("ERROR")) AddReportLine(&errors_, key, index, message, item, nullptr);
  }

  void ConditionFailed(const Pending& p) {
    ++record_.condition_failure_count;
    if (!record_.output.wants("CONDITION_CHECK_FAILURE")) return;
    AddReportLine(&condition_failures_, p.key, p.index, kConditionFailedMessage, &p.request->item,
                  *p.existing ? &**p.existing : nullptr);
  }

  struct Report {
    Report(const char* type, const char* folder) : type(type), folder(folder) {}
    const char* type;
    const char* folder;
    std::string lines;
    uint64_t line_count = 0;
    std::vector<std::pair<std::string, uint64_t>> files;  // key, lines
  };

  void AddReportLine(Report* report, const std::string& key, size_t index, const std::string& message,
                     const AttributeMap* item, const AttributeMap* existing) {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    w.StartObject();
    w.Key("itemS3Pointer");
    w.StartObject();
    w.Key("bucket");
    w.String(record_.input.s3_bucket);
    w.Key("key");
    w.String(key);
    w.Key("itemIndex");
    w.Uint64(index);
    w.EndObject();
    w.Key("errorMessages");
    w.StartArray();
    w.String(message);
    w.EndArray();
    if (item) {
      w.Key("Item");
      WriteAttributeMap(*item, &w);
    }
    if (existing) {
      w.Key("ExistingItem");
      WriteAttributeMap(*existing, &w);
    }
    w.EndObject();
    report->lines.append(buffer.GetString(), buffer.GetSize());
    report->lines.push_back('\n');
    ++report->line_count;
    if (report->lines.size() >= kReportFileBytes) WriteReportFile(report);
  }

  void WriteReportFile(Report* report) {
    if (report->line_count == 0 || !record_.output.s3_bucket) return;
    char name[32];
    std::snprintf(name, sizeof name, "%05zu.json", report->files.size());
    std::string key = ReportFolderKey(record_) + report->folder + "/" + name;
    if (store_.Write(*record_.output.s3_bucket, key, report->lines).ok()) {
      report->files.emplace_back(key, report->line_count);
    }
    report->lines.clear();
    report->line_count = 0;
  }

  // The report files left in memory, and manifest.json, which lists them.
  void WriteReports() {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    w.StartObject();
    w.Key("bulkOperationArn");
    w.String(record_.arn);
    w.Key("bulkOperationStatus");
    w.String(record_.status);
    w.Key("processedItemCount");
    w.Uint64(record_.processed_item_count);
    w.Key("failedItemCount");
    w.Uint64(record_.failed_item_count);
    w.Key("conditionCheckFailureCount");
    w.Uint64(record_.condition_failure_count);
    w.Key("outputFiles");
    w.StartArray();
    for (Report* report : {&errors_, &condition_failures_}) {
      WriteReportFile(report);
      for (const auto& [key, lines] : report->files) {
        w.StartObject();
        w.Key("outputType");
        w.String(report->type);
        w.Key("key");
        w.String(key);
        w.Key("itemCount");
        w.Uint64(lines);
        w.EndObject();
      }
    }
    w.EndArray();
    w.EndObject();
    store_.Write(*record_.output.s3_bucket, ReportFolderKey(record_) + "manifest.json",
                 std::string(buffer.GetString(), buffer.GetSize()));
  }

  BulkOperations* owner_;
  const Job& job_;
  const LocalObjectStore& store_;
  BulkOperationRecord record_;
  std::vector<Pending> batch_;
  std::set<std::string> batch_keys_;
  bool flushed_any_ = false;
  bool stopped_ = false;    // no more records are read or put
  bool cancelled_ = false;  // by CancelBulkOperation
  Report errors_{"ERROR", "errors"};
  Report condition_failures_{"CONDITION_CHECK_FAILURE", "condition-check-failures"};
};

BulkOperations::BulkOperations(std::string s3_dir) {
  if (!s3_dir.empty()) store_ = std::make_unique<LocalObjectStore>(std::move(s3_dir));
}

BulkOperations::~BulkOperations() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

Status BulkOperations::StartBulkPut(Database& db, const RequestContext& ctx, const BulkPutRequest& request,
                                    BulkOperationRecord* started) {
  if (request.output.s3_sse_kms_key_id && request.output.s3_sse_algorithm.value_or("AES256") != "KMS") {
    return Status::Validation("Invalid Request: KMS Key Id is not supported for this encryption type");
  }
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(FindBulkTable(db, ctx, request.table_name, &table));
  DP_RETURN_IF_ERROR(CheckTableAcceptsBulkPut(ctx, *table));
  double now = ctx.clock->NowSeconds();
  std::string fingerprint = Fingerprint(request);
  uint32_t ns = db.namespace_id();
  std::lock_guard<std::mutex> lock(mu_);
  size_t earlier;
  DP_RETURN_IF_ERROR(
      FindTokenUse(tokens_, ns, request.client_token, fingerprint, now,
                   Status::Error(ErrorCode::kIdempotentParameterMismatch,
                                 "Bulk operation conflict: Duplicate request detected with conflicting parameters"),
                   &earlier));
  if (earlier != kNoTokenUse) {
    *started = records_[ns][earlier];
    return Status::OK();
  }
  if (!store_) return Status::Validation(kNoS3DirMessage);
  BulkOperationRecord record;
  record.id = NewJobId(ctx.clock->NowMillis());
  record.arn = table->arn + "/bulk-operation/" + record.id;
  record.status = "IN_PROGRESS";
  record.table_name = table->name;
  record.table_id = table->table_id;
  record.table_arn = table->arn;
  record.client_token = request.client_token.value_or("");
  record.input = request.input;
  record.output = request.output;
  record.start_time = now;
  record.max_write_request_units = request.max_write_request_units.value_or(0);
  record.performance_tier = request.performance_tier.value_or("STANDARD");
  std::vector<BulkOperationRecord>& records = records_[ns];
  size_t index = records.size();
  records.push_back(record);
  if (request.client_token) tokens_[{ns, *request.client_token}] = TokenUse{index, fingerprint, now};
  Job job{&db, ctx, ns, index};
  job.ctx.request_id = {};
  job.ctx.counters = nullptr;
  job.ctx.policies = nullptr;
  queue_.push_back(std::move(job));
  if (!worker_.joinable()) worker_ = std::thread([this] { WorkerLoop(); });
  wake_.notify_all();
  *started = record;
  return Status::OK();
}

void BulkOperations::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    BulkOperationRecord record = records_[job.ns][job.index];
    lock.unlock();
    Run(this, job, std::move(record)).Execute();
    lock.lock();
  }
}

bool BulkOperations::Publish(const Job& job, const BulkOperationRecord& progress, bool* cancelled) {
  std::lock_guard<std::mutex> lock(mu_);
  BulkOperationRecord& stored = records_[job.ns][job.index];
  std::string status = stored.status;
  stored = progress;
  stored.status = status;
  *cancelled = status == "CANCELLING";
  return !*cancelled && !stopping_;
}

void BulkOperations::Finish(const Job& job, BulkOperationRecord* finished) {
  std::lock_guard<std::mutex> lock(mu_);
  BulkOperationRecord& stored = records_[job.ns][job.index];
  if (stored.status == "CANCELLING" && finished->status != "CANCELLED") {
    finished->status = "CANCELLED";
    finished->failure_code = "BulkOperationCancelled";
    finished->failure_message = "The bulk operation was cancelled by CancelBulkOperation";
  }
  stored = *finished;
}

bool BulkOperations::Pause(uint64_t ms) {
  std::unique_lock<std::mutex> lock(mu_);
  return !wake_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping_; });
}

Status BulkOperations::Describe(const Database& db, const std::string& arn, BulkOperationRecord* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  const BulkOperationRecord* record = FindRecord(records_, db.namespace_id(), arn);
  if (!record) return Status::NotFound("Requested resource not found: Bulk operation " + arn + " not found");
  *out = *record;
  return Status::OK();
}

Status BulkOperations::List(const Database& db, int64_t max_results, const std::string& next_token,
                            std::vector<BulkOperationRecord>* out, std::string* next_token_out) const {
  std::lock_guard<std::mutex> lock(mu_);
  return ListRecords(records_, db, 'b', std::nullopt, max_results, next_token, out, next_token_out);
}

Status BulkOperations::Cancel(const Database& db, const std::string& arn, std::string* status_out) {
  std::lock_guard<std::mutex> lock(mu_);
  auto records = records_.find(db.namespace_id());
  if (records != records_.end()) {
    for (BulkOperationRecord& record : records->second) {
      if (record.arn != arn) continue;
      if (record.terminal()) {
        return Status::Validation("Bulk operation " + arn + " cannot be cancelled: it is already " + record.status);
      }
      record.status = "CANCELLING";
      *status_out = record.status;
      return Status::OK();
    }
  }
  return Status::NotFound("Requested resource not found: Bulk operation " + arn + " not found");
}

}  // namespace dynapage
