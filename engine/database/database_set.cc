#include "server/protocol/database_set.h"

#include <atomic>
#include <mutex>
#include <utility>

#include "engine/base/check.h"

namespace dynapage {

namespace {
// Appends text with every byte but letters, digits and '-' written as %XX.
void AppendEscaped(std::string_view text, std::string* out) {
  static const char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (plain) {
      out->push_back(static_cast<char>(c));
    } else {
      out->push_back('%');
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    }
  }
}

// The database a thread used last, and for whom: a connection's requests come from one caller, and are served by
// one thread, so most requests find their database here without making a name or taking the lock. Databases stay
// open while their set lives, and set ids are never reused, so an entry of a destroyed set never matches.
struct LastUsed {
  uint64_t set_id = 0;
  std::string access_key;
  std::string region;
  Database* db = nullptr;
};
thread_local LastUsed t_last_used;
std::atomic<uint64_t> g_next_set_id{1};  // ids of sets with namespaces
}  // namespace

bool ParseNamespaceMode(std::string_view text, NamespaceMode* out) {
  for (NamespaceMode mode : {NamespaceMode::kShared, NamespaceMode::kRegion, NamespaceMode::kAccessKeyRegion}) {
    if (text == NamespaceModeName(mode)) {
      *out = mode;
      return true;
    }
  }
  return false;
}

const char* NamespaceModeName(NamespaceMode mode) {
  switch (mode) {
    case NamespaceMode::kShared:
      return "shared";
    case NamespaceMode::kRegion:
      return "region";
    case NamespaceMode::kAccessKeyRegion:
      return "access-key-region";
  }
  return "shared";
}

std::string NamespaceName(NamespaceMode mode, const Caller& caller) {
  std::string name;
  if (mode == NamespaceMode::kShared) return name;
  if (mode == NamespaceMode::kAccessKeyRegion) {
    AppendEscaped(caller.access_key, &name);
    name.push_back('_');
  }
  AppendEscaped(caller.region, &name);
  name.append(".db");
  return name;
}

std::string AccountIdOf(std::string_view access_key) {
  bool twelve_digits = access_key.size() == 12;
  for (char c : access_key) twelve_digits = twelve_digits && c >= '0' && c <= '9';
  return twelve_digits ? std::string(access_key) : std::string(kDefaultAccountId);
}

DatabaseSet::DatabaseSet(Database* db) : mode_(NamespaceMode::kShared), shared_(db) { DP_DCHECK(db != nullptr); }

DatabaseSet::DatabaseSet(NamespaceMode mode, DatabaseOptions options)
    : mode_(mode), id_(g_next_set_id.fetch_add(1)), options_(std::move(options)) {
  DP_DCHECK(mode != NamespaceMode::kShared);
}

DatabaseSet::~DatabaseSet() {
  std::unique_lock<std::shared_mutex> lock(mu_);
  sweepers_.clear();  // before the databases they sweep
}

Status DatabaseSet::ForEachOpen(const std::function<Status(Database*)>& fn) {
  if (shared_) return fn(shared_);
  std::shared_lock<std::shared_mutex> lock(mu_);
  for (const auto& [name, db] : open_) DP_RETURN_IF_ERROR(fn(db.get()));
  return Status::OK();
}

void DatabaseSet::StartSweepers(const RequestContext& context, int64_t interval_ms) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  sweeper_context_ = context;
  sweeper_interval_ms_ = interval_ms;
  if (interval_ms <= 0) return;
  if (shared_) {
    sweepers_.push_back(std::make_unique<Sweeper>(shared_, context, interval_ms));
    return;
  }
  for (const auto& [name, db] : open_) sweepers_.push_back(std::make_unique<Sweeper>(db.get(), context, interval_ms));
}


Status DatabaseSet::For(const Caller& caller, Database** out) {
  if (shared_) {
    *out = shared_;
    return Status::OK();
  }
  LastUsed& last = t_last_used;
  if (last.set_id == id_ && last.region == caller.region &&
      (mode_ == NamespaceMode::kRegion || last.access_key == caller.access_key)) {
    *out = last.db;
    return Status::OK();
  }
  DP_RETURN_IF_ERROR(Find(caller, out));
  last.set_id = id_;
  last.access_key = caller.access_key;
  last.region = caller.region;
  last.db = *out;
  return Status::OK();
}

Status DatabaseSet::Find(const Caller& caller, Database** out) {
  std::string name = NamespaceName(mode_, caller);
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    auto it = open_.find(name);
    if (it != open_.end()) {
      *out = it->second.get();
      return Status::OK();
    }
  }
  std::unique_lock<std::shared_mutex> lock(mu_);
  auto it = open_.find(name);  // another request may have opened it meanwhile
  if (it == open_.end()) {
    DatabaseOptions options = options_;
    if (!options.path.empty()) options.path += "/" + name;
    std::unique_ptr<Database> db;
    DP_RETURN_IF_ERROR(Database::Open(options, &db));
    if (sweeper_interval_ms_ > 0) {
      RequestContext context = sweeper_context_;
      context.caller = caller;
      context.caller.account_id = AccountIdOf(caller.access_key);
      sweepers_.push_back(std::make_unique<Sweeper>(db.get(), context, sweeper_interval_ms_));
    }
    it = open_.emplace(name, std::move(db)).first;
  }
  *out = it->second.get();
  return Status::OK();
}

}  // namespace dynapage
