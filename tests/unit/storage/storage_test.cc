// Storage: atomic batches, bounded iterators, and iterators parked between pages, which may be resumed only
// where they were parked and only while nothing has been written since; deleted data given back; writes taken
// again after a full disk is freed.

#include "engine/storage/storage.h"

#include <gtest/gtest.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <rocksdb/listener.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace dynapage {
namespace {

class StorageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Storage::Open("", &storage_).ok());
    Write({"a1", "a2", "a3", "b1"});
  }

  void Write(const std::vector<std::string>& keys) {
    Storage::Batch batch;
    for (const auto& k : keys) batch.Put(k, "v" + k);
    ASSERT_TRUE(storage_->Write(&batch).ok());
  }

  // A new iterator over the a-keys, on key.
  std::unique_ptr<Storage::Iterator> On(const std::string& key) {
    auto it = storage_->NewIterator("a", "b");
    it->Seek(key);
    EXPECT_TRUE(it->Valid());
    EXPECT_EQ(key, it->key());
    return it;
  }

  std::vector<std::string> Rest(Storage::Iterator* it) {
    std::vector<std::string> keys;
    for (it->Next(); it->Valid(); it->Next()) keys.emplace_back(it->key());
    return keys;
  }

  std::unique_ptr<Storage> storage_;
};

TEST_F(StorageTest, BoundsLimitIteration) {
  auto it = storage_->NewIterator("a", "b");
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.emplace_back(it->key());
  EXPECT_EQ((std::vector<std::string>{"a1", "a2", "a3"}), keys);
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("a3", it->key());
}

TEST_F(StorageTest, MultiGetAnswersEachKeyInItsPlace) {
  // In order, out of order, repeated, and missing keys, from the memtable.
  for (const std::vector<std::string_view>& keys :
       {std::vector<std::string_view>{"a1", "a2", "a9", "b1"}, std::vector<std::string_view>{"b1", "a9", "a1", "a3"},
        std::vector<std::string_view>{"a3", "a3", "a0", "a2"}}) {
    std::vector<std::string> values;
    std::vector<bool> found;
    ASSERT_TRUE(storage_->MultiGet(keys, &values, &found).ok());
    ASSERT_EQ(keys.size(), values.size());
    ASSERT_EQ(keys.size(), found.size());
    for (size_t i = 0; i < keys.size(); i++) {
      bool present = keys[i] != "a9" && keys[i] != "a0";
      EXPECT_EQ(present, found[i]) << keys[i];
      EXPECT_EQ(present ? "v" + std::string(keys[i]) : "", values[i]) << keys[i];
    }
  }
}

// The same from table files on disk, which RocksDB's MultiGet searches file by file.
TEST(StorageOnDiskTest, MultiGetAnswersEachKeyInItsPlaceFromTableFiles) {
  char dir[] = "/tmp/dynapage-storage-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(dir));
  {
    std::unique_ptr<Storage> storage;
    ASSERT_TRUE(Storage::Open(dir, &storage).ok());
    // Three files, each over its own stretch of keys.
    for (const char* prefix : {"a", "m", "x"}) {
      Storage::Batch batch;
      for (int i = 0; i < 10; i++) batch.Put(prefix + std::to_string(i), std::string("v") + prefix + std::to_string(i));
      ASSERT_TRUE(storage->Write(&batch).ok());
      ASSERT_TRUE(storage->Flush().ok());
    }
    std::vector<std::string_view> keys = {"x3", "a1", "m5", "x9", "a0", "zz", "m0", "a9"};
    std::vector<std::string> values;
    std::vector<bool> found;
    ASSERT_TRUE(storage->MultiGet(keys, &values, &found).ok());
    for (size_t i = 0; i < keys.size(); i++) {
      bool present = keys[i] != "zz";
      EXPECT_EQ(present, found[i]) << keys[i];
      EXPECT_EQ(present ? "v" + std::string(keys[i]) : "", values[i]) << keys[i];
    }
  }
  std::system((std::string("rm -rf ") + dir).c_str());
}

TEST_F(StorageTest, AParkedIteratorResumesWhereItStopped) {
  EXPECT_EQ(nullptr, storage_->Resume("a", "b", "a2"));
  storage_->Park(On("a2"));
  auto it = storage_->Resume("a", "b", "a2");
  ASSERT_NE(nullptr, it);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("a2", it->key());
  EXPECT_EQ("va2", it->value());
  EXPECT_EQ((std::vector<std::string>{"a3"}), Rest(it.get()));
  // Taken: it is not there twice.
  EXPECT_EQ(nullptr, storage_->Resume("a", "b", "a2"));
}

TEST_F(StorageTest, OnlyTheSameBoundsAndKeyResume) {
  storage_->Park(On("a2"));
  EXPECT_EQ(nullptr, storage_->Resume("a", "b", "a1"));
  EXPECT_EQ(nullptr, storage_->Resume("a", "c", "a2"));
  EXPECT_EQ(nullptr, storage_->Resume("a2", "b", "a2"));
  EXPECT_NE(nullptr, storage_->Resume("a", "b", "a2"));
}

