// The console: a web page dynapage serves itself at /_dynapage/console/ (docs/console.md), to look at namespaces,
// tables and items, the recent requests drawn as chains of pages, and the test bench.
//
// Its routes are admin routes, GET only, and change nothing a test sees: the page's assets (embedded at build time,
// console_assets.h) with a strict Content-Security-Policy (default-src 'self', nothing inline, no frame), and two
// read-only JSON views the admin API lacked. Everything the page changes goes through the DynamoDB API (POST /,
// signed as an SDK signs, so that edits run the same operations) or the admin API's own routes, under the browser
// guard's rules (browser_guard.h: the Host check; no Origin but dynapage's own).
//
//   GET /_dynapage/console/            the page (and /_dynapage/console)
//   GET /_dynapage/console/<file>      console.js, console.css
//   GET /_dynapage/console/namespaces  the namespace mode, the caller's namespace, every open namespace with its
//                                      owner (access key, region) and table count, and the server's page size
//   GET /_dynapage/console/requests    the request log's recent lines (?limit=N as /_dynapage/requests), and how
//                                      they are kept: without --request-log, asking starts keeping them in memory
//                                      for a minute (TestBench::WatchRequests)

#ifndef DYNAPAGE_SERVER_CONSOLE_CONSOLE_ROUTES_H_
#define DYNAPAGE_SERVER_CONSOLE_CONSOLE_ROUTES_H_

#include <string_view>

#include "engine/database/database_set.h"
#include "server/admin/admin_api.h"
#include "server/admin/test_bench.h"
#include "server/protocol/dispatcher.h"

namespace dynapage {

// What every console answer carries: the page may load only dynapage's own files and talk only to dynapage.
constexpr char kConsoleSecurityPolicy[] =
    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

// The Content-Type of an asset, by its extension.
std::string_view ConsoleContentType(std::string_view file_name);

// Adds the console's routes to api. REQUIRES: databases and bench outlive api.
void AddConsoleRoutes(AdminApi* api, DatabaseSet* databases, TestBench* bench, const ServiceOptions& options);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_CONSOLE_CONSOLE_ROUTES_H_
