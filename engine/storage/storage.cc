#include "engine/storage/storage.h"

#include <algorithm>
#include <mutex>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/iterator.h>
#include <rocksdb/listener.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include "engine/base/check.h"
#include "engine/storage/in_memory_env.h"
#include "engine/storage/lazy_threads_env.h"
#include "engine/storage/memtable_pages.h"
#include "engine/storage/owner_only_file_system.h"
#include "engine/storage/space_reclaimer.h"

namespace dynapage {

namespace {
rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }
Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return Status::OK();
  // docs/behaviour.md §9, "Storage": a full disk is an InternalServerError, whose message names no file.
  if (s.IsNoSpace()) return Status::Internal("storage: no space left on device; the write was not applied");
  return Status::Internal("storage: " + s.ToString());
}
struct Bounds {
  rocksdb::Slice lower, upper;
};
}  // namespace

namespace {

// The block cache RocksDB would make by itself (8 MB), made here so that a reclaim can empty it.
constexpr size_t kBlockCacheBytes = 8 << 20;

// RocksDB's own recovery from a full disk polls the free space every few seconds and, while it runs, answers
// DB::Resume with Busy: writes would stay refused for seconds after space is freed, and on some file systems for
// good. The store resumes by itself instead (Storage::ResumeAfterError, on the next write, at most once a second).
class ManualRecoveryOnly : public rocksdb::EventListener {
 public:
  const char* Name() const override { return "ManualRecoveryOnly"; }
  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason, rocksdb::Status, bool* auto_recovery) override {
    *auto_recovery = false;
  }
};

rocksdb::Options StoreOptions(const std::shared_ptr<rocksdb::Cache>& block_cache) {
  rocksdb::Options options;
  options.listeners.push_back(std::make_shared<ManualRecoveryOnly>());
  options.create_if_missing = true;
  // Small footprint at idle: RocksDB allocates lazily; cap the background work for a 2-core laptop or CI box.
  options.max_background_jobs = 2;
  options.write_buffer_size = 64 << 20;
  // The memtable grows in blocks of one huge page (engine/storage/memtable_pages.h): past the process's first
  // 4 MiB of them, a load faults once every 2 MiB instead of every 4 KiB.
  options.arena_block_size = kMemtableBlockBytes;
  options.max_open_files = 256;
  options.info_log_level = rocksdb::InfoLogLevel::HEADER_LEVEL;
  options.keep_log_file_num = 1;
  options.compression = rocksdb::kNoCompression;
  // Start-up: RocksDB would start up to 16 threads to open table files, even for an empty database, and a
  // statistics timer; neither is worth its milliseconds here.
  options.max_file_opening_threads = 1;
  options.stats_dump_period_sec = 0;
  options.stats_persist_period_sec = 0;
  options.skip_stats_update_on_db_open = true;
  // Every write looks up the item it replaces, and most writes (a load) create new items: a Bloom filter over
  // the memtable's keys and the table files' keys answers "not there" without searching. The memtable's
  // filter takes 0.2% of the 64 MB write buffer (~130 KB: about 10 bits a key at 100,000 items).
  options.memtable_prefix_bloom_size_ratio = 0.002;
  options.memtable_whole_key_filtering = true;
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table_options.block_cache = block_cache;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options));
  return options;
}

// glibc raises its thresholds as the process frees large blocks, up to mmap 32 MB and trim 64 MB: every thread's
// arena may then keep 64 MB of free memory at its top for ever, which malloc_trim does not give back either (it
// trims only the main arena's top). Fixed thresholds: blocks up to 32 MB from the arenas (the same as the
// raised threshold: no system call per large request buffer), and an arena's top given back beyond 4 MB.
void LimitAllocatorRetention() {
#ifdef __GLIBC__
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 4 << 20);
  });
#endif
}

// While the disk stays full, each write tried would otherwise make RocksDB attempt a flush.
constexpr std::chrono::seconds kResumeInterval{1};

}  // namespace

