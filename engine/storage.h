// Storage: the ordered key-value store under dynapage, RocksDB either in memory or in a directory.
//
// Everything a write implies (the item, its index entries, the table's counters) goes into one Batch and is
// applied atomically, so a reader never sees half of it. Readers iterate over a consistent snapshot. In memory
// the write-ahead log is skipped (there is nothing to recover); on disk it is kept, so an acknowledged write
// survives the process being killed.

#ifndef DYNAPAGE_ENGINE_STORAGE_H_
#define DYNAPAGE_ENGINE_STORAGE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace rocksdb {
class DB;
class Env;
class Iterator;
class Snapshot;
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
    Batch();
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
  };

  Status Get(std::string_view key, std::string* value, bool* found) const;
  // Reads several keys from one snapshot: every value is as of the same moment, so no write lands between them.
  // (*values)[i] and (*found)[i] answer keys[i]. One batched lookup costs less than a Get per key.
  Status MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                  std::vector<bool>* found) const;
  Status Write(Batch* batch);
  // REQUIRES: lower <= upper; upper may be empty for "no upper bound".
  std::unique_ptr<Iterator> NewIterator(std::string lower, std::string upper) const;
  // Flushes memtables to disk (persistent stores); called on clean shutdown.
  Status Flush();

 private:
  Storage() = default;

  std::unique_ptr<rocksdb::Env> mem_env_;
  std::unique_ptr<rocksdb::DB> db_;
  bool in_memory_ = true;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_H_
