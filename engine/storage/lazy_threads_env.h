// A RocksDB Env whose background threads start with the first job scheduled on them, not when a database opens.
//
// DB::Open asks its Env for the flush and compaction threads it may need (IncBackgroundThreadsIfNeeded), and
// RocksDB's Env starts them at once: two threads, each a stack, a malloc arena and a switch to run it, before a
// server has answered anything, where a store smaller than its write buffer has nothing to flush or compact.
// This Env remembers what was asked and starts a pool's threads when a job is first scheduled on it.
// GetBackgroundThreads answers what was asked, started or not: RocksDB runs flushes in the compaction pool when
// the flush pool has no threads.
//
// Files and the clock are the target's own (its FileSystem and SystemClock, not RocksDB's legacy wrappers).
// REQUIRES: target outlives the Env made; the Env outlives every database opened with it.

#ifndef DYNAPAGE_ENGINE_STORAGE_LAZY_THREADS_ENV_H_
#define DYNAPAGE_ENGINE_STORAGE_LAZY_THREADS_ENV_H_

#include <rocksdb/env.h>

#include <memory>

namespace dynapage {

std::unique_ptr<rocksdb::Env> NewLazyThreadsEnv(rocksdb::Env* target);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_LAZY_THREADS_ENV_H_
