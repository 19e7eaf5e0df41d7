// DynamoDB's shared message texts, defined once.
//
// DynamoDB words many errors from a few fixed pieces: the constraint envelope that prefixes a list of
// violated member constraints, the prefix of "invalid parameter" errors, the prefix of a bad ExclusiveStartKey,
// and the text of a missing resource. Every file that builds such a message uses these constants, so that a
// change of DynamoDB's wording is one edit. Which piece an error gets is decided by the code that knows the
// operation, from the error's ErrorDetail (engine/base/status.h), never by reading the message text.

#ifndef DYNAPAGE_ENGINE_BASE_MESSAGES_H_
#define DYNAPAGE_ENGINE_BASE_MESSAGES_H_

#include <cstddef>
#include <string>

#include "engine/base/status.h"

namespace dynapage {

// "1 validation error detected: Value … at '…' failed to satisfy constraint: …" (and "N validation errors").
inline constexpr char kValidationEnvelope[] = "1 validation error detected: ";
// Most semantic ValidationExceptions of the data plane.
inline constexpr char kInvalidParameterPrefix[] = "One or more parameter values were invalid: ";
// An ExclusiveStartKey that does not fit the table, index or key condition.
inline constexpr char kInvalidStartKey[] = "The provided starting key is invalid";
inline constexpr char kInvalidStartKeyPrefix[] = "The provided starting key is invalid: ";
// ResourceNotFoundException of data-plane operations.
inline constexpr char kResourceNotFound[] = "Requested resource not found";

// A number DynamoDB cannot read (followed by ": <the text>" for most texts).
inline constexpr char kNotNumeric[] = "The parameter cannot be converted to a numeric value";

// An item, key or value whose L and M nest deeper than 32 levels (kMaxNestingDepth; docs/behaviour.md §8.7).
inline constexpr char kNestingTooDeep[] =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";

// The most actions a TransactWriteItems or TransactGetItems may hold.
constexpr size_t kMaxTransactionActions = 100;

// The constraint violation of too many transaction actions, without kValidationEnvelope: "Value
// '[com.amazonaws.dynamodb.v20120810.TransactWriteItem@10000001, …]' at 'transactItems' failed to satisfy
// constraint: Member must have length less than or equal to 100". DynamoDB prints the Java objects of the
// request; item_type is "TransactWriteItem" or "TransactGetItem".
std::string TransactItemsLimitMessage(const char* item_type, size_t count);

// True for the AttributeValue shape errors that DynamoDB reports with kInvalidStartKeyPrefix when they are
// found in an ExclusiveStartKey (an empty number set keeps its plain wording there).
inline bool IsStartKeyShapeError(ErrorDetail d) {
  return d == ErrorDetail::kEmptyAttributeValue || d == ErrorDetail::kMultipleTypes ||
         d == ErrorDetail::kNullNotTrue || d == ErrorDetail::kEmptyStringSet || d == ErrorDetail::kEmptyBinarySet;
}

// True for an empty set of any type.
inline bool IsEmptySetError(ErrorDetail d) {
  return d == ErrorDetail::kEmptyStringSet || d == ErrorDetail::kEmptyNumberSet || d == ErrorDetail::kEmptyBinarySet;
}

// status with its message prefixed by prefix, keeping its code and detail (and its cohort envelope mark).
// REQUIRES: !status.ok().
inline Status WithMessagePrefix(const char* prefix, const Status& status) {
  Status prefixed = Status::Error(status.code(), prefix + status.message()).WithDetail(status.detail());
  return status.cohort_envelope() ? std::move(prefixed).WithCohortEnvelope() : prefixed;
}

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_MESSAGES_H_
