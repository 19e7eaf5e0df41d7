#include "engine/database/store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "engine/catalog/catalog_keys.h"
#include "engine/database/legacy_migration.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
// Takes path/dynapage.lock for this process (flock: released when the process ends, however it ends).
Status LockFolder(const std::string& path, int* fd) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) return Status::Internal("cannot create " + path + ": " + error.message());
  // The owner's only, like every file the storage makes in it.
  std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::replace,
                               error);
  std::string lock_path = path + "/" + kLockFileName;
  *fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (*fd < 0) return Status::Internal("cannot open " + lock_path + ": " + std::strerror(errno));
  if (::flock(*fd, LOCK_EX | LOCK_NB) != 0) {
    int flock_errno = errno;
    ::close(*fd);
    *fd = -1;
    if (flock_errno == EWOULDBLOCK) return Status::Internal(path + kFolderInUseMessage);
    return Status::Internal("cannot lock " + lock_path + ": " + std::strerror(flock_errno));
  }
  return Status::OK();
}
}  // namespace

Store::Store(std::unique_ptr<Storage> storage) : storage_(std::move(storage)), keyspaces_(storage_.get()) {}

Store::~Store() {
  if (storage_) storage_->Flush();
  storage_.reset();
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

Status Store::Open(const StoreOptions& options, std::unique_ptr<Store>* out) {
  int lock_fd = -1;
  if (!options.path.empty()) DP_RETURN_IF_ERROR(LockFolder(options.path, &lock_fd));
  std::unique_ptr<Storage> storage;
  Status opened = Storage::Open(options.path, &storage);
  if (!opened.ok()) {
    if (lock_fd >= 0) ::close(lock_fd);
    return opened;
  }
  std::unique_ptr<Store> store(new Store(std::move(storage)));
  store->lock_fd_ = lock_fd;
  DP_RETURN_IF_ERROR(store->Prepare(options));
  *out = std::move(store);
  return Status::OK();
}

Status Store::Prepare(const StoreOptions& options) {
  DP_RETURN_IF_ERROR(ReadStoredCounter(*storage_, kNamespaceCounterKey, "namespace counter", &next_namespace_));
  std::string text;
  bool found = false;
  DP_RETURN_IF_ERROR(storage_->Get(kFormatKey, &text, &found));
  if (found && text != kStoreFormat) {
    return Status::Internal((options.path.empty() ? std::string("the store") : options.path) +
                            " holds data in layout " + text + ", which this dynapage (layout " + kStoreFormat +
                            ") cannot read: it was written by a later dynapage");
  }
  if (!found) {
    // A store without a format record is new (empty), or a 0.1.0 database: the shared one in DIR itself.
    Storage::Batch batch;
    bool legacy = false;
    DP_RETURN_IF_ERROR(RewriteLegacySharedDatabase(this, &batch, &legacy));
    migrated_namespaces_ += legacy ? 1 : 0;
    batch.Put(kFormatKey, kStoreFormat);
    DP_RETURN_IF_ERROR(storage_->Write(&batch));
  }
  DP_RETURN_IF_ERROR(keyspaces_.Load());
  if (options.path.empty()) return Status::OK();
  int folders = 0;
  DP_RETURN_IF_ERROR(MigrateLegacyNamespaceFolders(this, options.path, options.not_a_namespace, &folders));
  migrated_namespaces_ += folders;
  return Status::OK();
}

uint32_t Store::TakeNamespaceId(Storage::Batch* batch) {
  std::lock_guard<std::mutex> lock(mu_);
  return TakeNamespaceIdLocked(batch);
}

uint32_t Store::TakeNamespaceIdLocked(Storage::Batch* batch) {
  uint32_t id = next_namespace_++;
  batch->Put(kNamespaceCounterKey, std::to_string(next_namespace_));
  return id;
}

Status Store::NamespaceId(std::string_view name, uint32_t* id) {
  std::string key = NamespaceKey(name);
  std::string text;
  bool found = false;
  std::lock_guard<std::mutex> lock(mu_);
  DP_RETURN_IF_ERROR(storage_->Get(key, &text, &found));
  if (found) return ParseStoredId(text, "namespace record", id);
  if (next_namespace_ == UINT32_MAX) return Status::Internal("the store has used up its 2^32 namespaces");
  // An id taken by a write that then fails is skipped: ids need only be unique.
  Storage::Batch batch;
  uint32_t taken = TakeNamespaceIdLocked(&batch);
  batch.Put(key, std::to_string(taken));
  DP_RETURN_IF_ERROR(storage_->Write(&batch));
  *id = taken;
  return Status::OK();
}

Status Store::NamespaceNames(std::vector<std::string>* names) const {
  names->clear();
  std::string prefix(1, kNamespaceTag);
  auto it = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) names->emplace_back(it->key().substr(1));
  return it->status();
}

}  // namespace dynapage
