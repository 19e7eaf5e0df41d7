#include "engine/database/database.h"

#include <utility>

#include "engine/database/legacy_migration.h"

namespace dynapage {

Status Database::Open(const DatabaseOptions& options, std::unique_ptr<Database>* out) {
  std::unique_ptr<Store> store;
  StoreOptions store_options;
  store_options.path = options.path;
  DP_RETURN_IF_ERROR(Store::Open(store_options, &store));
  uint32_t namespace_id = 0;
  DP_RETURN_IF_ERROR(store->NamespaceId(kSharedNamespaceName, &namespace_id));
  DP_RETURN_IF_ERROR(OpenNamespace(store.get(), namespace_id, out));
  (*out)->owned_store_ = std::move(store);
  return Status::OK();
}

Status Database::OpenNamespace(Store* store, uint32_t namespace_id, std::unique_ptr<Database>* out) {
  std::unique_ptr<Database> db(new Database());
  db->namespace_id_ = namespace_id;
  db->storage_ = store->storage();
  db->catalog_ = std::make_unique<Catalog>(db->storage_, store->keyspaces(), namespace_id);
  DP_RETURN_IF_ERROR(db->catalog_->Load());
  db->vectors_ = std::make_unique<VectorStore>();
  db->writes_ = std::make_unique<WritePath>(db->storage_, db->catalog_.get(), db->vectors_.get());
  DP_RETURN_IF_ERROR(db->writes_->LoadVectorIndexes());
  // An import a crash cut short leaves no half-loaded table (docs/export-import.md); a store in memory starts empty.
  if (db->storage_->persistent()) DP_RETURN_IF_ERROR(db->writes_->DropUnfinishedImports(BackgroundContext()));
  *out = std::move(db);
  return Status::OK();
}

Database::~Database() {
  writes_.reset();
  vectors_.reset();
  catalog_.reset();
}

}  // namespace dynapage
