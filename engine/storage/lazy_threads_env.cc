#include "engine/storage/lazy_threads_env.h"

#include <algorithm>
#include <mutex>

#include "engine/base/check.h"

namespace dynapage {

namespace {

class LazyThreadsEnv : public rocksdb::EnvWrapper {
 public:
  explicit LazyThreadsEnv(rocksdb::Env* target) : EnvWrapper(target) {
    file_system_ = target->GetFileSystem();
    system_clock_ = target->GetSystemClock();
  }

  const char* Name() const override { return "DynapageLazyThreads"; }

  void IncBackgroundThreadsIfNeeded(int number, Priority pri) override {
    std::lock_guard<std::mutex> lock(mu_);
    Pool& pool = PoolOf(pri);
    pool.wanted = std::max(pool.wanted, number);
    if (pool.started) target()->IncBackgroundThreadsIfNeeded(number, pri);
  }

  int GetBackgroundThreads(Priority pri) override {
    int running = target()->GetBackgroundThreads(pri);
    std::lock_guard<std::mutex> lock(mu_);
    return std::max(running, PoolOf(pri).wanted);
  }

  void Schedule(void (*function)(void* arg), void* arg, Priority pri, void* tag,
                void (*unschedule)(void* arg)) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      Pool& pool = PoolOf(pri);
      if (!pool.started) {
        pool.started = true;
        if (pool.wanted > 0) target()->IncBackgroundThreadsIfNeeded(pool.wanted, pri);
      }
    }
    target()->Schedule(function, arg, pri, tag, unschedule);
  }

 private:
  struct Pool {
    int wanted = 0;
    bool started = false;
  };

  Pool& PoolOf(Priority pri) {
    DP_DCHECK(pri >= 0 && pri < Priority::TOTAL);
    return pools_[pri];
  }

  std::mutex mu_;
  Pool pools_[Priority::TOTAL];
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewLazyThreadsEnv(rocksdb::Env* target) {
  return std::make_unique<LazyThreadsEnv>(target);
}

}  // namespace dynapage
