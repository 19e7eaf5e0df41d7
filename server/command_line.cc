#include "server/command_line.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "server/operations/operation_table.h"

namespace dynapage {

namespace {

const char kUsage[] =
    "Usage: dynapage [options]\n"
    "\n"
    "A local DynamoDB-compatible server (DynamoDB JSON protocol over HTTP).\n"
    "\n"
    "Options:\n"
    "  --port N             port to listen on (default 8000; 0 picks a free port)\n"
    "  --host ADDR          address to bind (default: 127.0.0.1 and ::1, both loopbacks; use 0.0.0.0 or ::\n"
    "                       to accept remote clients)\n"
    "  --db-path DIR        keep data in DIR across restarts (default: in memory)\n"
    "  --s3-dir DIR         S3 buckets of export and import as folders: bucket b is DIR/b (default: none,\n"
    "                       export and import refused)\n"
    "  --seed PATH          before answering, create the tables and load the items of PATH: a seed JSON\n"
    "                       file or an export folder (repeatable; all or nothing; docs/seeding.md)\n"
    "  --namespace MODE     which requests share tables: access-key-region (default: one database per access\n"
    "                       key and region, as DynamoDB Local), region, or shared (one for everybody)\n"
    "  --max-page-bytes N   Query/Scan page size limit in bytes (default 1048576, DynamoDB's 1 MB);\n"
    "                       lower it to exercise pagination with little test data\n"
    "  --messages PIN       answer every request in one region's error wording (a region name, e.g.\n"
    "                       us-east-1 or eu-west-1), or 'legacy' (every split legacy); default: each request\n"
    "                       in its own SigV4 region's wording, us-east-1's for unknown or unsigned regions\n"
    "  --transient-status-delay MS\n"
    "                       new tables and indexes stay CREATING, deleted tables DELETING, for MS ms\n"
    "  --max-connections N  answer 503 and close connections beyond N open ones (default: the open-file\n"
    "                       limit, raised to its maximum at start-up, less 1024 kept for the database)\n"
    "  --cors LIST          origins browsers may call from, comma-separated (default *: any); 'none': no CORS\n"
    "  --admin-cors LIST    origins whose pages may call the admin API (/_dynapage/..., /metrics),\n"
    "                       comma-separated (default none; see docs/robustness.md, Security model)\n"
    "  --allow-host NAME    bound to loopback, also answer requests whose Host is NAME (repeatable; by\n"
    "                       default only localhost, *.localhost, 127.x.x.x and [::1]: DNS rebinding)\n"
    "  --ttl-interval S     delete expired TTL items (and trim old stream records) every S seconds\n"
    "                       (default 5; 0: only on POST /_dynapage/ttl/sweep)\n"
    "  --ttl-update-cooldown S\n"
    "                       refuse UpdateTimeToLive within S seconds of a table's last change, as AWS\n"
    "                       does for about an hour (default 0: no cooldown)\n"
    "  --pitr-latest-lag-seconds S\n"
    "                       LatestRestorableDateTime is S seconds behind now (default 300, as AWS)\n"
    "  --page-chaos SEED    cut Query/Scan pages and batches at random legal points (seeded), to catch\n"
    "                       client loops that drop pages or unprocessed items\n"
    "  --faults FILE        inject errors, latency, unprocessed items, dropped connections by rule\n"
    "                       (a JSON list; see docs/testing-pagination.md)\n"
    "  --audit-pagination   remember continuations handed out; list the abandoned ones at shutdown\n"
    "                       and at GET /_dynapage/pagination\n"
    "  --fail-on-abandoned  with --audit-pagination: exit with status 3 if any was abandoned\n"
    "  --request-log FILE   one JSON line per request to FILE (- for stdout); GET /_dynapage/requests\n"
    "  --log-format FORMAT  the request log's lines: json (default) or text (one line a person reads)\n"
    "  --metrics            count requests for GET /metrics (Prometheus text)\n"
    "  --no-client-cpu-affinity\n"
    "                       let the scheduler place connection threads, instead of running each on the\n"
    "                       CPU its client sends from where each connection measures that it costs less\n"
    "  --health-check       instead of serving, ask the server at --host/--port for GET / and exit 0 if it\n"
    "                       answers 200, 1 if not (the image's HEALTHCHECK: it has no shell or curl)\n"
    "  --help               show this help\n"
    "  --version            show the version\n"
    "\n"
    "DynamoDB Local's flags, with its meaning (docs/dynamodb-local.md); any of them selects its defaults:\n"
    "data in the working directory, one database per access key and region.\n"
    "  -port N  -inMemory  -sharedDb  -dbPath DIR  -cors LIST  -delayTransientStatuses\n"
    "  -optimizeDbBeforeStartup  -disableTelemetry  -help  -version\n"
    "  (-jar FILE, -D... and -X... from a java command line are accepted and ignored)\n";

// The delay -delayTransientStatuses sets when --transient-status-delay does not.
constexpr uint64_t kDefaultTransientStatusMs = 1000;

struct ParseState {
  CommandLine* out;
  bool in_memory = false;
  bool db_path_given = false;
  bool shared_db = false;
  bool namespace_given = false;
  bool optimize = false;
  bool transient_given = false;
  bool delay_transient = false;
  const char* print = nullptr;  // -help / -version: print this and exit
};

bool ParseNumber(const std::string& text, long long min, long long max, long long* out) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno || !end || *end || end == text.c_str() || v < min || v > max) return false;
  *out = v;
  return true;
}

