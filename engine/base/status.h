// Status: the outcome of an engine call, carried across module borders as a value.
//
// A non-OK Status names one of DynamoDB's error kinds and carries its exact message text. The engine never
// throws through its API; the server turns a Status into the wire error (__type, HTTP status, message key).
//
// Some errors are worded differently by different operations (an empty set is "1 validation error detected: …"
// in PutItem, an empty AttributeValue in an ExclusiveStartKey gets "The provided starting key is invalid: …").
// The Status that a shared check returns carries a typed ErrorDetail naming what was wrong, and the operation
// chooses its wording from that detail (engine/base/messages.h), never from the message text.

#ifndef DYNAPAGE_ENGINE_BASE_STATUS_H_
#define DYNAPAGE_ENGINE_BASE_STATUS_H_

#include <string>
#include <utility>

namespace dynapage {

enum class ErrorCode {
  kOk = 0,
  kValidation,                  // ValidationException
  kSerialization,               // SerializationException (message may be empty: "no message")
  kResourceNotFound,            // ResourceNotFoundException
  kResourceInUse,               // ResourceInUseException
  kConditionalCheckFailed,      // ConditionalCheckFailedException
  kTransactionCanceled,         // TransactionCanceledException
  kTransactionConflict,         // TransactionConflictException
  kIdempotentParameterMismatch, // IdempotentParameterMismatchException
  kLimitExceeded,               // LimitExceededException
  kUnknownOperation,            // UnknownOperationException
  kExpiredIterator,             // ExpiredIteratorException (DynamoDB Streams)
  kTrimmedDataAccess,           // TrimmedDataAccessException (DynamoDB Streams)
  kInternal,                    // InternalServerError (HTTP 500)
  kTableNotFound,               // TableNotFoundException (the backup operations' "no such table")
  kDuplicateItem,               // DuplicateItemException (PartiQL INSERT of an existing key)
  kAccessDenied,                // AccessDeniedException (a ResourceArn that is no ARN at all)
  kPolicyNotFound,              // PolicyNotFoundException (resource-based policies)
  // Global tables (docs/global-tables.md).
  kGlobalTableAlreadyExists,    // GlobalTableAlreadyExistsException
  kGlobalTableNotFound,         // GlobalTableNotFoundException
  kReplicaAlreadyExists,        // ReplicaAlreadyExistsException
  kReplicaNotFound,             // ReplicaNotFoundException
  kIndexNotFound,               // IndexNotFoundException
  // Backups and point-in-time recovery (docs/backups.md).
  kTableAlreadyExists,          // TableAlreadyExistsException
  kTableInUse,                  // TableInUseException
  kBackupNotFound,              // BackupNotFoundException
  kBackupInUse,                 // BackupInUseException
  kPointInTimeRecoveryUnavailable,  // PointInTimeRecoveryUnavailableException
  kInvalidRestoreTime,          // InvalidRestoreTimeException
  // Export and import (docs/export-import.md).
  kInvalidExportTime,               // InvalidExportTimeException
  kExportConflict,                  // ExportConflictException
  kExportNotFound,                  // ExportNotFoundException
  kImportConflict,                  // ImportConflictException
  kImportNotFound,                  // ImportNotFoundException
};

// What a shared check found, where an operation words that error its own way. kNone for everything else.
enum class ErrorDetail {
  kNone = 0,
  kEmptyAttributeValue,        // an AttributeValue with no type set
  kMultipleTypes,              // an AttributeValue with more than one type set
  kNullNotTrue,                // {"NULL": false}
  kEmptyStringSet,             // {"SS": []}
  kEmptyNumberSet,             // {"NS": []}
  kEmptyBinarySet,             // {"BS": []}
  kEmptyKeyValue,              // an empty string or binary as a table key value
  kEmptyIndexKeyValue,         // an empty string or binary as a secondary index key value
  kBaseScanStartKeyNotSchema,  // a Scan's ExclusiveStartKey that does not fit the table's key (worded by cohort)
  kSpecificAttributesWithoutProjection,  // Select SPECIFIC_ATTRIBUTES with nothing to project (Scan: by cohort)
};

class Status {
 public:
  Status() = default;  // OK

  static Status OK() { return Status(); }
  static Status Validation(std::string msg) { return Status(ErrorCode::kValidation, std::move(msg)); }
  static Status Serialization(std::string msg) { return Status(ErrorCode::kSerialization, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(ErrorCode::kResourceNotFound, std::move(msg)); }
  static Status InUse(std::string msg) { return Status(ErrorCode::kResourceInUse, std::move(msg)); }
  static Status ConditionFailed(std::string msg = "The conditional request failed") {
    return Status(ErrorCode::kConditionalCheckFailed, std::move(msg));
  }
  static Status Internal(std::string msg) { return Status(ErrorCode::kInternal, std::move(msg)); }
  static Status Error(ErrorCode code, std::string msg) { return Status(code, std::move(msg)); }

  // This status with detail attached. REQUIRES: !ok().
  Status WithDetail(ErrorDetail detail) && {
    detail_ = detail;
    return std::move(*this);
  }

  // This status marked as one of DynamoDB's own (bespoke) messages, which the current validation framework prefixes
  // with "1 validation error detected: " and the legacy one does not: the server words it for the request's cohort
  // (InCohortWording, engine/base/message_cohorts.h). REQUIRES: !ok().
  Status WithCohortEnvelope() && {
    cohort_envelope_ = true;
    return std::move(*this);
  }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  ErrorDetail detail() const { return detail_; }
  bool cohort_envelope() const { return cohort_envelope_; }

 private:
  Status(ErrorCode code, std::string msg) : code_(code), message_(std::move(msg)) {}

  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  ErrorDetail detail_ = ErrorDetail::kNone;
  bool cohort_envelope_ = false;
};

// Evaluates an expression yielding a Status and returns it from the enclosing function if it is not OK.
#define DP_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::dynapage::Status _dp_status = (expr);  \
    if (!_dp_status.ok()) return _dp_status; \
  } while (0)

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_STATUS_H_
