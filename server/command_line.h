// CommandLine: dynapage's command line, with DynamoDB Local's flags understood as DynamoDB Local means them.
//
// Two families of flags are accepted side by side (docs/dynamodb-local.md):
//   - dynapage's own, GNU style: --port N, --db-path DIR, --namespace MODE, ... (also --flag=value);
//   - DynamoDB Local's, single dash: -port N, -inMemory, -sharedDb, -dbPath DIR, -cors LIST,
//     -delayTransientStatuses, -optimizeDbBeforeStartup, -disableTelemetry, -help, -version; and the java
//     arguments of a command written for DynamoDB Local's image (-jar FILE, -D..., -X...), which are ignored.
// Any of DynamoDB Local's flags selects DynamoDB Local's defaults: data in files (in the working directory
// unless -dbPath or -inMemory says otherwise), one database per access key and region unless -sharedDb.
//
// Each flag is one row of the table in command_line.cc; a new flag is a new row.

#ifndef DYNAPAGE_SERVER_COMMAND_LINE_H_
#define DYNAPAGE_SERVER_COMMAND_LINE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/database/database.h"
#include "engine/database/database_set.h"
#include "server/admin/browser_guard.h"
#include "server/admin/test_bench.h"
#include "server/http/http_server.h"
#include "server/protocol/dispatcher.h"

namespace dynapage {

struct CommandLine {
  std::string host;  // empty: both loopback addresses, 127.0.0.1 and ::1
  int port = 8000;
  // Where the data is: empty for in memory; else the folder of the one store of every namespace (DatabaseSet).
  DatabaseOptions database;
  NamespaceMode namespace_mode = NamespaceMode::kAccessKeyRegion;
  ServiceOptions service;
  // Connections, CORS origins (-cors / --cors), the client CPU affinity: how the HTTP layer serves.
  HttpOptions http;
  // What keeps web pages out (--allow-host, --admin-cors): the service's browser guard.
  BrowserGuardOptions guard;
  // --ttl-interval: the TTL sweeper's period (0: only on POST /_dynapage/ttl/sweep).
  int64_t ttl_interval_seconds = 5;
  // The test bench: page chaos, fault rules, the pagination audit, the request log, metrics (all off by default).
  TestBenchOptions bench;
  bool fail_on_abandoned = false;  // --fail-on-abandoned: exit with status 3 when a continuation was abandoned
  // DynamoDB Local's flags that were given, for the start-up line.
  bool dynamodb_local_flags = false;
  // --seed PATH (repeatable): seed files and export folders loaded before the server answers (docs/seeding.md).
  std::vector<std::string> seeds;
  // --health-check: probe the server at --host/--port (server/health_check.h) and exit, instead of serving.
  bool health_check = false;
};

// What to do after parsing: run the server, or exit with exit_code after printing output (stdout) and error
// (stderr).
struct CommandLineOutcome {
  bool run = true;
  int exit_code = 0;
  std::string output;
  std::string error;
};

// Parses args (without the program name) into *out.
CommandLineOutcome ParseCommandLine(const std::vector<std::string>& args, CommandLine* out);

// The text of --help.
const char* CommandLineUsage();

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_COMMAND_LINE_H_
