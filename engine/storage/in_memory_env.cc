#include "engine/storage/in_memory_env.h"

#include <rocksdb/file_system.h>

#include <string>

namespace dynapage {

namespace {

// RocksDB names the file "OPTIONS-<number>.dbtmp" while writing it, and renames it to "OPTIONS-<number>".
bool IsOptionsFile(const std::string& path) {
  size_t slash = path.rfind('/');
  return path.compare(slash == std::string::npos ? 0 : slash + 1, 8, "OPTIONS-") == 0;
}

class NoOptionsFileSystem : public rocksdb::FileSystemWrapper {
 public:
  explicit NoOptionsFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target) : FileSystemWrapper(target) {}
  const char* Name() const override { return "DynapageInMemory"; }

  rocksdb::IOStatus NewWritableFile(const std::string& path, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    if (IsOptionsFile(path)) return rocksdb::IOStatus::NotSupported("an in-memory database keeps no OPTIONS file");
    return target()->NewWritableFile(path, options, result, dbg);
  }
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewInMemoryEnv() {
  // The MemEnv's file system is shared: it stays alive with the Env made around it.
  std::unique_ptr<rocksdb::Env> mem_env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  return rocksdb::NewCompositeEnv(std::make_shared<NoOptionsFileSystem>(mem_env->GetFileSystem()));
}

}  // namespace dynapage
