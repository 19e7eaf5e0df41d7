#include "engine/database/sweeper.h"

#include <chrono>
#include <cstdio>

#include "engine/write/time_to_live.h"

namespace dynapage {

Status SweepNow(Database* db, const RequestContext& ctx, const std::string& table_name, uint64_t* deleted) {
  DP_RETURN_IF_ERROR(ExpireItems(db->writes(), ctx, table_name, deleted));
  return db->writes().TrimStreams(ctx);
}

Sweeper::Sweeper(Database* db, RequestContext context, int64_t interval_ms)
    : db_(db), context_(std::move(context)), interval_ms_(interval_ms) {
  if (interval_ms_ > 0) thread_ = std::thread([this] { Run(); });
}

Sweeper::~Sweeper() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Sweeper::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stopping_; })) {
    lock.unlock();
    uint64_t deleted = 0;
    Status s = SweepNow(db_, context_, "", &deleted);
    if (!s.ok()) std::fprintf(stderr, "dynapage: TTL sweep: %s\n", s.message().c_str());
    lock.lock();
  }
}

}  // namespace dynapage
