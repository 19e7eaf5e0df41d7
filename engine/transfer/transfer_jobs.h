// TransferJobs: ExportTableToPointInTime, DescribeExport, ListExports, ImportTable, DescribeImport and ListImports over
// the local S3 folder (--s3-dir; docs/export-import.md). One per server, shared by every namespace; each job belongs to
// the namespace that started it, and a namespace sees only its own.
//
// An export is checked with DynamoDB's synchronous errors in DynamoDB's order, recorded IN_PROGRESS (what the
// start response shows), then run at once on the requesting thread from one consistent snapshot of the table
// (engine/transfer/table_as_of.h) and recorded COMPLETED or FAILED (S3NoSuchBucket, S3AccessDenied), as
// DescribeExport then shows it. The layout written is export_layout.h's. Records are kept in memory, for the
// life of the process.
//
// Thread-safe.

#ifndef DYNAPAGE_ENGINE_TRANSFER_TRANSFER_JOBS_H_
#define DYNAPAGE_ENGINE_TRANSFER_TRANSFER_JOBS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/transfer/export_record.h"
#include "engine/transfer/import_record.h"
#include "engine/transfer/local_object_store.h"
#include "engine/transfer/transfer_ids.h"

namespace dynapage {

// The ValidationException of an export or import while no --s3-dir was given.
extern const char kNoS3DirMessage[];

// ExportTableToPointInTime's members, as sent (absent members are nullopt).
struct ExportRequest {
  std::string table_arn;
  std::optional<double> export_time;
  std::optional<std::string> client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::optional<std::string> s3_sse_algorithm;
  std::optional<std::string> s3_sse_kms_key_id;
  std::optional<std::string> export_format;  // DYNAMODB_JSON or ION
  std::optional<std::string> export_type;    // FULL_EXPORT or INCREMENTAL_EXPORT
  bool has_incremental_specification = false;
  std::optional<double> export_from_time;
  std::optional<double> export_to_time;
  std::optional<std::string> export_view_type;
  bool has_filter_specification = false;
  bool filter_specification_empty = false;
};

class TransferJobs {
 public:
  // s3_dir: the folder of the local buckets; empty refuses every export and import (kNoS3DirMessage).
  explicit TransferJobs(std::string s3_dir);

  bool has_s3_dir() const { return store_ != nullptr; }

  // ExportTableToPointInTime in db's namespace. *started is the record as the start response shows it
  // (IN_PROGRESS); the export has run by the time this returns.
  Status StartExport(Database& db, const RequestContext& ctx, const ExportRequest& request, ExportRecord* started);
  // DescribeExport: the record of export_arn in db's namespace.
  Status DescribeExport(const Database& db, const RequestContext& ctx, const std::string& export_arn,
                        ExportRecord* out) const;
  // ListExports: newest first, max_results a page, from next_token (empty: the first page); *next_token_out is
  // empty after the last page. table_arn, if set, keeps the exports of the table that has that ARN now.
  Status ListExports(const Database& db, const std::optional<std::string>& table_arn, int64_t max_results,
                     const std::string& next_token, std::vector<ExportRecord>* out, std::string* next_token_out) const;

  // ImportTable in db's namespace: checks the ClientToken, then, unless the bucket is missing (the import then
  // FAILS with no table, as DynamoDB's), calls create_table (the CreateTable of TableCreationParameters, whose
  // errors are the request's) and loads every object under the key prefix into the new table, in batches through
  // the write path. *started is the record as the start response shows it (IN_PROGRESS).
  Status StartImport(Database& db, const RequestContext& ctx, const ImportRequest& request,
                     const std::function<Status()>& create_table, ImportRecord* started);
  Status DescribeImport(const Database& db, const RequestContext& ctx, const std::string& import_arn,
                        ImportRecord* out) const;
  Status ListImports(const Database& db, const std::optional<std::string>& table_arn, int64_t page_size,
                     const std::string& next_token, std::vector<ImportRecord>* out, std::string* next_token_out) const;

 private:
  // Loads the import's objects into table and fills in the record's counts and terminal state.
  void RunImport(Database& db, const RequestContext& ctx, std::shared_ptr<const TableDefinition> table,
                 ImportRecord* record) const;
  // Appends one error to the import's error log (<s3-dir>/.dynapage/logs/aws-dynamodb/imports/<id>/error).
  void LogImportError(const ImportRecord& record, const std::string& key, size_t item_index,
                      const std::string& message) const;

  // Writes the export's files and fills in the record's terminal state.
  void RunExport(const Database& db, const TableDefinition& table, ExportRecord* record) const;
  Status WriteExportFiles(const Database& db, const TableDefinition& table, ExportRecord* record) const;

  std::unique_ptr<LocalObjectStore> store_;
  mutable std::mutex mu_;
  // Each namespace's exports, oldest first. Guarded by mu_.
  std::map<uint32_t, std::vector<ExportRecord>> exports_;
  // ClientToken -> (the export's index in exports_[namespace], the fingerprint of the request's parameters).
  TokenUses export_tokens_;                                // guarded by mu_
  std::map<uint32_t, std::vector<ImportRecord>> imports_;  // guarded by mu_
  TokenUses import_tokens_;                                // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_TRANSFER_JOBS_H_