// A flag's effect: returns an error message, or "" when value is acceptable.
using Apply = std::string (*)(const std::string& value, ParseState* state);

struct Flag {
  const char* name;
  bool takes_value;
  bool dynamodb_local;  // one of DynamoDB Local's flags
  Apply apply;
};

std::string SetPort(const std::string& value, ParseState* state) {
  long long port = 0;
  if (!ParseNumber(value, 0, 65535, &port)) return "needs a number from 0 to 65535";
  state->out->port = static_cast<int>(port);
  return "";
}

std::string SetDbPath(const std::string& value, ParseState* state) {
  if (value.empty()) return "needs a directory";
  state->out->database.path = value;
  state->db_path_given = true;
  return "";
}

// "a,b, c" -> {"a", "b", "c"}; "none" -> {}.
std::vector<std::string> SplitOrigins(const std::string& list) {
  std::vector<std::string> origins;
  if (list == "none") return origins;
  size_t begin = 0;
  while (begin <= list.size()) {
    size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    std::string origin = list.substr(begin, end - begin);
    origin.erase(0, origin.find_first_not_of(' '));
    origin.erase(origin.find_last_not_of(' ') + 1);
    if (!origin.empty()) origins.push_back(origin);
    begin = end + 1;
  }
  return origins;
}

std::string SetCors(const std::string& value, ParseState* state) {
  if (value.empty()) return "needs a list of origins, '*' or 'none'";
  state->out->http.cors_origins = SplitOrigins(value);
  return "";
}

std::string PrintUsage(const std::string&, ParseState* state) {
  state->print = kUsage;
  return "";
}

std::string PrintVersion(const std::string&, ParseState* state) {
  state->print = "dynapage " DYNAPAGE_VERSION "\n";
  return "";
}

std::string Ignore(const std::string&, ParseState*) { return ""; }

