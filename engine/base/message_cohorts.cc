#include "engine/base/message_cohorts.h"

#include <iterator>

#include "engine/base/check.h"
#include "engine/base/messages.h"

namespace dynapage {

namespace {

constexpr Dialect L = Dialect::kLegacy;
constexpr Dialect N = Dialect::kNew;

// The groups of dialects.md §1.1: framework, scan, BatchGetItem {}, BatchWriteItem {}.
constexpr MessageCohorts kGroupA{N, L, N, L};
constexpr MessageCohorts kGroupB{N, N, N, L};
constexpr MessageCohorts kGroupC{N, L, N, N};
constexpr MessageCohorts kGroupD{L, L, N, L};
constexpr MessageCohorts kGroupE{L, L, L, L};
// ap-northeast-1 flapped between the framework cohorts mid-rollout; legacy was 8 of its 12 observations.
constexpr MessageCohorts kGroupJ = kGroupD;

struct RegionCohorts {
  std::string_view region;
  const MessageCohorts* cohorts;
};

// The 33 regions captured. A linear scan of 33 short names costs less than the request's other per-request work.
constexpr RegionCohorts kRegions[] = {
    {"us-east-1", &kGroupA},      {"us-west-2", &kGroupA},      {"af-south-1", &kGroupA},
    {"ap-east-1", &kGroupA},      {"ap-east-2", &kGroupA},      {"ap-northeast-3", &kGroupA},
    {"ap-south-1", &kGroupA},     {"ap-southeast-1", &kGroupA}, {"ap-southeast-2", &kGroupA},
    {"ap-southeast-3", &kGroupA}, {"ap-southeast-4", &kGroupA}, {"ap-southeast-5", &kGroupA},
    {"ca-west-1", &kGroupA},      {"eu-west-3", &kGroupA},      {"il-central-1", &kGroupA},
    {"mx-central-1", &kGroupA},   {"sa-east-1", &kGroupA},      {"ap-northeast-2", &kGroupB},
    {"eu-central-1", &kGroupB},   {"eu-west-2", &kGroupB},      {"us-west-1", &kGroupB},
    {"eu-north-1", &kGroupC},     {"ap-south-2", &kGroupD},     {"ap-southeast-6", &kGroupD},
    {"ap-southeast-7", &kGroupD}, {"ca-central-1", &kGroupD},   {"eu-central-2", &kGroupD},
    {"eu-south-1", &kGroupD},     {"eu-south-2", &kGroupD},     {"eu-west-1", &kGroupD},
    {"us-east-2", &kGroupD},      {"me-central-1", &kGroupE},   {"ap-northeast-1", &kGroupJ},
};

struct CohortTextRow {
  CohortTextId id;
  const char* legacy;
  const char* current;  // the new wording
};

// Every message whose wording differs by cohort (dialects.md §1.3, §1.4).
constexpr CohortTextRow kTexts[] = {
    {CohortTextId::kScanSegmentNotLess,
     "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: {} is not less "
     "than TotalSegments: {}",
     "The Segment parameter is zero-based and must be less than parameter TotalSegments"},
    {CohortTextId::kScanLimitBelowOne,
     "Value '{}' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
     "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
    {CohortTextId::kScanSegmentBelowZero,
     "Value '{}' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0",
     "Value at 'Segment' failed to satisfy constraint: Member must have value greater than or equal to 0"},
    {CohortTextId::kScanSpecificAttributes,
     "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES",
     "1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get "
     "SPECIFIC_ATTRIBUTES"},
    {CohortTextId::kScanStartKeyNotSchema,
     "The provided starting key is invalid: The provided key element does not match the schema",
     "The provided starting key is invalid"},
    {CohortTextId::kBatchGetEmpty, "The requestItems parameter is required for BatchGetItem",
     "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length "
     "greater than or equal to 1"},
    {CohortTextId::kBatchWriteEmpty, "The requestItems parameter is required for BatchWriteItem",
     "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length "
     "greater than or equal to 1"},
};

// The split that chooses id's wording.
Dialect DialectOf(const MessageCohorts& cohorts, CohortTextId id) {
  switch (id) {
    case CohortTextId::kBatchGetEmpty:
      return cohorts.batch_get_empty;
    case CohortTextId::kBatchWriteEmpty:
      return cohorts.batch_write_empty;
    default:
      return cohorts.scan;
  }
}

}  // namespace

const MessageCohorts& CohortsOfRegion(std::string_view region) {
  for (const RegionCohorts& row : kRegions) {
    if (row.region == region) return *row.cohorts;
  }
  return kUsEast1Cohorts;
}

bool ParseMessagesPin(std::string_view pin, MessageCohorts* out) {
  if (pin == "legacy") {
    *out = kGroupE;
    return true;
  }
  for (const RegionCohorts& row : kRegions) {
    if (row.region == pin) {
      *out = *row.cohorts;
      return true;
    }
  }
  return false;
}

std::string CohortText(const MessageCohorts& cohorts, CohortTextId id, std::string_view first,
                       std::string_view second) {
  const CohortTextRow* row = nullptr;
  for (const CohortTextRow& candidate : kTexts) {
    if (candidate.id == id) row = &candidate;
  }
  DP_DCHECK(row != nullptr);
  std::string_view pattern = DialectOf(cohorts, id) == Dialect::kNew ? row->current : row->legacy;
  std::string text;
  text.reserve(pattern.size() + first.size() + second.size());
  std::string_view arguments[] = {first, second};
  size_t next_argument = 0;
  for (size_t at = 0; at < pattern.size(); at++) {
    if (pattern.compare(at, 2, "{}") == 0 && next_argument < std::size(arguments)) {
      text.append(arguments[next_argument++]);
      at++;
    } else {
      text.push_back(pattern[at]);
    }
  }
  return text;
}

Status InCohortWording(const MessageCohorts& cohorts, Status status) {
  if (!status.cohort_envelope() || cohorts.framework != Dialect::kNew) return status;
  return Status::Error(status.code(), kValidationEnvelope + status.message()).WithDetail(status.detail());
}

}  // namespace dynapage
