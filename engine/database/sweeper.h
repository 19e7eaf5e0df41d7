// Sweeper: the background thread that deletes expired TTL items and trims stream records past their retention.
//
// Every interval (real time) it runs ExpireItems (engine/write/time_to_live.h) over every table with TTL enabled
// and WritePath::TrimStreams, with a context whose clock is the server's (so a clock set for tests drives it
// too). The same work runs on demand through SweepNow (the admin call POST /_dynapage/ttl/sweep). An interval of
// 0 starts no thread.

#ifndef DYNAPAGE_ENGINE_DATABASE_SWEEPER_H_
#define DYNAPAGE_ENGINE_DATABASE_SWEEPER_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"

namespace dynapage {

// One sweep: expired items of table_name (every TTL table when empty) deleted, old stream records trimmed.
Status SweepNow(Database* db, const RequestContext& ctx, const std::string& table_name, uint64_t* deleted);

class Sweeper {
 public:
  // REQUIRES: db and the context's clock outlive the sweeper.
  Sweeper(Database* db, RequestContext context, int64_t interval_ms);
  ~Sweeper();  // stops and joins the thread
  Sweeper(const Sweeper&) = delete;
  Sweeper& operator=(const Sweeper&) = delete;

 private:
  void Run();

  Database* db_;
  RequestContext context_;
  int64_t interval_ms_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_DATABASE_SWEEPER_H_