Status Storage::Open(const std::string& path, std::unique_ptr<Storage>* out) {
  if (!path.empty()) return Open(path, nullptr, out);
  return OpenInMemory(nullptr, out);
}

Status Storage::OpenInMemory(std::shared_ptr<rocksdb::EventListener> listener, std::unique_ptr<Storage>* out) {
  std::unique_ptr<Storage> storage(new Storage());
  storage->block_cache_ = rocksdb::NewLRUCache(kBlockCacheBytes);
  rocksdb::Options options = StoreOptions(storage->block_cache_);
  if (listener) options.listeners.push_back(std::move(listener));
  storage->mem_env_ = NewInMemoryEnv();
  storage->lazy_threads_env_ = NewLazyThreadsEnv(storage->mem_env_.get());
  options.env = storage->lazy_threads_env_.get();
  options.fail_if_options_file_error = false;  // the in-memory Env keeps no OPTIONS file
  // Writes skip the write-ahead log here, so RocksDB would flush the memtables into the in-memory Env when the
  // store closes, to keep data that is about to be thrown away with it: ~100 ms of CPU at 100,000 items, on
  // every stop of a server (a test fixture's teardown) for nothing.
  options.avoid_flush_during_shutdown = true;
  storage->in_memory_ = true;
  return OpenWith(std::move(options), "/dynapage-in-memory", std::move(storage), out);
}

Status Storage::Open(const std::string& path, rocksdb::Env* env, std::unique_ptr<Storage>* out) {
  DP_DCHECK(!path.empty());
  rocksdb::IOStatus made = MakeOwnerOnlyDirectory(path);
  if (!made.ok()) return Status::Internal("cannot open storage at " + path + ": " + made.ToString());
  std::unique_ptr<Storage> storage(new Storage());
  storage->block_cache_ = rocksdb::NewLRUCache(kBlockCacheBytes);
  rocksdb::Options options = StoreOptions(storage->block_cache_);
  rocksdb::Env* base = env ? env : rocksdb::Env::Default();
  storage->disk_env_ = rocksdb::NewCompositeEnv(NewOwnerOnlyFileSystem(base->GetFileSystem()));
  storage->lazy_threads_env_ = NewLazyThreadsEnv(storage->disk_env_.get());
  options.env = storage->lazy_threads_env_.get();
  storage->in_memory_ = false;
  return OpenWith(std::move(options), path, std::move(storage), out);
}

Status Storage::OpenWith(rocksdb::Options options, const std::string& path, std::unique_ptr<Storage> storage,
                         std::unique_ptr<Storage>* out) {
  LimitAllocatorRetention();
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &db);
  if (!s.ok()) return Status::Internal("cannot open storage at " + path + ": " + s.ToString());
  storage->db_.reset(db);
  Storage* self = storage.get();
  storage->reclaimer_ = std::make_unique<SpaceReclaimer>(
      [self](const std::vector<SpaceReclaimer::Range>& ranges) { self->Reclaim(ranges); });
  *out = std::move(storage);
  return Status::OK();
}

Storage::~Storage() {
  if (db_) db_->DisableManualCompaction();  // a reclaim in progress stops at once
  reclaimer_.reset();
  DropParked();  // before the database closes: RocksDB's iterators must not outlive it
  if (db_) {
    db_->Close();
    db_.reset();
  }
}

Storage::Batch::Batch(size_t reserved_bytes) : batch_(new rocksdb::WriteBatch(reserved_bytes)) {}
Storage::Batch::~Batch() = default;
void Storage::Batch::Put(std::string_view key, std::string_view value) { batch_->Put(ToSlice(key), ToSlice(value)); }
void Storage::Batch::Delete(std::string_view key) { batch_->Delete(ToSlice(key)); }
void Storage::Batch::DeleteRange(std::string_view begin, std::string_view end) {
  batch_->DeleteRange(ToSlice(begin), ToSlice(end));
}
size_t Storage::Batch::Count() const { return batch_->Count(); }

