#include "engine/catalog/catalog.h"

#include <cstdio>
#include <mutex>

#include "engine/catalog/catalog_keys.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
std::string EncodeU64Pair(uint64_t a, uint64_t b) {
  char buf[48];
  int n = std::snprintf(buf, sizeof buf, "%llu %llu", static_cast<unsigned long long>(a),
                        static_cast<unsigned long long>(b));
  return std::string(buf, n);
}
}  // namespace

Status Catalog::Load() {
  std::string prefix = DefinitionPrefix(namespace_id_);
  auto it = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    auto table = std::make_shared<TableDefinition>();
    if (!ParseTableDefinition(std::string(it->value()), table.get())) {
      return Status::Internal("corrupt table definition for " + std::string(it->key().substr(prefix.size())));
    }
    tables_[table->name] = table;
  }
  DP_RETURN_IF_ERROR(it->status());
  // The counters of this namespace's keyspaces (its tables' and indexes'), looked up one snapshot at once.
  std::vector<uint32_t> keyspaces;
  for (const auto& [name, table] : tables_) {
    keyspaces.push_back(table->keyspace);
    for (const auto& index : table->indexes) keyspaces.push_back(index.keyspace);
  }
  std::vector<std::string> keys;
  for (uint32_t keyspace : keyspaces) keys.push_back(StatsKey(keyspace));
  std::vector<std::string> values;
  std::vector<bool> found;
  DP_RETURN_IF_ERROR(storage_->MultiGet(std::vector<std::string_view>(keys.begin(), keys.end()), &values, &found));
  for (size_t i = 0; i < keyspaces.size(); i++) {
    unsigned long long count = 0, bytes = 0;
    if (found[i] && std::sscanf(values[i].c_str(), "%llu %llu", &count, &bytes) == 2) {
      stats_[keyspaces[i]] = TableStats{static_cast<int64_t>(count), static_cast<int64_t>(bytes)};
    }
  }
  return streams_.Load(*storage_);
}

namespace {
// The table name a request's TableName designates: itself, or the name at the end of a table ARN
// (arn:aws:dynamodb:<region>:<account>:table/<name>), which data-plane operations accept too.
const std::string& TableNameOf(const std::string& name, std::string* scratch) {
  if (name.size() < 4 || name.compare(0, 4, "arn:") != 0) return name;
  size_t at = name.find(":table/");
  if (at == std::string::npos) return name;
  scratch->assign(name, at + 7, std::string::npos);
  return *scratch;
}
}  // namespace

std::shared_ptr<const TableDefinition> Catalog::FindTable(const std::string& name) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  std::string scratch;
  auto it = tables_.find(TableNameOf(name, &scratch));
  return it == tables_.end() ? nullptr : it->second;
}

Status Catalog::DescribeTable(const std::string& name, TableDescription* out) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = tables_.find(name);
  if (it == tables_.end()) return Status::NotFound("Requested resource not found: Table: " + name + " not found");
  out->definition = it->second;
  out->status = "ACTIVE";
  out->stats = StatsOfLocked(it->second->keyspace);
  out->index_stats.clear();
  for (const auto& index : it->second->indexes) out->index_stats[index.name] = StatsOfLocked(index.keyspace);
  return Status::OK();
}

void Catalog::ListTables(const std::string& exclusive_start, size_t limit, std::vector<std::string>* names,
                         bool* more) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  names->clear();
  *more = false;
  auto it = exclusive_start.empty() ? tables_.begin() : tables_.upper_bound(exclusive_start);
  for (; it != tables_.end(); ++it) {
    if (names->size() == limit) {
      *more = true;
      break;
    }
    names->push_back(it->first);
  }
}

TableStats Catalog::StatsOf(uint32_t keyspace) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return StatsOfLocked(keyspace);
}

TableStats Catalog::StatsOfLocked(uint32_t keyspace) const {
  auto it = stats_.find(keyspace);
  return it == stats_.end() ? TableStats() : it->second;
}

void Catalog::PutDefinition(const TableDefinition& table, Storage::Batch* batch) const {
  batch->Put(DefinitionKey(namespace_id_, table.name), SerializeTableDefinition(table));
}

void Catalog::DeleteDefinition(const std::string& name, Storage::Batch* batch) const {
  batch->Delete(DefinitionKey(namespace_id_, name));
}

void Catalog::PutStats(uint32_t keyspace, const TableStats& stats, Storage::Batch* batch) const {
  // Counters are stored only to be read back by Load; in memory, stats_ is all there is. (A batch write then
  // also keeps to its own stretch of the memtable, instead of going to the counter's key and back each time.)
  if (!storage_->persistent()) return;
  batch->Put(StatsKey(keyspace),
             EncodeU64Pair(static_cast<uint64_t>(stats.item_count), static_cast<uint64_t>(stats.size_bytes)));
}

void Catalog::DeleteStats(uint32_t keyspace, Storage::Batch* batch) { batch->Delete(StatsKey(keyspace)); }

void Catalog::SetTable(std::shared_ptr<const TableDefinition> table) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  deleting_.erase(table->name);
  tables_[table->name] = std::move(table);
}

void Catalog::RemoveTable(const std::string& name) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  tables_.erase(name);
}

void Catalog::NoteDeleting(const TableDescription& description, double now, double until) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  for (auto it = deleting_.begin(); it != deleting_.end();) {
    it = it->second.until <= now ? deleting_.erase(it) : std::next(it);
  }
  deleting_[description.definition->name] = Deleting{description, until};
}

bool Catalog::FindDeleting(const std::string& name, double now, TableDescription* out) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = deleting_.find(name);
  if (it == deleting_.end() || it->second.until <= now) return false;
  *out = it->second.description;
  return true;
}

void Catalog::SetStats(const std::map<uint32_t, TableStats>& stats) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  for (const auto& [keyspace, s] : stats) stats_[keyspace] = s;
}

void Catalog::RemoveStats(const std::vector<uint32_t>& keyspaces) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  for (uint32_t keyspace : keyspaces) stats_.erase(keyspace);
}

Status Catalog::ListBackups(std::vector<BackupRecord>* out) const {
  out->clear();
  const std::string prefix = BackupPrefix(namespace_id_);
  auto it = storage_->NewIterator(prefix, PrefixSuccessor(prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    BackupRecord backup;
    if (!ParseBackupRecord(std::string(it->value()), &backup)) return Status::Internal("corrupt backup record");
    out->push_back(std::move(backup));
  }
  return it->status();
}

Status Catalog::FindBackup(const std::string& id, BackupRecord* out, bool* found) const {
  std::string value;
  DP_RETURN_IF_ERROR(storage_->Get(BackupKey(namespace_id_, id), &value, found));
  if (*found && !ParseBackupRecord(value, out)) return Status::Internal("corrupt backup record");
  return Status::OK();
}

void Catalog::PutBackup(const BackupRecord& backup, Storage::Batch* batch) const {
  batch->Put(BackupKey(namespace_id_, backup.id), SerializeBackupRecord(backup));
}

void Catalog::DeleteBackup(const std::string& id, Storage::Batch* batch) const {
  batch->Delete(BackupKey(namespace_id_, id));
}

}  // namespace dynapage
