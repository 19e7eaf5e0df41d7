// Database: one namespace's view of the engine, as the server sees it. It composes the two halves of the engine
// over the store: the Catalog (engine/catalog/catalog.h), where readers find tables and their counters, and the
// WritePath (engine/write/write_path.h), the one place every write goes through.
//
// Every namespace of a process shares one Store (engine/database/store.h; DatabaseSet hands them out): a
// Database itself holds no storage, thread or cache of its own, only its catalog and write path, so that
// thousands of namespaces cost little. Database::Open makes a stand-alone one, with a store of its own.
//
// Reads (engine/read/) take the catalog; writes and table changes (engine/write/) take the write path. Both take
// the request's RequestContext (engine/base/request_context.h) for the caller, the clock and the page limit.

#ifndef DYNAPAGE_ENGINE_DATABASE_DATABASE_H_
#define DYNAPAGE_ENGINE_DATABASE_DATABASE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/database/store.h"
#include "engine/storage/storage.h"
#include "engine/vector/vector_store.h"
#include "engine/write/write_path.h"

namespace dynapage {

struct DatabaseOptions {
  std::string path;  // empty: in memory
};

class Database {
 public:
  // The shared namespace of a store of its own at options.path (tests, fuzzers; the server uses DatabaseSet).
  static Status Open(const DatabaseOptions& options, std::unique_ptr<Database>* out);
  // Namespace namespace_id of store, its catalog loaded. REQUIRES: store outlives the database.
  static Status OpenNamespace(Store* store, uint32_t namespace_id, std::unique_ptr<Database>* out);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  uint32_t namespace_id() const { return namespace_id_; }
  const Storage& storage() const { return *storage_; }
  const Catalog& catalog() const { return *catalog_; }
  WritePath& writes() { return *writes_; }
  const WritePath& writes() const { return *writes_; }
  const VectorStore& vectors() const { return *vectors_; }

 private:
  Database() = default;

  std::unique_ptr<Store> owned_store_;  // Open's only; destroyed last
  uint32_t namespace_id_ = 0;
  Storage* storage_ = nullptr;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<VectorStore> vectors_;
  std::unique_ptr<WritePath> writes_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_DATABASE_H_
