// Storage: the ordered key-value store under dynapage, RocksDB either in memory or in a directory.
//
// Everything a write implies (the item, its index entries, the table's counters) goes into one Batch and is
// applied atomically, so a reader never sees half of it. Readers iterate over a consistent snapshot. In memory
// the write-ahead log is skipped (there is nothing to recover); on disk it is kept, so an acknowledged write
// survives the process being killed.
//
// On disk, the directory and every file in it are their owner's only (engine/storage/owner_only_file_system.h).
// When a write fails because the disk is full, RocksDB stops taking writes until told to resume; Write resumes it
// as soon as a write is tried again (at most once a second while it keeps failing), so writes succeed again
// once space is freed, without a restart. A write that failed was not applied, and no acknowledged write is lost.
//
// Deleted data is given back in the background: ReclaimSoon (engine/storage/space_reclaimer.h).

#ifndef DYNAPAGE_ENGINE_STORAGE_STORAGE_H_
#define DYNAPAGE_ENGINE_STORAGE_STORAGE_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/base/status.h"

namespace rocksdb {
class Cache;
class DB;
class Env;
class EventListener;
class Iterator;
class Options;
class WriteBatch;
}  // namespace rocksdb

namespace dynapage {

class SpaceReclaimer;

class Storage {
 public:
  // Opens the store: in memory when path is empty, else in directory path (created if missing).
  static Status Open(const std::string& path, std::unique_ptr<Storage>* out);
  // The same on disk, with the files in env's file system (tests inject failures with it); env may be null for
  // the default. REQUIRES: path is not empty; env, if not null, outlives the storage.
  static Status Open(const std::string& path, rocksdb::Env* env, std::unique_ptr<Storage>* out);
  // In memory, with listener (if not null) told of RocksDB's events: tests see its flushes with it.
  static Status OpenInMemory(std::shared_ptr<rocksdb::EventListener> listener, std::unique_ptr<Storage>* out);
  ~Storage();

  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  class Batch {
   public:
    // reserved_bytes: room for the batch's entries up front, so that a large batch is not copied as it grows.
    explicit Batch(size_t reserved_bytes = 0);
    ~Batch();
    void Put(std::string_view key, std::string_view value);
    void Delete(std::string_view key);
    void DeleteRange(std::string_view begin, std::string_view end);
    size_t Count() const;

   private:
    friend class Storage;
    std::unique_ptr<rocksdb::WriteBatch> batch_;
  };

  // A forward/backward cursor over [lower, upper), on the state at its creation.
  class Iterator {
   public:
    ~Iterator();
    bool Valid() const;
    void Seek(std::string_view key);             // first key >= key
    void SeekForPrev(std::string_view key);      // last key <= key
    void SeekToFirst();
    void SeekToLast();
    void Next();
    void Prev();
    std::string_view key() const;
    std::string_view value() const;
    Status status() const;

   private:
    friend class Storage;
    Iterator() = default;
    std::string lower_, upper_;  // must outlive the rocksdb iterator's bound slices
    std::unique_ptr<void, void (*)(void*)> bounds_{nullptr, nullptr};
    std::unique_ptr<rocksdb::Iterator> it_;
    uint64_t sequence_ = 0;  // the store's last write when it was made (Resume: nothing written since)
  };

  Status Get(std::string_view key, std::string* value, bool* found) const;
  // Reads several keys from one snapshot: every value is as of the same moment, so no write lands between them.
  // (*values)[i] and (*found)[i] answer keys[i]. One batched lookup costs less than a Get per key.
  Status MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                  std::vector<bool>* found) const;
  Status Write(Batch* batch);
  // False for a store in memory: it is gone when the process ends, so nothing is ever read back from it at Open.
  bool persistent() const { return !in_memory_; }
  // REQUIRES: lower <= upper; upper may be empty for "no upper bound".
  std::unique_ptr<Iterator> NewIterator(std::string lower, std::string upper) const;

  // A client paging through a Query or Scan asks next for what follows the key where its last page stopped. An
  // iterator parked there continues with one step, where a new one costs its creation and a seek (~9,000
  // instructions, 6% of a Query page). Resume gives back an iterator over [lower, upper) that was parked on key,
  // only if nothing was written since it was made: it then reads what a new iterator would. Parked iterators are
  // few and are let go at the next write, so they do not hold on to memory the store would free.
  // REQUIRES: it is valid (on an entry).
  void Park(std::unique_ptr<Iterator> it) const;
  // Null unless such an iterator was parked.
  std::unique_ptr<Iterator> Resume(std::string_view lower, std::string_view upper, std::string_view key) const;
  // Flushes memtables to disk (persistent stores); called on clean shutdown.
  Status Flush();

  // Asks for the space of what was deleted in [begin, end) (an empty end: no upper bound) to be given back soon,
  // in the background: the memtable is flushed, the range compacted (deleted entries and their tombstones are
  // dropped), and freed memory returned to the system. Cheap to call: it only records the range.
  void ReclaimSoon(std::string begin, std::string end);
  // Returns once every reclaim asked for before the call is done (tests).
  void WaitForReclaim() const;

  // What the store holds now, in bytes: its table files (in memory: the in-memory Env's files) and its memtables.
  struct Usage {
    uint64_t table_file_bytes = 0;
    uint64_t memtable_bytes = 0;
  };
  Usage GetUsage() const;

 private:
  Storage() = default;

  static constexpr size_t kMaxParked = 8;

  void DropParked() const;
  static Status OpenWith(rocksdb::Options options, const std::string& path, std::unique_ptr<Storage> storage,
                         std::unique_ptr<Storage>* out);
  // The reclaimer's work: flush, compact each range, give freed memory back.
  void Reclaim(const std::vector<std::pair<std::string, std::string>>& ranges);
  // After a failed write: lets a store stopped by an I/O error (a full disk) take writes again, if it can now.
  // True if it was resumed and the write may be tried again.
  bool ResumeAfterError();

  std::unique_ptr<rocksdb::Env> mem_env_;
  std::unique_ptr<rocksdb::Env> disk_env_;
  std::unique_ptr<rocksdb::Env> lazy_threads_env_;  // around mem_env_ or disk_env_: the one the database uses
  std::shared_ptr<rocksdb::Cache> block_cache_;  // the owner-only file system over the chosen Env
  std::unique_ptr<rocksdb::DB> db_;
  bool in_memory_ = true;
  mutable std::mutex parked_mu_;
  mutable std::vector<std::unique_ptr<Iterator>> parked_;  // oldest first
  mutable std::atomic<size_t> parked_count_{0};            // parked_.size(), read without the lock by writers
  std::mutex resume_mu_;
  std::chrono::steady_clock::time_point last_resume_{};  // guarded by resume_mu_
  std::unique_ptr<SpaceReclaimer> reclaimer_;            // made at Open; destroyed before the database closes
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_STORAGE_H_
