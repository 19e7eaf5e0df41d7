// Store: the one Storage under every namespace, with what the namespaces share (docs/architecture.md, "Store").
//
// A data folder (--db-path DIR) is one RocksDB in DIR itself, whatever the number of namespaces; without a
// folder, one in-memory store. The store holds the layout version, the keyspace counter of every namespace's
// catalog (engine/catalog/keyspace_counter.h) and the namespace registry: each namespace name (NamespaceName,
// engine/database/database_set.h) has a small id that prefixes its catalog records (engine/catalog/catalog_keys.h).
//
// Opening a folder:
//   - takes an exclusive lock on DIR/dynapage.lock: a second process on the same folder is refused
//     (kFolderInUseMessage) instead of sharing, and so corrupting, it;
//   - refuses a store of a later layout, naming it;
//   - migrates, once, a folder written by dynapage 0.1.0 (engine/database/legacy_migration.h): DIR itself as a
//     0.1.0 shared database, and DIR/<namespace>.db subfolders as 0.1.0 namespaces.

#ifndef DYNAPAGE_ENGINE_DATABASE_STORE_H_
#define DYNAPAGE_ENGINE_DATABASE_STORE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/catalog/keyspace_counter.h"
#include "engine/storage/storage.h"

namespace dynapage {

// The error of a second process on a folder: the folder's path, then this.
constexpr char kFolderInUseMessage[] = " is in use by another dynapage process";
// The lock file in a data folder.
constexpr char kLockFileName[] = "dynapage.lock";

struct StoreOptions {
  std::string path;  // empty: in memory
  // A subfolder of path that is no 0.1.0 namespace and is left alone (kSharedDatabaseFolder: with DynamoDB
  // Local's flags, the shared namespace's store inside the folder of the other namespaces' store).
  std::string not_a_namespace;
};

class Store {
 public:
  static Status Open(const StoreOptions& options, std::unique_ptr<Store>* out);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  Storage* storage() { return storage_.get(); }
  KeyspaceCounter* keyspaces() { return &keyspaces_; }
  // What the last Open migrated from 0.1.0: folders (DIR itself counts as one) and namespaces.
  int migrated_namespaces() const { return migrated_namespaces_; }

  // The id of the namespace called name, registered (stored) the first time it is asked for. Thread-safe.
  Status NamespaceId(std::string_view name, uint32_t* id);
  // The registered namespaces' names, in byte order (tests, tools).
  Status NamespaceNames(std::vector<std::string>* names) const;

  // For the migration, before the store is in use: a new namespace id, stored as taken in batch.
  uint32_t TakeNamespaceId(Storage::Batch* batch);

 private:
  explicit Store(std::unique_ptr<Storage> storage);
  uint32_t TakeNamespaceIdLocked(Storage::Batch* batch);  // REQUIRES: mu_ held
  // Reads the format record and the counters; a 0.1.0 layout is migrated. REQUIRES: the store is not in use.
  Status Prepare(const StoreOptions& options);

  int lock_fd_ = -1;
  std::unique_ptr<Storage> storage_;
  KeyspaceCounter keyspaces_;
  std::mutex mu_;                // serialises registrations
  uint32_t next_namespace_ = 1;  // guarded by mu_
  int migrated_namespaces_ = 0;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_STORE_H_
