// OwnerOnlyFileSystem: the file system of a database under --db-path, whose files only their owner may read.
//
// A database holds whatever clients stored, and dynapage runs in shared dev containers and CI machines. RocksDB
// creates its files with mode 0644 and its directories with 0755, whatever the umask allows; this wrapper sets
// every file it creates (table files, write-ahead logs, MANIFEST, CURRENT, LOCK, the info LOG) to 0600 and every
// directory to 0700, right after creating it and before anything is written to it. Storage also makes the
// database directory itself 0700, so nobody else can open a file in it even in the moment before its chmod.
// The process's umask is left alone.

#ifndef DYNAPAGE_ENGINE_STORAGE_OWNER_ONLY_FILE_SYSTEM_H_
#define DYNAPAGE_ENGINE_STORAGE_OWNER_ONLY_FILE_SYSTEM_H_

#include <rocksdb/file_system.h>

#include <memory>
#include <string>

namespace dynapage {

// REQUIRES: target is a file system of real paths (chmod(2) applies to them).
std::shared_ptr<rocksdb::FileSystem> NewOwnerOnlyFileSystem(std::shared_ptr<rocksdb::FileSystem> target);

// Creates directory path with mode 0700 if it is missing, else sets its mode to 0700 (if its owner may).
rocksdb::IOStatus MakeOwnerOnlyDirectory(const std::string& path);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_OWNER_ONLY_FILE_SYSTEM_H_
