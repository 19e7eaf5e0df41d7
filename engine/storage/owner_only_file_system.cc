#include "engine/storage/owner_only_file_system.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace dynapage {

namespace {

constexpr mode_t kFileMode = 0600;
constexpr mode_t kDirectoryMode = 0700;

rocksdb::IOStatus Restrict(const rocksdb::IOStatus& created, const std::string& path, mode_t mode) {
  if (!created.ok()) return created;
  if (chmod(path.c_str(), mode) != 0) {
    return rocksdb::IOStatus::IOError("cannot make " + path + " its owner's only", std::strerror(errno));
  }
  return created;
}

class OwnerOnlyFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit OwnerOnlyFileSystem(std::shared_ptr<rocksdb::FileSystem> target) : FileSystemWrapper(target) {}
  const char* Name() const override { return "DynapageOwnerOnly"; }

  rocksdb::IOStatus NewWritableFile(const std::string& path, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->NewWritableFile(path, options, result, dbg), path, kFileMode);
  }
  rocksdb::IOStatus ReopenWritableFile(const std::string& path, const rocksdb::FileOptions& options,
                                       std::unique_ptr<rocksdb::FSWritableFile>* result,
                                       rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->ReopenWritableFile(path, options, result, dbg), path, kFileMode);
  }
  rocksdb::IOStatus ReuseWritableFile(const std::string& path, const std::string& old_path,
                                      const rocksdb::FileOptions& options,
                                      std::unique_ptr<rocksdb::FSWritableFile>* result,
                                      rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->ReuseWritableFile(path, old_path, options, result, dbg), path, kFileMode);
  }
  rocksdb::IOStatus NewRandomRWFile(const std::string& path, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSRandomRWFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->NewRandomRWFile(path, options, result, dbg), path, kFileMode);
  }
  rocksdb::IOStatus NewLogger(const std::string& path, const rocksdb::IOOptions& options,
                              std::shared_ptr<rocksdb::Logger>* result, rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->NewLogger(path, options, result, dbg), path, kFileMode);
  }
  rocksdb::IOStatus LockFile(const std::string& path, const rocksdb::IOOptions& options, rocksdb::FileLock** lock,
                             rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->LockFile(path, options, lock, dbg), path, kFileMode);
  }
  rocksdb::IOStatus CreateDir(const std::string& path, const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->CreateDir(path, options, dbg), path, kDirectoryMode);
  }
  rocksdb::IOStatus CreateDirIfMissing(const std::string& path, const rocksdb::IOOptions& options,
                                       rocksdb::IODebugContext* dbg) override {
    return Restrict(target()->CreateDirIfMissing(path, options, dbg), path, kDirectoryMode);
  }
};

}  // namespace

std::shared_ptr<rocksdb::FileSystem> NewOwnerOnlyFileSystem(std::shared_ptr<rocksdb::FileSystem> target) {
  return std::make_shared<OwnerOnlyFileSystem>(std::move(target));
}

rocksdb::IOStatus MakeOwnerOnlyDirectory(const std::string& path) {
  if (mkdir(path.c_str(), kDirectoryMode) == 0) return rocksdb::IOStatus::OK();
  if (errno != EEXIST) return rocksdb::IOStatus::IOError("cannot create directory " + path, std::strerror(errno));
  // The directory was there already (an earlier run, or made by the user): tighten it. A directory the process
  // may not chmod (another owner's) is left as it is; its files are still made 0600.
  if (chmod(path.c_str(), kDirectoryMode) != 0 && errno != EPERM) {
    return rocksdb::IOStatus::IOError("cannot make directory " + path + " its owner's only", std::strerror(errno));
  }
  return rocksdb::IOStatus::OK();
}

}  // namespace dynapage
