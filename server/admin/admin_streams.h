// The admin calls of streams and TTL, for tests (not AWS APIs; under the reserved path /_dynapage/):
//
//   POST /_dynapage/ttl/sweep   body {} or {"TableName": "t"}: deletes the expired TTL items now (of every TTL table,
//                               or of t) and trims stream records past their retention; answers {"ExpiredItems": n}.
//   POST /_dynapage/clock       body {"set_epoch_ms": n}, {"advance_ms": n}, {"reset": true} or {}: sets, advances or
//                               resets the server's clock (ServiceOptions::settable_clock; the clock runs on from
//                               there); answers {"epoch_ms": <now>}.
//
// A malformed body is HTTP 400 with a ValidationException (DynamoDB's error form, unlike the other admin routes').
// docs/streams-and-ttl.md describes both.

#ifndef DYNAPAGE_SERVER_ADMIN_ADMIN_STREAMS_H_
#define DYNAPAGE_SERVER_ADMIN_ADMIN_STREAMS_H_

#include "server/admin/admin_api.h"
#include "engine/database/database_set.h"
#include "server/protocol/dispatcher.h"

namespace dynapage {

// Adds both routes to api. Each request runs in the RequestContext the dispatcher would give it (its caller from
// its Authorization header; the clock is options.settable_clock, else options.clock). The TTL sweep covers every
// database of databases open now. REQUIRES: databases and the clocks outlive api.
void AddStreamsAdminRoutes(AdminApi* api, DatabaseSet* databases, const ServiceOptions& options);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_ADMIN_STREAMS_H_
