#include "engine/transfer/local_object_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace dynapage {
namespace {

class LocalObjectStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("dynapage-s3-" + std::to_string(getpid()));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "bucket");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::filesystem::path root_;
};

TEST_F(LocalObjectStoreTest, WritesReadsAndListsByRawPrefix) {
  LocalObjectStore store(root_.string());
  EXPECT_TRUE(store.BucketExists("bucket"));
  EXPECT_FALSE(store.BucketExists("other"));
  ASSERT_TRUE(store.Write("bucket", "data/a.json", "one").ok());
  ASSERT_TRUE(store.Write("bucket", "data2/x", "two").ok());
  ASSERT_TRUE(store.Write("bucket", "other/y", "three").ok());
  std::string contents;
  ASSERT_TRUE(store.Read("bucket", "data2/x", &contents).ok());
  EXPECT_EQ(contents, "two");
  std::vector<std::string> keys;
  ASSERT_TRUE(store.ListKeys("bucket", "data", &keys).ok());
  EXPECT_EQ(keys, (std::vector<std::string>{"data/a.json", "data2/x"}));
  ASSERT_TRUE(store.ListKeys("bucket", "", &keys).ok());
  EXPECT_EQ(keys.size(), 3u);
  // No temporary file is left beside the objects.
  size_t files = 0;
  for (auto& entry : std::filesystem::recursive_directory_iterator(root_)) files += entry.is_regular_file();
  EXPECT_EQ(files, 3u);
}

TEST_F(LocalObjectStoreTest, RefusesKeysAndBucketsThatLeaveTheBucketFolder) {
  LocalObjectStore store(root_.string());
  EXPECT_EQ(store.Write("bucket", "../escape", "x").code(), ErrorCode::kValidation);
  EXPECT_EQ(store.Write("bucket", "a//b", "x").code(), ErrorCode::kValidation);
  EXPECT_EQ(store.Write("../bucket", "a", "x").code(), ErrorCode::kValidation);
  EXPECT_EQ(store.Write("bucket", "/etc/x", "x").code(), ErrorCode::kValidation);
  EXPECT_FALSE(std::filesystem::exists(root_ / "escape"));
}

}  // namespace
}  // namespace dynapage
