// Sweeper: the background thread that deletes expired TTL items and replica tombstones, and trims stream records
// past their retention.
//
// Every interval (real time) it runs a round: for a database, ExpireItems (engine/write/time_to_live.h) over every
// table with TTL enabled and WritePath::TrimStreams, with a context whose clock is the server's (so a clock set
// for tests drives it too). One sweeper serves every namespace of a process (DatabaseSet::StartSweepers gives it a
// round over all of them), so the thread count does not grow with the namespaces. The same work runs on demand
// through SweepNow (the admin call POST /_dynapage/ttl/sweep). An interval of 0 starts no thread.

#ifndef DYNAPAGE_ENGINE_DATABASE_SWEEPER_H_
#define DYNAPAGE_ENGINE_DATABASE_SWEEPER_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"

namespace dynapage {

// One sweep: expired items of table_name (every TTL table when empty) deleted, tombstones of replicated deletions
// past their retention (engine/write/replication.h) deleted, old stream records trimmed.
Status SweepNow(Database* db, const RequestContext& ctx, const std::string& table_name, uint64_t* deleted);

class Sweeper {
 public:
  // Runs round every interval_ms. REQUIRES: what round uses outlives the sweeper.
  Sweeper(std::function<void()> round, int64_t interval_ms);
  // Sweeps db alone. REQUIRES: db and the context's clock outlive the sweeper.
  Sweeper(Database* db, RequestContext context, int64_t interval_ms);
  ~Sweeper();  // stops and joins the thread
  Sweeper(const Sweeper&) = delete;
  Sweeper& operator=(const Sweeper&) = delete;

 private:
  void Run();

  std::function<void()> round_;
  int64_t interval_ms_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// SweepNow(db, ctx, every table), its failure logged: one database's share of a sweeper's round.
void SweepAndLog(Database* db, const RequestContext& ctx);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_SWEEPER_H_
