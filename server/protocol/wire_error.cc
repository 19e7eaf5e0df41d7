#include "server/protocol/wire_error.h"

#include <rapidjson/stringbuffer.h>

#include "engine/base/utf8.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

namespace {
const char kCoralValidate[] = "com.amazon.coral.validate#";
const char kCoralService[] = "com.amazon.coral.service#";
const char kDynamoDB[] = "com.amazonaws.dynamodb.v20120810#";

std::string Body(const std::string& type, const char* message_key, const std::string* message,
                 const std::string& extra) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);  // messages quote the request, whose strings may hold control characters
  w.StartObject();
  w.Key("__type");
  w.String(type.c_str(), static_cast<rapidjson::SizeType>(type.size()));
  if (message) {
    w.Key(message_key);
    WriteErrorMessage(*message, &w);
  }
  w.EndObject();
  std::string body(buffer.GetString(), buffer.GetSize());
  if (!extra.empty()) {
    body.pop_back();
    body += ",";
    body += extra;
    body += "}";
  }
  return body;
}
}  // namespace

void WriteErrorMessage(const std::string& message, JsonWriter* w) {
  if (IsValidUtf8(message)) {
    w->String(message);
  } else {
    w->String(ToValidUtf8(message));
  }
}

WireError ToWireError(const Status& status, const std::string& extra) {
  WireError e;
  const std::string& msg = status.message();
  switch (status.code()) {
    case ErrorCode::kValidation:
      e.type = std::string(kCoralValidate) + "ValidationException";
      e.body = Body(e.type, "message", &msg, extra);
      break;
    case ErrorCode::kSerialization:
      e.type = std::string(kCoralService) + "SerializationException";
      e.body = Body(e.type, "Message", msg.empty() ? nullptr : &msg, extra);
      break;
    case ErrorCode::kUnknownOperation:
      e.type = std::string(kCoralService) + "UnknownOperationException";
      e.body = Body(e.type, "message", msg.empty() ? nullptr : &msg, extra);
      break;
    case ErrorCode::kAccessDenied:
      e.type = std::string(kCoralService) + "AccessDeniedException";
      e.body = Body(e.type, "Message", &msg, extra);
      break;
    case ErrorCode::kInternal:
      e.http_status = 500;
      e.type = std::string(kDynamoDB) + "InternalServerError";
      e.body = Body(e.type, "message", &msg, extra);
      break;
    default: {
      const char* name = "InternalServerError";
      switch (status.code()) {
        case ErrorCode::kResourceNotFound: name = "ResourceNotFoundException"; break;
        case ErrorCode::kResourceInUse: name = "ResourceInUseException"; break;
        case ErrorCode::kConditionalCheckFailed: name = "ConditionalCheckFailedException"; break;
        case ErrorCode::kTransactionCanceled: name = "TransactionCanceledException"; break;
        case ErrorCode::kTransactionConflict: name = "TransactionConflictException"; break;
        case ErrorCode::kIdempotentParameterMismatch: name = "IdempotentParameterMismatchException"; break;
        case ErrorCode::kLimitExceeded: name = "LimitExceededException"; break;
        case ErrorCode::kTableNotFound: name = "TableNotFoundException"; break;
        case ErrorCode::kDuplicateItem: name = "DuplicateItemException"; break;
        case ErrorCode::kPolicyNotFound: name = "PolicyNotFoundException"; break;
        case ErrorCode::kExpiredIterator: name = "ExpiredIteratorException"; break;
        case ErrorCode::kTrimmedDataAccess: name = "TrimmedDataAccessException"; break;
        case ErrorCode::kGlobalTableAlreadyExists: name = "GlobalTableAlreadyExistsException"; break;
        case ErrorCode::kGlobalTableNotFound: name = "GlobalTableNotFoundException"; break;
        case ErrorCode::kReplicaAlreadyExists: name = "ReplicaAlreadyExistsException"; break;
        case ErrorCode::kReplicaNotFound: name = "ReplicaNotFoundException"; break;
        case ErrorCode::kIndexNotFound: name = "IndexNotFoundException"; break;
        case ErrorCode::kTableAlreadyExists: name = "TableAlreadyExistsException"; break;
        case ErrorCode::kTableInUse: name = "TableInUseException"; break;
        case ErrorCode::kBackupNotFound: name = "BackupNotFoundException"; break;
        case ErrorCode::kBackupInUse: name = "BackupInUseException"; break;
        case ErrorCode::kPointInTimeRecoveryUnavailable: name = "PointInTimeRecoveryUnavailableException"; break;
        case ErrorCode::kInvalidRestoreTime: name = "InvalidRestoreTimeException"; break;
        case ErrorCode::kInvalidExportTime: name = "InvalidExportTimeException"; break;
        case ErrorCode::kExportConflict: name = "ExportConflictException"; break;
        case ErrorCode::kExportNotFound: name = "ExportNotFoundException"; break;
        case ErrorCode::kImportConflict: name = "ImportConflictException"; break;
        case ErrorCode::kImportNotFound: name = "ImportNotFoundException"; break;
        default: break;
      }
      e.type = std::string(kDynamoDB) + name;
      e.body = Body(e.type, "message", &msg, extra);
    }
  }
  return e;
}

WireError ServiceError(const std::string& name, const std::string& message) {
  WireError e;
  e.type = std::string(kCoralService) + name;
  e.body = Body(e.type, "message", &message, "");
  return e;
}

}  // namespace dynapage