const Flag kFlags[] = {
    // dynapage's own.
    {"--port", true, false, SetPort},
    {"--host", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value.empty()) return "needs an address";
       state->out->host = value;
       return "";
     }},
    {"--db-path", true, false, SetDbPath},
    {"--s3-dir", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value.empty()) return "needs a directory";
       state->out->service.s3_dir = value;
       return "";
     }},
    {"--seed", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value.empty()) return "needs a seed file or an export folder";
       state->out->seeds.push_back(value);
       return "";
     }},
    {"--namespace", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (!ParseNamespaceMode(value, &state->out->namespace_mode)) {
         return "needs one of access-key-region, region, shared";
       }
       state->namespace_given = true;
       return "";
     }},
    {"--max-page-bytes", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       long long bytes = 0;
       if (!ParseNumber(value, 1, 1LL << 40, &bytes)) return "needs a positive number of bytes";
       state->out->service.max_page_bytes = static_cast<uint64_t>(bytes);
       return "";
     }},
    {"--messages", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       MessageCohorts pinned;
       if (!ParseMessagesPin(value, &pinned)) return "needs a region of docs/behaviour.md's cohort table, or legacy";
       state->out->service.messages_pin = pinned;
       return "";
     }},
    {"--transient-status-delay", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       long long ms = 0;
       if (!ParseNumber(value, 0, 3600 * 1000, &ms)) return "needs a number of milliseconds up to 3600000";
       state->out->service.transient_status_ms = static_cast<uint64_t>(ms);
       state->transient_given = true;
       return "";
     }},
    {"--max-connections", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       long long count = 0;
       if (!ParseNumber(value, 1, 1LL << 30, &count)) return "needs a positive number";
       state->out->http.max_connections = static_cast<size_t>(count);
       return "";
     }},
    {"--cors", true, false, SetCors},
    {"--admin-cors", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value.empty()) return "needs a list of origins, '*' or 'none'";
       state->out->guard.admin_cors_origins = SplitOrigins(value);
       return "";
     }},
    {"--allow-host", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value.empty() || value.find_first_of(":/ ,") != std::string::npos)
         return "needs a host name, without a port";
       state->out->guard.allowed_hosts.push_back(value);
       return "";
     }},
    {"--page-chaos", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       long long seed = 0;
       if (!ParseNumber(value, 0, LLONG_MAX, &seed)) return "needs a seed, a whole number >= 0";
       state->out->bench.page_chaos_seed = static_cast<uint64_t>(seed);
       return "";
     }},
    {"--faults", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value.empty()) return "needs a file of fault rules";
       std::ifstream file(value);
       std::stringstream text;
       if (!file || !(text << file.rdbuf())) return "cannot read " + value;
       std::string error = ParseFaultRules(text.str(), ServedOperationNames(), &state->out->bench.faults);
       return error.empty() ? "" : value + ": " + error;
     }},
    {"--audit-pagination", false, false,
     [](const std::string&, ParseState* state) -> std::string {
       state->out->bench.audit_pagination = true;
       return "";
     }},
    {"--fail-on-abandoned", false, false,
     [](const std::string&, ParseState* state) -> std::string {
       state->out->fail_on_abandoned = true;
       return "";
     }},
    {"--request-log", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value.empty()) return "needs a file, or - for stdout";
       state->out->bench.request_log = value;
       return "";
     }},
    {"--log-format", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       if (value != "json" && value != "text") return "needs json or text";
       state->out->bench.log_text = value == "text";
       return "";
     }},
    {"--metrics", false, false,
     [](const std::string&, ParseState* state) -> std::string {
       state->out->bench.metrics = true;
       return "";
     }},
    {"--ttl-interval", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       long long seconds = 0;
       if (!ParseNumber(value, 0, 86400, &seconds)) return "needs a number of seconds from 0 to 86400";
       state->out->ttl_interval_seconds = seconds;
       return "";
     }},
    {"--ttl-update-cooldown", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       long long seconds = 0;
       if (!ParseNumber(value, 0, 86400, &seconds)) return "needs a number of seconds from 0 to 86400";
       state->out->service.ttl_update_cooldown_ms = seconds * 1000;
       return "";
     }},
    {"--pitr-latest-lag-seconds", true, false,
     [](const std::string& value, ParseState* state) -> std::string {
       long long seconds = 0;
       if (!ParseNumber(value, 0, 86400, &seconds)) return "needs a number of seconds from 0 to 86400";
       state->out->service.pitr_latest_lag_seconds = seconds;
       return "";
     }},
    {"--no-client-cpu-affinity", false, false,
     [](const std::string&, ParseState* state) -> std::string {
       state->out->http.follow_client_cpu = false;
       return "";
     }},
    {"--health-check", false, false,
     [](const std::string&, ParseState* state) -> std::string {
       state->out->health_check = true;
       return "";
     }},
    {"--help", false, false, PrintUsage},
    {"-h", false, false, PrintUsage},
    {"--version", false, false, PrintVersion},
    // DynamoDB Local's.
    {"-port", true, true, SetPort},
    {"-dbPath", true, true, SetDbPath},
    {"-cors", true, true, SetCors},
    {"-inMemory", false, true,
     [](const std::string&, ParseState* state) -> std::string {
       state->in_memory = true;
       return "";
     }},
    {"-sharedDb", false, true,
     [](const std::string&, ParseState* state) -> std::string {
       state->shared_db = true;
       return "";
     }},
    {"-delayTransientStatuses", false, true,
     [](const std::string&, ParseState* state) -> std::string {
       state->delay_transient = true;
       return "";
     }},
    // RocksDB needs no optimising pass: accepted for its exclusion rule only. No telemetry is ever sent.
    {"-optimizeDbBeforeStartup", false, true,
     [](const std::string&, ParseState* state) -> std::string {
       state->optimize = true;
       return "";
     }},
    {"-disableTelemetry", false, true, Ignore},
    {"-help", false, true, PrintUsage},
    {"-version", false, true, PrintVersion},
    // `java -jar DynamoDBLocal.jar ...` as written in compose files for DynamoDB Local's image.
    {"-jar", true, true, Ignore},
};