// Any write, to any key, lets every parked iterator go: a resumed one would not see it.
TEST_F(StorageTest, AWriteEndsEveryParkedIterator) {
  storage_->Park(On("a1"));
  storage_->Park(On("a2"));
  Write({"z"});
  EXPECT_EQ(nullptr, storage_->Resume("a", "b", "a1"));
  EXPECT_EQ(nullptr, storage_->Resume("a", "b", "a2"));
  // An iterator made before the write and parked after it is not resumed either.
  auto before = On("a1");
  Write({"a15"});
  storage_->Park(std::move(before));
  EXPECT_EQ(nullptr, storage_->Resume("a", "b", "a1"));
  auto fresh = On("a1");
  EXPECT_EQ((std::vector<std::string>{"a15", "a2", "a3"}), Rest(fresh.get()));
}

TEST_F(StorageTest, OnlyTheNewestParkedIteratorsAreKept) {
  for (int i = 0; i < 20; i++) storage_->Park(On(i % 2 ? "a1" : "a3"));
  int resumed = 0;
  while (storage_->Resume("a", "b", "a1")) resumed++;
  while (storage_->Resume("a", "b", "a3")) resumed++;
  EXPECT_GT(resumed, 0);
  EXPECT_LT(resumed, 20);
}

// The store closes with iterators still parked.
TEST_F(StorageTest, ClosesWithParkedIterators) {
  storage_->Park(On("a1"));
  storage_->Park(On("a3"));
  storage_.reset();
  SUCCEED();
}

// Counts the flushes RocksDB finishes.
class FlushCounter : public rocksdb::EventListener {
 public:
  const char* Name() const override { return "FlushCounter"; }
  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo&) override { flushes++; }
  std::atomic<int> flushes{0};
};

// A store in memory is thrown away when it closes: its memtable is not first written into table files that go
// with it (RocksDB does that for writes that skipped the write-ahead log, unless told not to).
TEST(StorageInMemoryTest, ClosesWithoutFlushingItsMemtable) {
  auto counter = std::make_shared<FlushCounter>();
  std::unique_ptr<Storage> storage;
  ASSERT_TRUE(Storage::OpenInMemory(counter, &storage).ok());
  Storage::Batch batch;
  for (int i = 0; i < 1000; i++) batch.Put("k" + std::to_string(i), std::string(100, 'x'));
  ASSERT_TRUE(storage->Write(&batch).ok());
  // The counter hears flushes: a reclaim flushes the memtable.
  storage->ReclaimSoon("k", "l");
  storage->WaitForReclaim();
  const int flushed_by_reclaim = counter->flushes.load();
  ASSERT_GE(flushed_by_reclaim, 1);
  ASSERT_TRUE(storage->Write(&batch).ok());
  storage.reset();
  EXPECT_EQ(flushed_by_reclaim, counter->flushes.load());
}

// --- Deleted data given back (ReclaimSoon).

// Puts count items of 1 KB under keys "k<number>", in batches of 1,000.
void PutItems(Storage* storage, int count) {
  const std::string value(1000, 'x');
  for (int start = 0; start < count; start += 1000) {
    Storage::Batch batch;
    for (int i = start; i < start + 1000 && i < count; i++) batch.Put("k" + std::to_string(100000 + i), value);
    ASSERT_TRUE(storage->Write(&batch).ok());
  }
}

uint64_t Held(const Storage& storage) {
  Storage::Usage usage = storage.GetUsage();
  return usage.table_file_bytes + usage.memtable_bytes;
}

// 80 MB of items: more than one memtable, so that some are in table files (in memory) when they are deleted.
constexpr int kManyItems = 80000;

TEST(StorageReclaimTest, ItemsDeletedOneByOneAreGivenBack) {
  std::unique_ptr<Storage> storage;
  ASSERT_TRUE(Storage::Open("", &storage).ok());
  PutItems(storage.get(), kManyItems);
  ASSERT_GT(Held(*storage), 70u << 20);
  for (int start = 0; start < kManyItems; start += 1000) {
    Storage::Batch batch;
    for (int i = start; i < start + 1000; i++) batch.Delete("k" + std::to_string(100000 + i));
    ASSERT_TRUE(storage->Write(&batch).ok());
  }
  // Deleted, but held all the same: in the memtable and the table files, with tombstones on top.
  EXPECT_GT(Held(*storage), 70u << 20);
  storage->ReclaimSoon("k", "l");
  storage->WaitForReclaim();
  EXPECT_LT(Held(*storage), 1u << 20);
}

