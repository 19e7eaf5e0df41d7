// Seeding: the tables and items of a SeedPlan (server/seed/seed_plan.h) made before the server answers, all or
// nothing (docs/seeding.md).
//
// First every table definition goes through CreateTable itself (HandleCreateTable, the same checks and messages as
// a request) in a scratch, in-memory set of namespaces of the same mode, so that nothing real is made yet; then
// every item is checked against its table as a PutItem's would be (key attributes present with the declared
// types, index key types, at most 400 KB). Only when the whole plan is free of errors are the tables created for
// real and their items written, in batches through the one write path (indexes, streams follow as for any
// write). A table that already exists in its namespace (a restart with --db-path) is left as it is, items and
// all, with one line on the log: the seed is what a new data folder starts with.

#ifndef DYNAPAGE_SERVER_SEED_SEEDER_H_
#define DYNAPAGE_SERVER_SEED_SEEDER_H_

#include <cstdio>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database_set.h"
#include "server/seed/seed_plan.h"

namespace dynapage {

// Checks plan whole, adding what is wrong to plan->errors, and if nothing is, creates its tables in databases
// and writes their items, in context (whose caller is replaced by each table's). Progress goes to log (null:
// none): a line about every second while items are written, and a final summary. Returns OK, or an error
// (plan->errors then says what) with nothing created. REQUIRES: context's clock outlives the call.
Status SeedDatabases(SeedPlan* plan, DatabaseSet* databases, const RequestContext& context, std::FILE* log);

// --seed: reads every path (ReadSeedPath, tables without a namespace of their own going to context's caller's),
// then SeedDatabases. When reading and checking take a second or more, a line on log says how long. *errors:
// what plan->errors said, when the seed is refused.
Status SeedPaths(const std::vector<std::string>& paths, DatabaseSet* databases, const RequestContext& context,
                 std::FILE* log, std::vector<std::string>* errors);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_SEED_SEEDER_H_
