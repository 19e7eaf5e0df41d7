// BulkOperations: StartBulkPutItems, DescribeBulkOperation, ListBulkOperations and CancelBulkOperation over the
// local S3 folder (--s3-dir; docs/export-import.md). One per server, shared by every namespace; each operation
// belongs to the namespace that started it, and a namespace sees only its own. Records live in memory, for the
// life of the process.
//
// StartBulkPutItems is checked synchronously, in this order: the KMS key only with KMS; the table (by name or ARN,
// in the caller's namespace; else ResourceNotFoundException); the table ACTIVE with no index being created (else
// ResourceInUseException); not a replica of a global table (ValidationException); the ClientToken (the same
// request again: the same operation; other members: IdempotentParameterMismatchException); --s3-dir given (else
// kNoS3DirMessage). It is then recorded IN_PROGRESS and queued; one worker thread, started on the first
// operation and joined by the destructor, runs the operations one after another: it reads every object under the
// input prefix, one record per line ({"Item":{…}} with an optional ConditionExpression, ExpressionAttributeNames
// and ExpressionAttributeValues), and puts the items through the write path (engine/write/item_operations.h's
// PreparePutItem, so the condition is PutItem's) in batches. Counters are published after every batch, so
// DescribeBulkOperation shows progress. A record that does not parse or is refused counts in FailedItemCount
// (COMPLETED_WITH_ERRORS); a false condition is a condition-check failure, not an error (COMPLETED). Cancel marks
// the operation CANCELLING; the worker stops at its next batch boundary (CANCELLED), and what it wrote stays.
// The reports (errors/ and condition-check-failures/, JSON Lines, and manifest.json) go under the output bucket's
// prefix at <prefix>/AWSDynamoDB/BulkOperations/<id>/.
//
// Under a transient-status delay (--transient-status-delay) the worker pauses that long after each batch but the
// last, so that tests can see an operation IN_PROGRESS and cancel it between batches.
//
// Thread-safe. REQUIRES: every Database passed to StartBulkPut outlives this object.

#ifndef DYNAPAGE_ENGINE_TRANSFER_BULK_OPERATIONS_H_
#define DYNAPAGE_ENGINE_TRANSFER_BULK_OPERATIONS_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/transfer/bulk_operation_record.h"
#include "engine/transfer/local_object_store.h"
#include "engine/transfer/transfer_ids.h"

namespace dynapage {

// Items are put in batches of this many records (a cancel takes effect between two).
constexpr size_t kBulkPutBatchRecords = 500;

class BulkOperations {
 public:
  // s3_dir: the folder of the local buckets; empty refuses every bulk operation (kNoS3DirMessage).
  explicit BulkOperations(std::string s3_dir);
  // Stops the worker at its next batch boundary and joins it.
  ~BulkOperations();
  BulkOperations(const BulkOperations&) = delete;
  BulkOperations& operator=(const BulkOperations&) = delete;

  bool has_s3_dir() const { return store_ != nullptr; }

  // StartBulkPutItems in db's namespace. *started is the record as the start response shows it (IN_PROGRESS, or
  // the earlier operation of the same ClientToken as it is now).
  Status StartBulkPut(Database& db, const RequestContext& ctx, const BulkPutRequest& request,
                      BulkOperationRecord* started);
  // DescribeBulkOperation: ResourceNotFoundException for an ARN that names no operation of db's namespace.
  Status Describe(const Database& db, const std::string& arn, BulkOperationRecord* out) const;
  // ListBulkOperations: newest first, max_results a page, from next_token (empty: the first page); *next_token_out
  // is empty after the last page.
  Status List(const Database& db, int64_t max_results, const std::string& next_token,
              std::vector<BulkOperationRecord>* out, std::string* next_token_out) const;
  // CancelBulkOperation: an operation IN_PROGRESS becomes CANCELLING (*status_out). One already CANCELLING stays
  // so; a finished one: ValidationException.
  Status Cancel(const Database& db, const std::string& arn, std::string* status_out);

 private:
  struct Job {
    Database* db;
    RequestContext ctx;  // the starting request's, without its request id, counters and policies
    uint32_t ns;
    size_t index;  // in records_[ns]
  };
  class Run;  // one operation's work (bulk_operations.cc)

  void WorkerLoop();
  // Publishes a running operation's counters into its stored record; false when the run is to stop: cancelled
  // (*cancelled) or the object being destroyed.
  bool Publish(const Job& job, const BulkOperationRecord& progress, bool* cancelled);
  // Stores the run's terminal record (CANCELLED if it was cancelled meanwhile).
  void Finish(const Job& job, BulkOperationRecord* finished);
  // Waits ms, or until the object is being destroyed; false then.
  bool Pause(uint64_t ms);

  std::unique_ptr<LocalObjectStore> store_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;                                         // guarded by mu_
  std::deque<Job> queue_;                                         // guarded by mu_
  std::map<uint32_t, std::vector<BulkOperationRecord>> records_;  // each namespace's, oldest first; mu_
  TokenUses tokens_;                                              // guarded by mu_
  std::thread worker_;                                            // started with the first operation
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_BULK_OPERATIONS_H_
