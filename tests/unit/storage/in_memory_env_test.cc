// The in-memory Env: RocksDB opens, writes and reads through it, and it keeps no OPTIONS file.

#include "engine/storage/in_memory_env.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <memory>
#include <string>
#include <vector>

namespace dynapage {
namespace {

TEST(InMemoryEnvTest, DatabaseOpensWithoutAnOptionsFile) {
  std::unique_ptr<rocksdb::Env> env = NewInMemoryEnv();
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env.get();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, "/in-memory-env-test", &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<rocksdb::DB> db(raw);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k", "v").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());  // a table file, written through the wrapper
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "k", &value).ok());
  EXPECT_EQ("v", value);

  std::vector<std::string> children;
  ASSERT_TRUE(env->GetChildren("/in-memory-env-test", &children).ok());
  bool has_current = false, has_table = false;
  for (const std::string& name : children) {
    EXPECT_NE(0u, name.rfind("OPTIONS-", 0)) << name;
    has_current |= name == "CURRENT";
    has_table |= name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0;
  }
  EXPECT_TRUE(has_current);
  EXPECT_TRUE(has_table);
  ASSERT_TRUE(db->Close().ok());
}

TEST(InMemoryEnvTest, FilesAreKeptInMemory) {
  std::unique_ptr<rocksdb::Env> env = NewInMemoryEnv();
  // A path no real file system here has: creating it works only in memory.
  ASSERT_TRUE(env->CreateDirIfMissing("/nonexistent-dynapage-dir").ok());
  std::unique_ptr<rocksdb::WritableFile> file;
  ASSERT_TRUE(env->NewWritableFile("/nonexistent-dynapage-dir/f", &file, rocksdb::EnvOptions()).ok());
  ASSERT_TRUE(file->Append("data").ok());
  ASSERT_TRUE(file->Close().ok());
  EXPECT_TRUE(env->FileExists("/nonexistent-dynapage-dir/f").ok());
  EXPECT_FALSE(rocksdb::Env::Default()->FileExists("/nonexistent-dynapage-dir/f").ok());
}

}  // namespace
}  // namespace dynapage