const Flag* FindFlag(const std::string& name) {
  for (const Flag& flag : kFlags) {
    if (name == flag.name) return &flag;
  }
  return nullptr;
}

CommandLineOutcome Failure(const std::string& message) {
  CommandLineOutcome outcome;
  outcome.run = false;
  outcome.exit_code = 2;
  outcome.error = "dynapage: " + message + "\nTry 'dynapage --help'.\n";
  return outcome;
}

}  // namespace

const char* CommandLineUsage() { return kUsage; }

CommandLineOutcome ParseCommandLine(const std::vector<std::string>& args, CommandLine* out) {
  ParseState state;
  state.out = out;
  for (size_t i = 0; i < args.size(); i++) {
    std::string name = args[i];
    std::string value;
    bool has_inline = false;
    size_t eq = name.find('=');
    if (name.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_inline = true;
    }
    const Flag* flag = FindFlag(name);
    if (!flag && name.size() > 2 && name[0] == '-' && (name[1] == 'D' || name[1] == 'X')) {
      out->dynamodb_local_flags = true;  // a JVM option of a java command line: nothing to do
      continue;
    }
    if (!flag || (has_inline && !flag->takes_value)) return Failure("unknown option '" + args[i] + "'");
    if (flag->takes_value && !has_inline) {
      if (i + 1 >= args.size()) return Failure(name + " needs a value");
      value = args[++i];
    }
    std::string error = flag->apply(value, &state);
    if (!error.empty()) return Failure(name + " " + error);
    if (flag->dynamodb_local) out->dynamodb_local_flags = true;
    if (state.print) {
      CommandLineOutcome outcome;
      outcome.run = false;
      outcome.output = state.print;
      return outcome;
    }
  }

  // DynamoDB Local's exclusions.
  if (state.in_memory && state.db_path_given) {
    return Failure("-inMemory and -dbPath (or --db-path) cannot be used together: choose memory or a directory");
  }
  if (state.optimize && !state.db_path_given) return Failure("-optimizeDbBeforeStartup needs -dbPath");
  if (out->fail_on_abandoned && !out->bench.audit_pagination) {
    return Failure("--fail-on-abandoned needs --audit-pagination");
  }
  if (state.shared_db && state.namespace_given && out->namespace_mode != NamespaceMode::kShared) {
    return Failure(std::string("-sharedDb contradicts --namespace ") + NamespaceModeName(out->namespace_mode));
  }
  if (out->health_check && out->port == 0) return Failure("--health-check needs the server's port, not 0");
  if (state.shared_db) out->namespace_mode = NamespaceMode::kShared;
  if (state.delay_transient && !state.transient_given) out->service.transient_status_ms = kDefaultTransientStatusMs;
  if (out->dynamodb_local_flags && !state.in_memory) {
    // DynamoDB Local keeps its files in the working directory unless told otherwise, and names the shared
    // database's file; dynapage's own --db-path DIR keeps a shared database in DIR itself.
    if (!state.db_path_given) out->database.path = ".";
    if (out->namespace_mode == NamespaceMode::kShared) out->database.path += std::string("/") + kSharedDatabaseFolder;
  }
  return CommandLineOutcome();
}

}  // namespace dynapage
