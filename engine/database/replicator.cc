#include "engine/database/replicator.h"

#include <cstdio>
#include <map>
#include <utility>

#include "engine/base/clock.h"

namespace dynapage {

namespace {
class NamespaceSink : public ReplicationSink {
 public:
  NamespaceSink(Replicator* replicator, Caller from) : replicator_(replicator), from_(std::move(from)) {}
  void Send(std::vector<ReplicatedWrite> writes) override { replicator_->Enqueue(from_, std::move(writes)); }

 private:
  Replicator* replicator_;
  Caller from_;
};
}  // namespace

Replicator::Replicator(DatabaseFinder find) : find_(std::move(find)) { context_.clock = SystemClock::Get(); }

Replicator::~Replicator() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Replicator::SetContext(const RequestContext& context) {
  std::lock_guard<std::mutex> lock(mu_);
  context_ = context;
}

std::unique_ptr<ReplicationSink> Replicator::SinkFor(const Caller& from) {
  return std::make_unique<NamespaceSink>(this, from);
}

void Replicator::Enqueue(const Caller& from, std::vector<ReplicatedWrite> writes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(Batch{from, std::move(writes)});
    queued_++;
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  wake_.notify_one();
}

void Replicator::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  const uint64_t target = queued_;
  drained_.wait(lock, [&] { return applied_ >= target || !thread_.joinable(); });
}

void Replicator::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything applied
    Batch batch = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    Apply(&batch);
    lock.lock();
    applied_++;
    drained_.notify_all();
  }
}

void Replicator::Apply(Batch* batch) {
  RequestContext context;
  {
    std::lock_guard<std::mutex> lock(mu_);
    context = context_;
  }
  // The writes of one call, by region and table: one ApplyReplicated each.
  std::map<std::pair<std::string, std::string>, std::vector<ReplicatedWrite>> targets;
  for (ReplicatedWrite& write : batch->writes) {
    for (const std::string& region : write.to_regions) targets[{region, write.table}].push_back(write);
  }
  for (auto& [target, writes] : targets) {
    context.caller = batch->from;
    context.caller.region = target.first;
    Database* db = nullptr;
    size_t applied = 0;
    Status s = find_(context.caller, &db);
    if (s.ok()) s = db->writes().ApplyReplicated(context, target.second, batch->from.region, &writes, &applied);
    if (!s.ok()) {
      std::fprintf(stderr, "dynapage: replicating %s to %s: %s\n", target.second.c_str(), target.first.c_str(),
                   s.message().c_str());
    }
  }
}

}  // namespace dynapage
