// DatabaseSet: which Database a request uses, chosen by its caller's namespace (docs/dynamodb-local.md).
//
// DynamoDB keeps each account's tables apart in each region; DynamoDB Local keeps one database per access key
// and region unless started with -sharedDb. The namespace mode says which of the caller's parts separate data:
//   shared             one database for every caller (dynapage before namespaces; DynamoDB Local's -sharedDb)
//   region             one database per region, whoever signs
//   access-key-region  one database per access key and region (DynamoDB Local's default; dynapage's default)
// The engine is untouched: each namespace is a whole Database of its own, opened the first time a request names
// it, in memory or in a subdirectory of the data directory named after the namespace ("AKID_us-west-2.db").
// Databases stay open until the set is destroyed.

#ifndef DYNAPAGE_SERVER_PROTOCOL_DATABASE_SET_H_
#define DYNAPAGE_SERVER_PROTOCOL_DATABASE_SET_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/database/sweeper.h"

namespace dynapage {

enum class NamespaceMode { kShared, kRegion, kAccessKeyRegion };

// "shared", "region" or "access-key-region" into *out; false for anything else.
bool ParseNamespaceMode(std::string_view text, NamespaceMode* out);
const char* NamespaceModeName(NamespaceMode mode);

// The name of caller's namespace under mode, usable as a file name: "" for shared, "us-west-2.db" for region,
// "AKID_us-west-2.db" for access-key-region (bytes other than letters, digits and '-' are written %XX, so that
// two callers never share a name and no name climbs out of the data directory).
std::string NamespaceName(NamespaceMode mode, const Caller& caller);

// The account id of an access key: a 12-digit key is its own account; any other key is kDefaultAccountId's.
std::string AccountIdOf(std::string_view access_key);
constexpr char kDefaultAccountId[] = "000000000000";

class DatabaseSet {
 public:
  // Serves db to every caller (the shared mode), without owning it. REQUIRES: db outlives the set.
  explicit DatabaseSet(Database* db);
  // One database per namespace of mode, opened on first use: in memory if options.path is empty, else in the
  // namespace's subdirectory of options.path. REQUIRES: mode is not kShared.
  DatabaseSet(NamespaceMode mode, DatabaseOptions options);
  ~DatabaseSet();
  DatabaseSet(const DatabaseSet&) = delete;
  DatabaseSet& operator=(const DatabaseSet&) = delete;

  NamespaceMode mode() const { return mode_; }
  // The database of caller's namespace, opened if it is not yet. Thread-safe.
  Status For(const Caller& caller, Database** out);
  // Runs fn on every database open now (the shared one, or each namespace's opened so far), stopping at the first
  // error. Thread-safe; fn must not call back into the set.
  Status ForEachOpen(const std::function<Status(Database*)>& fn);
  // From now on every database, open or opened later, has a TTL sweeper (engine/database/sweeper.h) running every
  // interval_ms in context (whose caller becomes the namespace's first caller). interval_ms 0 starts none.
  // REQUIRES: called once; context's clock outlives the set.
  void StartSweepers(const RequestContext& context, int64_t interval_ms);

 private:
  // The database of caller's namespace, looked up by name under the lock, or opened.
  Status Find(const Caller& caller, Database** out);

  NamespaceMode mode_;
  uint64_t id_ = 0;  // unique among every set made by this process (the shared set needs none)
  DatabaseOptions options_;
  Database* shared_ = nullptr;  // set in the shared mode only
  std::shared_mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<Database>> open_;  // guarded by mu_
  // The sweepers, stopped before the databases close (members are destroyed in reverse order).
  RequestContext sweeper_context_;                // guarded by mu_
  int64_t sweeper_interval_ms_ = 0;               // guarded by mu_
  std::vector<std::unique_ptr<Sweeper>> sweepers_;  // guarded by mu_
};

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_DATABASE_SET_H_