TEST(StorageReclaimTest, ARangeDeletedIsGivenBackAndTheRestKept) {
  std::unique_ptr<Storage> storage;
  ASSERT_TRUE(Storage::Open("", &storage).ok());
  PutItems(storage.get(), kManyItems);
  Storage::Batch keep;
  keep.Put("z", "kept");
  Storage::Batch range;
  range.DeleteRange("k", "l");
  ASSERT_TRUE(storage->Write(&keep).ok());
  ASSERT_TRUE(storage->Write(&range).ok());
  storage->ReclaimSoon("k", "l");
  storage->WaitForReclaim();
  EXPECT_LT(Held(*storage), 1u << 20);
  std::string value;
  bool found = false;
  ASSERT_TRUE(storage->Get("z", &value, &found).ok());
  EXPECT_TRUE(found);
  EXPECT_EQ("kept", value);
  ASSERT_TRUE(storage->Get("k100000", &value, &found).ok());
  EXPECT_FALSE(found);
}

// --- A full disk.

// A file system whose disk can be made full: appending to any file then fails with ENOSPC, as write(2) does.
class FullDiskFileSystem : public rocksdb::FileSystemWrapper {
 public:
  FullDiskFileSystem() : FileSystemWrapper(rocksdb::FileSystem::Default()) {}
  const char* Name() const override { return "FullDisk"; }
  std::atomic<bool> full{false};

  rocksdb::IOStatus NewWritableFile(const std::string& path, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->NewWritableFile(path, options, result, dbg);
    if (s.ok()) *result = std::make_unique<File>(std::move(*result), &full);
    return s;
  }

 private:
  class File : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    File(std::unique_ptr<rocksdb::FSWritableFile> target, const std::atomic<bool>* full)
        : FSWritableFileOwnerWrapper(std::move(target)), full_(full) {}
    rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override {
      if (*full_) return rocksdb::IOStatus::NoSpace("No space left on device");
      return FSWritableFileOwnerWrapper::Append(data, options, dbg);
    }
    rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                             const rocksdb::DataVerificationInfo& info, rocksdb::IODebugContext* dbg) override {
      if (*full_) return rocksdb::IOStatus::NoSpace("No space left on device");
      return FSWritableFileOwnerWrapper::Append(data, options, info, dbg);
    }

   private:
    const std::atomic<bool>* full_;
  };
};

bool WriteKey(Storage* storage, const std::string& key) {
  Storage::Batch batch;
  batch.Put(key, "v" + key);
  return storage->Write(&batch).ok();
}

// Every key of written is there with its value, and no key of refused.
void ExpectExactly(const Storage& storage, const std::vector<std::string>& written,
                   const std::vector<std::string>& refused) {
  for (const std::string& key : written) {
    std::string value;
    bool found = false;
    ASSERT_TRUE(storage.Get(key, &value, &found).ok());
    EXPECT_TRUE(found) << key;
    EXPECT_EQ("v" + key, value);
  }
  for (const std::string& key : refused) {
    std::string value;
    bool found = true;
    ASSERT_TRUE(storage.Get(key, &value, &found).ok());
    EXPECT_FALSE(found) << key;
  }
}

TEST(StorageDiskFullTest, WritesSucceedAgainOnceSpaceIsFreedAndNoneIsLost) {
  char dir[] = "/tmp/dynapage-storage-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(dir));
  auto disk = std::make_shared<FullDiskFileSystem>();
  std::unique_ptr<rocksdb::Env> env = rocksdb::NewCompositeEnv(disk);
  std::vector<std::string> written, refused;
  {
    std::unique_ptr<Storage> storage;
    ASSERT_TRUE(Storage::Open(dir, env.get(), &storage).ok());
    for (int i = 0; i < 100; i++) {
      written.push_back("before" + std::to_string(i));
      ASSERT_TRUE(WriteKey(storage.get(), written.back()));
    }
    disk->full = true;
    for (int i = 0; i < 5; i++) {
      refused.push_back("full" + std::to_string(i));
      Storage::Batch batch;
      batch.Put(refused.back(), "v");
      Status s = storage->Write(&batch);
      EXPECT_EQ(ErrorCode::kInternal, s.code()) << s.message();  // InternalServerError, HTTP 500
    }
    EXPECT_FALSE(storage->Flush().ok());
    disk->full = false;
    // The store tries to resume at most once a second while writes fail: within a few seconds, without a
    // restart, writes are taken again.
    bool resumed = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (int i = 0; !resumed && std::chrono::steady_clock::now() < deadline; i++) {
      std::string key = "after" + std::to_string(i);
      resumed = WriteKey(storage.get(), key);
      (resumed ? written : refused).push_back(key);
      if (!resumed) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_TRUE(resumed);
    for (int i = 0; i < 100; i++) {
      written.push_back("later" + std::to_string(i));
      ASSERT_TRUE(WriteKey(storage.get(), written.back()));
    }
    ExpectExactly(*storage, written, refused);
  }
  // And after the process is gone: every acknowledged write was kept, none of the refused ones.
  {
    std::unique_ptr<Storage> storage;
    ASSERT_TRUE(Storage::Open(dir, &storage).ok());
    ExpectExactly(*storage, written, refused);
  }
  std::system((std::string("rm -rf ") + dir).c_str());
}

}  // namespace
}  // namespace dynapage
