// The RocksDB Env of an in-memory database: files live in RocksDB's MemEnv and vanish with the process.
//
// It keeps no OPTIONS files. RocksDB writes one at every open, then parses it back to check it (~2.7M
// instructions, three quarters of DB::Open and much of the code paged in at start-up), for a later open of the
// same database to read; an in-memory database is never opened again. Creating the file fails instead, which
// RocksDB logs and ignores unless DBOptions::fail_if_options_file_error is set (REQUIRES: it is not).

#ifndef DYNAPAGE_ENGINE_STORAGE_IN_MEMORY_ENV_H_
#define DYNAPAGE_ENGINE_STORAGE_IN_MEMORY_ENV_H_

#include <rocksdb/env.h>

#include <memory>

namespace dynapage {

std::unique_ptr<rocksdb::Env> NewInMemoryEnv();

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_IN_MEMORY_ENV_H_