Storage::Iterator::~Iterator() { it_.reset(); }
bool Storage::Iterator::Valid() const { return it_->Valid(); }
void Storage::Iterator::Seek(std::string_view key) { it_->Seek(ToSlice(key)); }
void Storage::Iterator::SeekForPrev(std::string_view key) { it_->SeekForPrev(ToSlice(key)); }
void Storage::Iterator::SeekToFirst() { it_->SeekToFirst(); }
void Storage::Iterator::SeekToLast() { it_->SeekToLast(); }
void Storage::Iterator::Next() { it_->Next(); }
void Storage::Iterator::Prev() { it_->Prev(); }
std::string_view Storage::Iterator::key() const {
  rocksdb::Slice k = it_->key();
  return std::string_view(k.data(), k.size());
}
std::string_view Storage::Iterator::value() const {
  rocksdb::Slice v = it_->value();
  return std::string_view(v.data(), v.size());
}
Status Storage::Iterator::status() const { return FromRocks(it_->status()); }

Status Storage::Get(std::string_view key, std::string* value, bool* found) const {
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), ToSlice(key), value);
  *found = s.ok();
  if (s.IsNotFound()) return Status::OK();
  return FromRocks(s);
}

Status Storage::MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                         std::vector<bool>* found) const {
  const size_t n = keys.size();
  values->assign(n, std::string());
  found->assign(n, false);
  std::vector<rocksdb::Slice> slices;
  slices.reserve(n);
  for (std::string_view key : keys) slices.push_back(ToSlice(key));
  std::vector<rocksdb::PinnableSlice> pinned(n);
  std::vector<rocksdb::Status> statuses(n);
  // RocksDB's MultiGet reads every key at one sequence number, the consistent view an explicit snapshot would
  // give, without the DB mutex a snapshot takes twice. Keys already in order (a batch written in key order)
  // spare it sorting them.
  bool sorted = std::is_sorted(keys.begin(), keys.end());
  db_->MultiGet(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), n, slices.data(), pinned.data(),
                statuses.data(), sorted);
  for (size_t i = 0; i < n; i++) {
    if (statuses[i].IsNotFound()) continue;
    if (!statuses[i].ok()) return FromRocks(statuses[i]);
    (*values)[i].assign(pinned[i].data(), pinned[i].size());
    (*found)[i] = true;
  }
  return Status::OK();
}

Status Storage::Write(Batch* batch) {
  rocksdb::WriteOptions options;
  options.disableWAL = in_memory_;
  rocksdb::Status written = db_->Write(options, batch->batch_.get());
  // A failed write was not applied: once the store takes writes again, trying it again is safe.
  if (written.IsIOError() && ResumeAfterError()) written = db_->Write(options, batch->batch_.get());
  Status s = FromRocks(written);
  if (parked_count_.load(std::memory_order_relaxed) > 0) DropParked();
  return s;
}

std::unique_ptr<Storage::Iterator> Storage::NewIterator(std::string lower, std::string upper) const {
  DP_DCHECK(upper.empty() || lower <= upper);
  std::unique_ptr<Iterator> it(new Iterator());
  it->lower_ = std::move(lower);
  it->upper_ = std::move(upper);
  auto* bounds = new Bounds{rocksdb::Slice(it->lower_), rocksdb::Slice(it->upper_)};
  it->bounds_ = std::unique_ptr<void, void (*)(void*)>(bounds, [](void* p) { delete static_cast<Bounds*>(p); });
  rocksdb::ReadOptions options;
  options.iterate_lower_bound = &bounds->lower;
  if (!it->upper_.empty()) options.iterate_upper_bound = &bounds->upper;
  // Read before the iterator takes its implicit snapshot: if the store's last write is still this one when the
  // iterator is resumed, the snapshot holds every write there is.
  it->sequence_ = db_->GetLatestSequenceNumber();
  it->it_.reset(db_->NewIterator(options));
  return it;
}

