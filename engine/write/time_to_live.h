// Time to live: a table's TTL setting (DescribeTimeToLive, UpdateTimeToLive), kept in its TableDefinition, and the
// deletion of expired items (docs/streams-and-ttl.md).
//
// A change is immediate (ENABLED or DISABLED, never ENABLING/DISABLING), as in DynamoDB Local. Refusals, in
// DynamoDB's order: "TimeToLive is already enabled" (the same attribute), "TimeToLive is active on a different
// AttributeName: current AttributeName is <a>" (enabling or disabling another attribute), "TimeToLive is already
// disabled". A missing table is "Requested resource not found: Table: <name> not found". With a cooldown in the
// context (opt-in, as AWS's hour between changes), a valid change within it of the last one is refused with
// "Time to live has been modified multiple times within a fixed interval", after the content checks.
//
// An item has expired when its top-level TTL attribute is a Number of epoch seconds before now and not more than
// five years before now (other types, and a missing attribute, never expire). Expired items stay readable until
// ExpireItems deletes them: each deletion re-checks the item under the writer lock (an item updated meanwhile to
// a later time stays), takes its index entries with it, writes a REMOVE stream record whose user is DynamoDB's
// service, and is charged no capacity.

#ifndef DYNAPAGE_ENGINE_WRITE_TIME_TO_LIVE_H_
#define DYNAPAGE_ENGINE_WRITE_TIME_TO_LIVE_H_

#include <cstdint>
#include <string>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/write/write_path.h"

namespace dynapage {

// *attribute is the TTL attribute, or empty when TTL is disabled.
Status DescribeTimeToLive(const Catalog& catalog, const std::string& table_name, std::string* attribute);

// REQUIRES: attribute is not empty (the server checks the constraint).
Status UpdateTimeToLive(WritePath& write_path, const RequestContext& ctx, const std::string& table_name, bool enabled,
                        const std::string& attribute);

// True if item has expired at now_ms by its attribute ttl_attribute (the rule above).
bool HasExpired(const AttributeMap& item, const std::string& ttl_attribute, int64_t now_ms);

// Deletes the expired items of every table with TTL enabled (or only of table_name, when not empty), in key
// order, by the context's clock; *deleted is how many. A table deleted meanwhile is skipped.
Status ExpireItems(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                   uint64_t* deleted);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_TIME_TO_LIVE_H_
