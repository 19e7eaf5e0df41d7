// DatabaseSet: which Database a request uses, chosen by its caller's namespace (docs/dynamodb-local.md).
//
// DynamoDB keeps each account's tables apart in each region; DynamoDB Local keeps one database per access key
// and region unless started with -sharedDb. The namespace mode says which of the caller's parts separate data:
//   shared             one database for every caller (dynapage before namespaces; DynamoDB Local's -sharedDb)
//   region             one database per region, whoever signs
//   access-key-region  one database per access key and region (DynamoDB Local's default; dynapage's default)
// Every namespace lives in the set's one Store (engine/database/store.h): one RocksDB, in memory or in the data
// folder, whatever the number of namespaces, so namespaces are bounded by memory and disk, not by file
// descriptors or threads. A namespace's Database (its catalog and write path, a few KB) is made the first time a
// request names it and stays until the set is destroyed; one sweeper thread serves them all.

#ifndef DYNAPAGE_ENGINE_DATABASE_DATABASE_SET_H_
#define DYNAPAGE_ENGINE_DATABASE_DATABASE_SET_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"
#include "engine/database/replicator.h"
#include "engine/database/store.h"
#include "engine/database/sweeper.h"

namespace dynapage {

enum class NamespaceMode { kShared, kRegion, kAccessKeyRegion };

// "shared", "region" or "access-key-region" into *out; false for anything else.
bool ParseNamespaceMode(std::string_view text, NamespaceMode* out);
const char* NamespaceModeName(NamespaceMode mode);

// The name of caller's namespace under mode: "" for shared, "us-west-2.db" for region, "AKID_us-west-2.db" for
// access-key-region (bytes other than letters, digits and '-' are written %XX, so that two callers never share a
// name). The names are those of dynapage 0.1.0's namespace folders, which the migration reads
// (engine/database/legacy_migration.h).
std::string NamespaceName(NamespaceMode mode, const Caller& caller);

// The account id of an access key: a 12-digit key is its own account; any other key is kDefaultAccountId's.
std::string AccountIdOf(std::string_view access_key);
constexpr char kDefaultAccountId[] = "000000000000";

// DynamoDB Local's shared database in its data folder (-sharedDb): the shared namespace's store, kept in the
// folder of the other namespaces' store (and so not one of its 0.1.0 namespace folders).
constexpr char kSharedDatabaseFolder[] = "shared-local-instance.db";

class DatabaseSet {
 public:
  // Serves db to every caller (the shared mode), without owning it. REQUIRES: db outlives the set.
  explicit DatabaseSet(Database* db);
  // The namespaces of mode in the store at options.path (in memory if empty; Store::Open says what opening a
  // folder checks and migrates). The shared mode's one database is opened at once.
  static Status Open(NamespaceMode mode, const DatabaseOptions& options, std::unique_ptr<DatabaseSet>* out);
  ~DatabaseSet();
  DatabaseSet(const DatabaseSet&) = delete;
  DatabaseSet& operator=(const DatabaseSet&) = delete;

  NamespaceMode mode() const { return mode_; }
  // The store, for an opened set (null for DatabaseSet(db)).
  Store* store() { return store_.get(); }
  // The database of caller's namespace, made if it is not yet. Thread-safe.
  Status For(const Caller& caller, Database** out);
  // Runs fn on every database open now (the shared one, or each namespace's used so far), stopping at the first
  // error. Thread-safe; fn must not call back into the set.
  Status ForEachOpen(const std::function<Status(Database*)>& fn);
  // The same, with the caller that first named each namespace (a default Caller for the shared one): who the
  // namespace belongs to (its access key and region), for the console's list of namespaces.
  Status ForEachNamespace(const std::function<Status(const Caller&, Database*)>& fn);
  // From now on one TTL sweeper (engine/database/sweeper.h) sweeps every database, open or opened later, every
  // interval_ms, in context (whose caller becomes each namespace's first caller). interval_ms 0 starts none.
  // REQUIRES: called once; context's clock outlives the set.
  void StartSweepers(const RequestContext& context, int64_t interval_ms);
  // The replicator of global tables (engine/database/replicator.h): null in the shared mode, where every region
  // is one namespace and a table cannot have replicas.
  Replicator* replicator() { return replicator_.get(); }
  // Global tables' membership changes (engine/database/global_tables.h): marks group (an access key's table) as
  // being changed; false if it is already, by a call still running.
  bool BeginMembershipChange(const std::string& group);
  void EndMembershipChange(const std::string& group);

 private:
  DatabaseSet(NamespaceMode mode, std::unique_ptr<Store> store);

  struct Namespace {
    std::unique_ptr<Database> db;
    Caller caller;                          // the first caller: the sweeper's, for the ARNs of its stream records
    std::unique_ptr<ReplicationSink> sink;  // where its write path sends the writes of replicas
  };
  // The database of caller's namespace, looked up by name under the lock, or made.
  Status Find(const Caller& caller, Database** out);
  // One sweep of every database.
  void SweepAll();

  NamespaceMode mode_;
  uint64_t id_ = 0;  // unique among every set made by this process (the shared set needs none)
  std::unique_ptr<Store> store_;
  Database* shared_ = nullptr;  // set in the shared mode only
  std::unique_ptr<Database> owned_shared_;
  std::shared_mutex mu_;
  std::unordered_map<std::string, Namespace> open_;  // guarded by mu_
  RequestContext sweeper_context_;                   // set before the sweeper starts
  std::unique_ptr<Sweeper> sweeper_;                 // stopped first by the destructor
  std::mutex membership_mu_;
  std::set<std::string> membership_changes_;  // guarded by membership_mu_
  std::unique_ptr<Replicator> replicator_;    // drained and stopped before the sweeper
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_DATABASE_SET_H_
