#include "server/http/client_cpu_affinity.h"

#include <sys/socket.h>
#include <time.h>

namespace dynapage {

namespace {
int64_t Ticks(std::chrono::steady_clock::time_point t) { return t.time_since_epoch().count(); }

int64_t ThreadCpuNanos() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}
}  // namespace

ClientCpuAffinity::ClientCpuAffinity() {
  CPU_ZERO(&allowed_);
  if (sched_getaffinity(0, sizeof(allowed_), &allowed_) != 0) return;  // cpu_count_ 0: nothing is followed
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (CPU_ISSET(cpu, &allowed_)) cpu_count_ = cpu + 1;
  }
  holds_.reset(new Hold[cpu_count_]);
}

ClientCpuAffinity::Connection::Connection(ClientCpuAffinity* shared, int sock)
    : shared_(shared), sock_(sock), id_(shared->next_id_.fetch_add(1)) {}

ClientCpuAffinity::Connection::~Connection() { Unpin(); }

void ClientCpuAffinity::Connection::AfterReceive() {
  if (!shared_->enabled_ || !trial_.following() || receives_++ % kCheckEvery != 0) return;
  int cpu = -1;
  socklen_t size = sizeof(cpu);
  if (getsockopt(sock_, SOL_SOCKET, SO_INCOMING_CPU, &cpu, &size) != 0) cpu = -1;
  seen_cpu_ = cpu;
  seen_ = true;
}

void ClientCpuAffinity::Connection::AfterResponse() {
  if (!shared_->enabled_) return;
  if (trial_.CountRequest()) {
    trial_.EndEpoch(ThreadCpuNanos());
    turn_.EndEpoch(FollowTrial::kEpochRequests);
  }
  if (!trial_.following()) {
    Unpin();
    seen_ = false;
    receives_ = 0;  // the client's CPU is looked up at the first receive once following again
    return;
  }
  int64_t now = Ticks(std::chrono::steady_clock::now());
  if (!seen_) {
    Touch(now);
    return;
  }
  seen_ = false;
  Follow(seen_cpu_, now);
}

void ClientCpuAffinity::Connection::Follow(int client_cpu, std::chrono::steady_clock::time_point now) {
  Follow(client_cpu, Ticks(now));
}

void ClientCpuAffinity::Connection::Follow(int client_cpu, int64_t now) {
  // A client on a CPU this process may not use, or one the kernel cannot name: the scheduler decides.
  if (client_cpu < 0 || client_cpu >= shared_->cpu_count_ || !CPU_ISSET(client_cpu, &shared_->allowed_)) {
    Unpin();
    return;
  }
  if (client_cpu == pinned_ && Touch(now)) return;
  // The client moved, or this connection's hold lapsed and was taken. The CPU is free, or its holder idle.
  Hold& hold = shared_->holds_[client_cpu];
  uint64_t holder = hold.holder.load();
  bool holder_idle = now - hold.last_request.load(std::memory_order_relaxed) >=
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(kHoldLapse).count();
  if (holder != 0 && holder != id_ && !holder_idle) {
    Unpin();
    return;
  }
  if (!hold.holder.compare_exchange_strong(holder, id_)) {  // another connection took it just now
    Unpin();
    return;
  }
  hold.last_request.store(now, std::memory_order_relaxed);
  Pin(client_cpu);
}

bool ClientCpuAffinity::Connection::Touch(int64_t now) {
  if (pinned_ < 0) return false;
  Hold& hold = shared_->holds_[pinned_];
  if (hold.holder.load(std::memory_order_relaxed) != id_) return false;
  hold.last_request.store(now, std::memory_order_relaxed);
  return true;
}

void ClientCpuAffinity::Connection::Pin(int cpu) {
  if (pinned_ >= 0 && pinned_ != cpu) {
    uint64_t mine = id_;
    shared_->holds_[pinned_].holder.compare_exchange_strong(mine, 0);
  }
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof(one), &one) != 0) {  // a CPU taken from the process since it started
    pinned_ = cpu;
    Unpin();
    return;
  }
  pinned_ = cpu;
  turn_.Begin();
}

void ClientCpuAffinity::Connection::Unpin() {
  if (pinned_ < 0) return;
  uint64_t mine = id_;
  shared_->holds_[pinned_].holder.compare_exchange_strong(mine, 0);
  sched_setaffinity(0, sizeof(shared_->allowed_), &shared_->allowed_);
  turn_.End();
  pinned_ = -1;
}

}  // namespace dynapage
