#include "engine/database/database_set.h"

#include <atomic>
#include <mutex>
#include <utility>

#include "engine/base/check.h"
#include "engine/database/legacy_migration.h"

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

DatabaseSet::DatabaseSet(NamespaceMode mode, std::unique_ptr<Store> store)
    : mode_(mode), id_(g_next_set_id.fetch_add(1)), store_(std::move(store)) {
  if (mode_ != NamespaceMode::kShared) {
    replicator_ = std::make_unique<Replicator>([this](const Caller& caller, Database** db) { return For(caller, db); });
  }
}

Status DatabaseSet::Open(NamespaceMode mode, const DatabaseOptions& options, std::unique_ptr<DatabaseSet>* out) {
  StoreOptions store_options;
  store_options.path = options.path;
  store_options.not_a_namespace = kSharedDatabaseFolder;
  std::unique_ptr<Store> store;
  DP_RETURN_IF_ERROR(Store::Open(store_options, &store));
  std::unique_ptr<DatabaseSet> set(new DatabaseSet(mode, std::move(store)));
  if (mode == NamespaceMode::kShared) {
    uint32_t namespace_id = 0;
    DP_RETURN_IF_ERROR(set->store_->NamespaceId(kSharedNamespaceName, &namespace_id));
    DP_RETURN_IF_ERROR(Database::OpenNamespace(set->store_.get(), namespace_id, &set->owned_shared_));
    set->shared_ = set->owned_shared_.get();
  }
  *out = std::move(set);
  return Status::OK();
}

DatabaseSet::~DatabaseSet() {
  replicator_.reset();  // applies what is queued, into databases that are still open
  sweeper_.reset();     // before the databases it sweeps; not under mu_, which its round takes
}

Status DatabaseSet::ForEachOpen(const std::function<Status(Database*)>& fn) {
  return ForEachNamespace([&fn](const Caller&, Database* db) { return fn(db); });
}

Status DatabaseSet::ForEachNamespace(const std::function<Status(const Caller&, Database*)>& fn) {
  if (shared_) return fn(Caller(), shared_);
  std::shared_lock<std::shared_mutex> lock(mu_);
  for (const auto& [name, space] : open_) DP_RETURN_IF_ERROR(fn(space.caller, space.db.get()));
  return Status::OK();
}

void DatabaseSet::StartSweepers(const RequestContext& context, int64_t interval_ms) {
  DP_DCHECK(!sweeper_);
  sweeper_context_ = context;
  if (replicator_) replicator_->SetContext(context);
  if (interval_ms <= 0) return;
  sweeper_ = std::make_unique<Sweeper>([this] { SweepAll(); }, interval_ms);
}

void DatabaseSet::SweepAll() {
  if (shared_) {
    SweepAndLog(shared_, sweeper_context_);
    return;
  }
  // The databases are listed under the lock and swept without it, so that new namespaces open meanwhile;
  // databases stay while the set lives.
  std::vector<std::pair<Database*, Caller>> all;
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    all.reserve(open_.size());
    for (const auto& [name, space] : open_) all.emplace_back(space.db.get(), space.caller);
  }
  RequestContext context = sweeper_context_;
  for (const auto& [db, caller] : all) {
    context.caller = caller;
    SweepAndLog(db, context);
  }
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
      *out = it->second.db.get();
      return Status::OK();
    }
  }
  std::unique_lock<std::shared_mutex> lock(mu_);
  auto it = open_.find(name);  // another request may have made it meanwhile
  if (it == open_.end()) {
    uint32_t namespace_id = 0;
    DP_RETURN_IF_ERROR(store_->NamespaceId(name, &namespace_id));
    Namespace space;
    DP_RETURN_IF_ERROR(Database::OpenNamespace(store_.get(), namespace_id, &space.db));
    space.caller = caller;
    space.caller.account_id = AccountIdOf(caller.access_key);
    if (replicator_) {
      space.sink = replicator_->SinkFor(space.caller);
      space.db->writes().set_replication(space.sink.get());
    }
    it = open_.emplace(std::move(name), std::move(space)).first;
  }
  *out = it->second.db.get();
  return Status::OK();
}

bool DatabaseSet::BeginMembershipChange(const std::string& group) {
  std::lock_guard<std::mutex> lock(membership_mu_);
  return membership_changes_.insert(group).second;
}

void DatabaseSet::EndMembershipChange(const std::string& group) {
  std::lock_guard<std::mutex> lock(membership_mu_);
  membership_changes_.erase(group);
}

}  // namespace dynapage
