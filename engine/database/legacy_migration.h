// The migration of a dynapage 0.1.0 data folder into the one-store layout (engine/catalog/catalog_keys.h).
//
// dynapage 0.1.0 kept one RocksDB per namespace: DIR itself for the shared namespace, DIR/<namespace>.db for the
// others ("AKID_us-east-1.db", "us-east-1.db"), each with its own keyspace counter starting at 1, table
// definitions under 'c' | name and streams under 'x' | id. The migration runs once, at Store::Open, before any
// request:
//   - DIR itself (a store with records but no format record) is rewritten in place, in the one batch that also
//     writes the format record: definitions and streams get the shared namespace's id in their keys; keyspaces
//     stay (its counter becomes the store's).
//   - Each DIR/<namespace>.db is copied into the store in batches, every keyspace and stream id moved by an
//     offset (a range of the store's counter reserved for it), and is then removed. Crash-safe: a migration
//     record ('m' | name: the namespace id and offset) is written before the first copy and removed in the
//     batch that registers the namespace, so an interrupted copy is redone with the same id and offset (the same
//     keys and values), and a folder whose namespace is registered is only removed.

#ifndef DYNAPAGE_ENGINE_DATABASE_LEGACY_MIGRATION_H_
#define DYNAPAGE_ENGINE_DATABASE_LEGACY_MIGRATION_H_

#include <string>

#include "engine/base/status.h"
#include "engine/database/store.h"

namespace dynapage {

// The namespace name of the shared namespace (NamespaceName of NamespaceMode::kShared).
constexpr char kSharedNamespaceName[] = "";

// If store (without a format record) holds records, sets *legacy and adds to batch the rewrite of a 0.1.0
// shared database into the shared namespace. REQUIRES: the store is not in use.
Status RewriteLegacySharedDatabase(Store* store, Storage::Batch* batch, bool* legacy);
// Copies every 0.1.0 namespace folder of path (but not_a_namespace) into store and removes it; *folders counts
// them. REQUIRES: the store is not in use.
Status MigrateLegacyNamespaceFolders(Store* store, const std::string& path, const std::string& not_a_namespace,
                                     int* folders);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_LEGACY_MIGRATION_H_
