// Storage: atomic batches, bounded iterators, and iterators parked between pages, which may be resumed only
// where they were parked and only while nothing has been written since.

#include "engine/storage/storage.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
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

}  // namespace
}  // namespace dynapage
