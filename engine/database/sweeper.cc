#include "engine/database/sweeper.h"

#include <chrono>
#include <cstdio>
#include <utility>

#include "engine/write/backups.h"
#include "engine/write/time_to_live.h"

namespace dynapage {

Status SweepNow(Database* db, const RequestContext& ctx, const std::string& table_name, uint64_t* deleted) {
  DP_RETURN_IF_ERROR(ExpireItems(db->writes(), ctx, table_name, deleted));
  DP_RETURN_IF_ERROR(db->writes().TrimJournals(ctx));  // point-in-time recovery keeps its window, no more
  DP_RETURN_IF_ERROR(ExpireSystemBackups(db->writes(), ctx));
  uint64_t tombstones = 0;
  DP_RETURN_IF_ERROR(db->writes().SweepTombstones(ctx, &tombstones));
  return db->writes().TrimStreams(ctx);
}

void SweepAndLog(Database* db, const RequestContext& ctx) {
  uint64_t deleted = 0;
  Status s = SweepNow(db, ctx, "", &deleted);
  if (!s.ok()) std::fprintf(stderr, "dynapage: TTL sweep: %s\n", s.message().c_str());
}

Sweeper::Sweeper(std::function<void()> round, int64_t interval_ms)
    : round_(std::move(round)), interval_ms_(interval_ms) {
  if (interval_ms_ > 0) thread_ = std::thread([this] { Run(); });
}

Sweeper::Sweeper(Database* db, RequestContext context, int64_t interval_ms)
    : Sweeper([db, context = std::move(context)] { SweepAndLog(db, context); }, interval_ms) {}

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
    round_();
    lock.lock();
  }
}

}  // namespace dynapage
