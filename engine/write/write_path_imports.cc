// WritePath's marks of the tables an ImportTable is loading (write_path.h, docs/export-import.md).

#include "engine/catalog/catalog_keys.h"
#include "engine/storage/key_codec.h"
#include "engine/write/write_path.h"

namespace dynapage {

Status WritePath::MarkImporting(const std::string& name, const std::string& table_id) {
  Storage::Batch batch;
  batch.Put(ImportMarkKey(catalog_->namespace_id(), name), table_id);
  return storage_->Write(&batch);
}

Status WritePath::EndImporting(const std::string& name) {
  Storage::Batch batch;
  batch.Delete(ImportMarkKey(catalog_->namespace_id(), name));
  return storage_->Write(&batch);
}

Status WritePath::DropUnfinishedImports(const RequestContext& ctx) {
  const std::string prefix = ImportMarkPrefix(catalog_->namespace_id());
  std::vector<std::pair<std::string, std::string>> marks;  // table name, table id
  {
    auto it = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      marks.emplace_back(std::string(it->key().substr(prefix.size())), std::string(it->value()));
    }
    DP_RETURN_IF_ERROR(it->status());
  }
  for (const auto& [name, table_id] : marks) {
    auto table = catalog_->FindTable(name);
    if (table && table->table_id == table_id) {
      TableDescription dropped;
      DP_RETURN_IF_ERROR(DeleteTable(ctx, name, &dropped));
    }
    DP_RETURN_IF_ERROR(EndImporting(name));
  }
  return Status::OK();
}

}  // namespace dynapage
