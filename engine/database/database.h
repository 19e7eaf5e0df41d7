// Database: the engine's entry point, as the server sees it. It opens the storage and composes the two halves
// of the engine around it: the Catalog (engine/catalog/catalog.h), where readers find tables and their
// counters, and the WritePath (engine/write/write_path.h), the one place every write goes through.
//
// Reads (engine/read/) take the catalog; writes and table changes (engine/write/) take the write path. Both take
// the request's RequestContext (engine/base/request_context.h) for the caller, the clock and the page limit.

#ifndef DYNAPAGE_ENGINE_DATABASE_DATABASE_H_
#define DYNAPAGE_ENGINE_DATABASE_DATABASE_H_

#include <memory>
#include <string>

#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/storage/storage.h"
#include "engine/write/write_path.h"

namespace dynapage {

struct DatabaseOptions {
  std::string path;  // empty: in memory
};

class Database {
 public:
  static Status Open(const DatabaseOptions& options, std::unique_ptr<Database>* out);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const DatabaseOptions& options() const { return options_; }
  const Storage& storage() const { return *storage_; }
  const Catalog& catalog() const { return *catalog_; }
  WritePath& writes() { return *writes_; }

 private:
  Database() = default;

  DatabaseOptions options_;
  std::unique_ptr<Storage> storage_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<WritePath> writes_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_DATABASE_H_
