// Storage: the ordered key-value store under dynapage, RocksDB either in memory or in a directory.
//
// Everything a write implies (the item, its index entries, the table's counters) goes into one Batch and is
// applied atomically, so a reader never sees half of it. Readers iterate over a consistent snapshot. In memory
// the write-ahead log is skipped (there is nothing to recover); on disk it is kept, so an acknowledged write
// survives the process being killed.

#ifndef DYNAPAGE_ENGINE_STORAGE_STORAGE_H_
#define DYNAPAGE_ENGINE_STORAGE_STORAGE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"

namespace rocksdb {
class DB;
class Env;
class Iterator;
class WriteBatch;
}  // namespace rocksdb

namespace dynapage {

class Storage {
 public:
  // Opens the store: in memory when path is empty, else in directory path (created if missing).
  static Status Open(const std::string& path, std::unique_ptr<Storage>* out);
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

 private:
  Storage() = default;

  static constexpr size_t kMaxParked = 8;

  void DropParked() const;

  std::unique_ptr<rocksdb::Env> mem_env_;
  std::unique_ptr<rocksdb::DB> db_;
  bool in_memory_ = true;
  mutable std::mutex parked_mu_;
  mutable std::vector<std::unique_ptr<Iterator>> parked_;  // oldest first
  mutable std::atomic<size_t> parked_count_{0};            // parked_.size(), read without the lock by writers
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_STORAGE_H_
