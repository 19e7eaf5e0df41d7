// MessageCohorts: which of DynamoDB's regional validation dialects a request is answered in, and the one table of
// the messages that differ between them (docs/behaviour.md "Regions and message cohorts").
//
// AWS rolls new validation wording out region by region, along three independent splits (captured September 2026):
//   framework  current: "1 validation error detected: " before DynamoDB's own (bespoke) messages, the nesting limit
//              checked on ExpressionAttributeValues, UpdateItem sized by its statement; legacy: none of these;
//   scan       new or legacy wording of five Scan parameter messages;
//   empty RequestItems of BatchGetItem and of BatchWriteItem, each new or legacy.
// The server resolves a request's cohorts once, from the region of its SigV4 credential scope (or a --messages pin),
// into RequestContext::cohorts; the engine picks every cohort-dependent text from CohortText() below, never by
// matching message text. Regions outside the table answer as us-east-1.

#ifndef DYNAPAGE_ENGINE_BASE_MESSAGE_COHORTS_H_
#define DYNAPAGE_ENGINE_BASE_MESSAGE_COHORTS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/status.h"

namespace dynapage {

// One split's side. kNew is what AWS is rolling out.
enum class Dialect : uint8_t { kLegacy, kNew };

struct MessageCohorts {
  Dialect framework = Dialect::kNew;
  Dialect scan = Dialect::kLegacy;
  Dialect batch_get_empty = Dialect::kNew;
  Dialect batch_write_empty = Dialect::kLegacy;
};

// The cohorts of us-east-1 (group A), the default.
inline constexpr MessageCohorts kUsEast1Cohorts{};

// The cohorts of a region; us-east-1's for a region that is not one of the 33 captured.
const MessageCohorts& CohortsOfRegion(std::string_view region);

// A --messages pin: a captured region's name, or "legacy" (every split legacy, as me-central-1). False (and *out
// untouched) for anything else.
bool ParseMessagesPin(std::string_view pin, MessageCohorts* out);

// The messages whose wording differs by cohort. Each "{}" in a row's text is replaced by the next argument.
enum class CohortTextId : uint8_t {
  kScanSegmentNotLess,      // arguments: the Segment, the TotalSegments
  kScanLimitBelowOne,       // argument: the Limit
  kScanSegmentBelowZero,    // argument: the Segment
  kScanSpecificAttributes,  // no argument
  kScanStartKeyNotSchema,   // no argument
  kBatchGetEmpty,           // no argument
  kBatchWriteEmpty,         // no argument
};

// The text of id in cohorts, the arguments in place of its "{}"s.
std::string CohortText(const MessageCohorts& cohorts, CohortTextId id, std::string_view first = {},
                       std::string_view second = {});

// status as the request's cohort words it: a status marked WithCohortEnvelope() gets "1 validation error detected: "
// in the current framework; any other status is returned as it is.
Status InCohortWording(const MessageCohorts& cohorts, Status status);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_MESSAGE_COHORTS_H_
