#include "engine/database/replicator.h"

#include <algorithm>
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

namespace {
// What a queued write holds, roughly: its item, its key and table name, and a fixed overhead.
size_t QueuedBytes(const std::vector<ReplicatedWrite>& writes) {
  size_t bytes = 0;
  for (const ReplicatedWrite& w : writes) {
    bytes += 128 + w.table.size() + w.key_suffix.size() + (w.item ? ItemSize(*w.item) : 0);
  }
  return bytes;
}
}  // namespace

Replicator::Replicator(DatabaseFinder find, ReplicatorOptions options) : find_(std::move(find)), options_(options) {
  context_.clock = SystemClock::Get();
}

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
    const size_t bytes = QueuedBytes(writes);
    if (queued_bytes_ + bytes <= options_.max_queued_bytes) {
      queued_bytes_ += bytes;
      peak_queued_bytes_ = std::max(peak_queued_bytes_, queued_bytes_);
      queue_.push_back(Batch{from, std::move(writes), bytes});
    } else {  // full: the tables are caught up once the queue is empty
      for (const ReplicatedWrite& w : writes) {
        catch_up_.emplace(from.access_key + '\n' + from.region + '\n' + w.table, CatchUp{from, w.table});
      }
    }
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  }
  wake_.notify_one();
}

void Replicator::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  drained_.wait(lock, [&] { return (queue_.empty() && catch_up_.empty() && !busy_) || !thread_.joinable(); });
}

size_t Replicator::peak_queued_bytes() {
  std::lock_guard<std::mutex> lock(mu_);
  return peak_queued_bytes_;
}

uint64_t Replicator::catch_ups() {
  std::lock_guard<std::mutex> lock(mu_);
  return catch_ups_;
}

void Replicator::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty() || !catch_up_.empty(); });
    // Queued writes and catch-ups take turns, so that neither waits for the other to run dry.
    const bool catch_up_now = !catch_up_.empty() && (queue_.empty() || catch_up_turn_);
    catch_up_turn_ = !catch_up_now;
    if (!catch_up_now && !queue_.empty()) {
      Batch batch = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= batch.bytes;
      busy_ = true;
      lock.unlock();
      Apply(&batch);
      lock.lock();
    } else if (catch_up_now) {
      CatchUp catch_up = std::move(catch_up_.begin()->second);
      catch_up_.erase(catch_up_.begin());  // a write dropped from now on marks the table again
      catch_ups_++;
      busy_ = true;
      lock.unlock();
      RunCatchUp(catch_up);
      lock.lock();
    } else {
      return;  // stopping, and everything applied
    }
    busy_ = false;
    drained_.notify_all();
  }
}

void Replicator::RunCatchUp(const CatchUp& catch_up) {
  std::string resume;
  do {
    Database* db = nullptr;
    Batch chunk{catch_up.from, {}, 0};
    Status s = find_(catch_up.from, &db);
    if (s.ok()) s = db->writes().ReadReplicatedChunk(catch_up.table, kCatchUpChunkBytes, &resume, &chunk.writes);
    if (!s.ok()) {
      std::fprintf(stderr, "dynapage: catching up %s from %s: %s\n", catch_up.table.c_str(),
                   catch_up.from.region.c_str(), s.message().c_str());
      return;
    }
    for (ReplicatedWrite& w : chunk.writes) {  // every other member: the source has them
      w.to_regions.erase(std::remove(w.to_regions.begin(), w.to_regions.end(), catch_up.from.region),
                         w.to_regions.end());
    }
    Apply(&chunk);
  } while (!resume.empty());
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
