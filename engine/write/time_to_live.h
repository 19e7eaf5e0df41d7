// Time to live: a table's TTL setting (DescribeTimeToLive, UpdateTimeToLive), kept in its TableDefinition.
//
// dynapage records and shows the setting; it does not expire items. A change is immediate (ENABLED or DISABLED,
// never ENABLING/DISABLING), as in DynamoDB Local. Refusals: "TimeToLive is already enabled" (enabling while
// enabled, whatever the attribute) and "TimeToLive is already disabled". A missing table is "Requested resource
// not found: Table: <name> not found".

#ifndef DYNAPAGE_ENGINE_WRITE_TIME_TO_LIVE_H_
#define DYNAPAGE_ENGINE_WRITE_TIME_TO_LIVE_H_

#include <string>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/write/write_path.h"

namespace dynapage {

// *attribute is the TTL attribute, or empty when TTL is disabled.
Status DescribeTimeToLive(const Catalog& catalog, const std::string& table_name, std::string* attribute);

// REQUIRES: attribute is not empty (the server checks the constraint).
Status UpdateTimeToLive(WritePath& write_path, const RequestContext& ctx, const std::string& table_name, bool enabled,
                        const std::string& attribute);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_TIME_TO_LIVE_H_