void Storage::Park(std::unique_ptr<Iterator> it) const {
  std::unique_ptr<Iterator> dropped;  // destroyed outside the lock
  std::lock_guard<std::mutex> lock(parked_mu_);
  if (parked_.size() == kMaxParked) {
    dropped = std::move(parked_.front());
    parked_.erase(parked_.begin());
  }
  parked_.push_back(std::move(it));
  parked_count_.store(parked_.size(), std::memory_order_relaxed);
}

std::unique_ptr<Storage::Iterator> Storage::Resume(std::string_view lower, std::string_view upper,
                                                   std::string_view key) const {
  if (parked_count_.load(std::memory_order_relaxed) == 0) return nullptr;
  const uint64_t sequence = db_->GetLatestSequenceNumber();
  std::lock_guard<std::mutex> lock(parked_mu_);
  for (auto p = parked_.rbegin(); p != parked_.rend(); ++p) {
    Iterator& it = **p;
    if (it.sequence_ == sequence && it.lower_ == lower && it.upper_ == upper && it.key() == key) {
      std::unique_ptr<Iterator> found = std::move(*p);
      parked_.erase(std::next(p).base());
      parked_count_.store(parked_.size(), std::memory_order_relaxed);
      return found;
    }
  }
  return nullptr;
}

void Storage::DropParked() const {
  std::vector<std::unique_ptr<Iterator>> dropped;
  std::lock_guard<std::mutex> lock(parked_mu_);
  dropped.swap(parked_);
  parked_count_.store(0, std::memory_order_relaxed);
}

Status Storage::Flush() {
  if (in_memory_) return Status::OK();
  return FromRocks(db_->Flush(rocksdb::FlushOptions()));
}

bool Storage::ResumeAfterError() {
  std::lock_guard<std::mutex> lock(resume_mu_);
  const auto now = std::chrono::steady_clock::now();
  if (last_resume_ != std::chrono::steady_clock::time_point() && now - last_resume_ < kResumeInterval) return false;
  last_resume_ = now;
  // Resume clears RocksDB's background error and flushes every memtable to new table files, so the write-ahead
  // log the failed write may have left a torn record in is no longer needed; it fails while the disk is full.
  if (!db_->Resume().ok()) return false;
  last_resume_ = std::chrono::steady_clock::time_point();
  return true;
}

void Storage::ReclaimSoon(std::string begin, std::string end) {
  reclaimer_->Request({std::move(begin), std::move(end)});
}

void Storage::WaitForReclaim() const { reclaimer_->WaitUntilIdle(); }

void Storage::Reclaim(const std::vector<std::pair<std::string, std::string>>& ranges) {
  DropParked();  // a parked iterator pins the memtables and files the compaction is to free
  // The memtable holds the tombstones (and maybe the deleted items): flushing it frees its memory and lets the
  // compaction see them. Best effort: a failure (a full disk) leaves things as they were.
  rocksdb::FlushOptions flush;
  flush.allow_write_stall = true;
  if (!db_->Flush(flush).ok()) return;
  rocksdb::CompactRangeOptions compact;
  compact.exclusive_manual_compaction = false;  // automatic compactions go on beside it
  for (const auto& [begin, end] : ranges) {
    rocksdb::Slice lower(begin), upper(end);
    if (!db_->CompactRange(compact, &lower, end.empty() ? nullptr : &upper).ok()) return;
  }
  // The cached blocks of the files just deleted are of no more use; the others are read again as needed.
  block_cache_->EraseUnRefEntries();
#ifdef __GLIBC__
  // glibc keeps freed memory in its arenas for later allocations; hand the free pages back to the system.
  malloc_trim(0);
#endif
}

Storage::Usage Storage::GetUsage() const {
  Usage usage;
  db_->GetIntProperty(rocksdb::DB::Properties::kTotalSstFilesSize, &usage.table_file_bytes);
  db_->GetIntProperty(rocksdb::DB::Properties::kSizeAllMemTables, &usage.memtable_bytes);
  return usage;
}

}  // namespace dynapage
