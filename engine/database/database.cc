#include "engine/database/database.h"

namespace dynapage {

Status Database::Open(const DatabaseOptions& options, std::unique_ptr<Database>* out) {
  std::unique_ptr<Database> db(new Database());
  db->options_ = options;
  DP_RETURN_IF_ERROR(Storage::Open(options.path, &db->storage_));
  db->catalog_ = std::make_unique<Catalog>(db->storage_.get());
  DP_RETURN_IF_ERROR(db->catalog_->Load());
  db->writes_ = std::make_unique<WritePath>(db->storage_.get(), db->catalog_.get());
  *out = std::move(db);
  return Status::OK();
}

Database::~Database() {
  writes_.reset();
  catalog_.reset();
  if (storage_) storage_->Flush();
}

}  // namespace dynapage
