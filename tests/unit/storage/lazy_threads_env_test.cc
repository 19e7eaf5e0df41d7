// The lazy-threads Env: a pool's threads are asked of the target when a job is first scheduled on it, not when a
// database asks for them; a database flushes and compacts through it.

#include "engine/storage/lazy_threads_env.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/storage/in_memory_env.h"

namespace dynapage {
namespace {

// Records what reaches it; runs scheduled jobs at once, on the caller's thread.
class RecordingEnv : public rocksdb::EnvWrapper {
 public:
  RecordingEnv() : EnvWrapper(rocksdb::Env::Default()) {}
  const char* Name() const override { return "Recording"; }
  void IncBackgroundThreadsIfNeeded(int number, Priority pri) override {
    calls.push_back("threads " + std::to_string(number) + " " + PriorityToString(pri));
  }
  int GetBackgroundThreads(Priority) override { return 0; }
  void Schedule(void (*function)(void*), void* arg, Priority pri, void*, void (*)(void*)) override {
    calls.push_back(std::string("job ") + PriorityToString(pri));
    function(arg);
  }
  std::vector<std::string> calls;
};

std::string Joined(const std::vector<std::string>& calls) {
  std::string joined;
  for (const std::string& call : calls) joined += call + "; ";
  return joined;
}

TEST(LazyThreadsEnvTest, APoolsThreadsAreAskedForWithItsFirstJob) {
  RecordingEnv target;
  std::unique_ptr<rocksdb::Env> env = NewLazyThreadsEnv(&target);
  env->IncBackgroundThreadsIfNeeded(2, rocksdb::Env::LOW);
  env->IncBackgroundThreadsIfNeeded(1, rocksdb::Env::HIGH);
  EXPECT_EQ("", Joined(target.calls));
  // What the database asked for, started or not: RocksDB would run flushes in the LOW pool if HIGH had none.
  EXPECT_EQ(2, env->GetBackgroundThreads(rocksdb::Env::LOW));
  EXPECT_EQ(1, env->GetBackgroundThreads(rocksdb::Env::HIGH));

  int runs = 0;
  auto job = [](void* arg) { ++*static_cast<int*>(arg); };
  env->Schedule(job, &runs, rocksdb::Env::HIGH);
  EXPECT_EQ(1, runs);
  EXPECT_EQ("threads 1 High; job High; ", Joined(target.calls));
  env->Schedule(job, &runs, rocksdb::Env::HIGH);
  EXPECT_EQ("threads 1 High; job High; job High; ", Joined(target.calls));
  // A started pool takes a larger request at once; the other pool still waits for its first job.
  env->IncBackgroundThreadsIfNeeded(3, rocksdb::Env::HIGH);
  env->IncBackgroundThreadsIfNeeded(4, rocksdb::Env::LOW);
  EXPECT_EQ("threads 1 High; job High; job High; threads 3 High; ", Joined(target.calls));
  env->Schedule(job, &runs, rocksdb::Env::LOW);
  EXPECT_EQ("threads 1 High; job High; job High; threads 3 High; threads 4 Low; job Low; ", Joined(target.calls));
  EXPECT_EQ(3, runs);
}

TEST(LazyThreadsEnvTest, ADatabaseFlushesAndCompactsThroughIt) {
  std::unique_ptr<rocksdb::Env> files = NewInMemoryEnv();
  std::unique_ptr<rocksdb::Env> env = NewLazyThreadsEnv(files.get());
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env.get();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, "/lazy-threads-env-test", &raw);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<rocksdb::DB> db(raw);
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k" + std::to_string(round), "v").ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());  // waits for the flush job
  }
  ASSERT_TRUE(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  std::string value;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "k2", &value).ok());
  EXPECT_EQ("v", value);
  // The table files are the in-memory Env's: the wrapper's file system is its target's.
  std::vector<std::string> children;
  ASSERT_TRUE(files->GetChildren("/lazy-threads-env-test", &children).ok());
  int tables = 0;
  for (const std::string& name : children) tables += name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0;
  EXPECT_LE(1, tables);
  EXPECT_EQ(env->GetFileSystem().get(), files->GetFileSystem().get());
}

}  // namespace
}  // namespace dynapage
