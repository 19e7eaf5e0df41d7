#include "server/seed/seeder.h"

#include <rapidjson/stringbuffer.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/model/attribute_value_json.h"
#include "engine/model/json_types.h"
#include "engine/storage/item_key.h"
#include "engine/write/write_path.h"
#include "server/operations/operation_table.h"

namespace dynapage {

namespace {

// Items are written in batches of this many, as ImportTable writes them.
constexpr size_t kBatchItems = 1000;

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// CreateTable of table's input in db, as a request of context's from table's caller would make it.
Status CreateSeedTable(const SeedTable& table, Database* db, DatabaseSet* databases, const RequestContext& context) {
  RequestContext as_caller = context;
  as_caller.caller = table.caller;
  rapidjson::StringBuffer ignored;
  JsonWriter writer(ignored);
  OperationContext create{*db, as_caller, *table.create_table, writer, "", "", databases, nullptr};
  return HandleCreateTable(create);
}

// The item's key, as DynamoDB JSON, for messages. REQUIRES: the item passed ValidateItemKeys.
std::string KeyText(const TableDefinition& table, const AttributeMap& item) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteAttributeMap(KeyOf(table.key, item), &writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// Checks each table of plan with CreateTable in a scratch set of namespaces, and each item against its table.
// *exists[i]: plan's table i is in databases already.
void CheckPlan(SeedPlan* plan, DatabaseSet* databases, const RequestContext& context, std::vector<bool>* exists) {
  std::unique_ptr<DatabaseSet> scratch;
  Status opened = DatabaseSet::Open(databases->mode(), DatabaseOptions(), &scratch);
  if (!opened.ok()) {
    plan->errors.push_back("cannot check the seed: " + opened.message());
    return;
  }
  for (SeedTable& table : plan->tables) {
    Database* real = nullptr;
    Database* check = nullptr;
    Status s = databases->For(table.caller, &real);
    if (s.ok()) s = scratch->For(table.caller, &check);
    if (!s.ok()) {
      plan->errors.push_back(SeedErrorPlace(table.file, table.line) + "table " + table.table_name + ": " + s.message());
      exists->push_back(false);
      continue;
    }
    exists->push_back(!table.table_name.empty() && real->catalog().FindTable(table.table_name) != nullptr);
    s = CreateSeedTable(table, check, scratch.get(), context);
    if (!s.ok()) {
      plan->errors.push_back(SeedErrorPlace(table.file, table.line) + "table " + table.table_name +
                             ": CreateTable: " + SeedErrorText(s));
      continue;
    }
    std::shared_ptr<const TableDefinition> definition = check->catalog().FindTable(table.table_name);
    for (const SeedItem& item : table.items) {
      Status valid = ValidateItemKeys(*definition, item.item);
      std::string what = "table " + table.table_name + " item " + std::to_string(item.index);
      if (valid.ok()) what += " (key " + KeyText(*definition, item.item) + ")";
      if (valid.ok() && ItemSize(item.item) > kMaxItemSize) {
        valid = Status::Validation("Item size has exceeded the maximum allowed size");
      }
      if (!valid.ok())
        plan->errors.push_back(SeedErrorPlace(item.file, item.line) + what + ": " + SeedErrorText(valid));
    }
  }
}

// Progress lines on the log, about one a second, then the summary.
class Progress {
 public:
  Progress(std::FILE* log, size_t total) : log_(log), total_(total) {}

  void Written(const std::string& table, size_t table_done, size_t table_total, size_t count) {
    done_ += count;
    if (!log_ || std::chrono::duration<double>(SteadyClock::now() - last_).count() < 1) return;
    double elapsed = SecondsSince(start_);
    std::fprintf(log_, "seed: %s %zu/%zu items, %.0f items/s (all tables: %zu/%zu)\n", table.c_str(), table_done,
                 table_total, done_ / elapsed, done_, total_);
    std::fflush(log_);
    last_ = SteadyClock::now();
  }

  void Finish(size_t tables, size_t skipped) {
    if (!log_) return;
    double elapsed = SecondsSince(start_);
    std::fprintf(log_, "seed: %zu table(s), %zu item(s) loaded in %.2f s (%.0f items/s)", tables, done_, elapsed,
                 elapsed > 0 ? done_ / elapsed : 0.0);
    if (skipped > 0) std::fprintf(log_, "; %zu table(s) already there left as they were", skipped);
    std::fprintf(log_, "\n");
    std::fflush(log_);
  }

 private:
  std::FILE* log_;
  size_t total_;
  size_t done_ = 0;
  SteadyClock::time_point start_ = SteadyClock::now();
  SteadyClock::time_point last_ = SteadyClock::now();
};

// Writes table's items into db's table definition, in batches; a key seen again in a batch starts a new one, so
// that the later item wins as it would by PutItem.
Status WriteItems(const SeedTable& table, Database* db, const RequestContext& context, Progress* progress) {
  std::shared_ptr<const TableDefinition> definition = db->catalog().FindTable(table.table_name);
  if (!definition) return Status::Internal("the seeded table vanished: " + table.table_name);
  std::vector<ItemWrite> writes;
  std::set<std::string> batch_keys;
  size_t done = 0;
  auto flush = [&]() -> Status {
    if (writes.empty()) return Status::OK();
    std::vector<Status> statuses;
    DP_RETURN_IF_ERROR(db->writes().ApplyWrites(context, &writes, &statuses));
    done += writes.size();
    progress->Written(table.table_name, done, table.items.size(), writes.size());
    writes.clear();
    batch_keys.clear();
    return Status::OK();
  };
  for (const SeedItem& item : table.items) {
    std::string storage_key = TableItemKey(*definition, item.item);
    if (!batch_keys.insert(storage_key).second) {
      DP_RETURN_IF_ERROR(flush());
      batch_keys.insert(storage_key);
    }
    ItemWrite& w = writes.emplace_back();
    w.table = definition;
    w.storage_key = std::move(storage_key);
    const AttributeMap* put = &item.item;
    w.mutate = [put](const AttributeMap*, std::optional<AttributeMap>* next) {
      *next = *put;
      return Status::OK();
    };
    if (writes.size() >= kBatchItems) DP_RETURN_IF_ERROR(flush());
  }
  return flush();
}

}  // namespace

Status SeedDatabases(SeedPlan* plan, DatabaseSet* databases, const RequestContext& context, std::FILE* log) {
  SteadyClock::time_point start = SteadyClock::now();
  std::vector<bool> exists;
  CheckPlan(plan, databases, context, &exists);  // also after errors in reading: report them all at once
  if (log && SecondsSince(start) >= 1) {
    std::fprintf(log, "seed: checked %zu item(s) of %zu table(s) in %.2f s\n", plan->item_count(), plan->tables.size(),
                 SecondsSince(start));
  }
  if (!plan->errors.empty()) {
    return Status::Validation("the seed has " + std::to_string(plan->errors.size()) + " error(s); nothing was loaded");
  }
  Progress progress(log, plan->item_count());
  std::vector<std::pair<Database*, const SeedTable*>> created;
  Status s;
  size_t skipped = 0;
  for (size_t i = 0; i < plan->tables.size() && s.ok(); ++i) {
    const SeedTable& table = plan->tables[i];
    RequestContext as_caller = context;
    as_caller.caller = table.caller;
    Database* db = nullptr;
    s = databases->For(table.caller, &db);
    if (s.ok() && exists[i]) {
      ++skipped;
      if (log) {
        std::fprintf(log, "seed: table %s exists already (%s, %s): left as it is, its %zu seed item(s) not loaded\n",
                     table.table_name.c_str(),
                     table.caller.access_key.empty() ? "unsigned" : table.caller.access_key.c_str(),
                     table.caller.region.c_str(), table.items.size());
      }
      continue;
    }
    if (s.ok()) s = CreateSeedTable(table, db, databases, context);
    if (s.ok()) created.emplace_back(db, &table);
    if (s.ok()) s = WriteItems(table, db, as_caller, &progress);
  }
  if (!s.ok()) {
    // Checked beforehand, so only the store can fail here: take back what was made, never a half-seeded server.
    for (const auto& [db, table] : created) {
      TableDescription ignored;
      RequestContext as_caller = context;
      as_caller.caller = table->caller;
      as_caller.transient_status_ms = 0;
      (void)db->writes().DeleteTable(as_caller, table->table_name, &ignored);
    }
    plan->errors.push_back("loading the seed failed: " + SeedErrorText(s));
    return s;
  }
  progress.Finish(plan->tables.size() - skipped, skipped);
  return Status::OK();
}

Status SeedPaths(const std::vector<std::string>& paths, DatabaseSet* databases, const RequestContext& context,
                 std::FILE* log, std::vector<std::string>* errors) {
  SteadyClock::time_point start = SteadyClock::now();
  SeedPlan plan;
  for (const std::string& path : paths) ReadSeedPath(path, context.caller, &plan);
  if (log && SecondsSince(start) >= 1) {
    std::fprintf(log, "seed: read %zu item(s) of %zu table(s) from %zu path(s) in %.2f s\n", plan.item_count(),
                 plan.tables.size(), paths.size(), SecondsSince(start));
  }
  Status s = SeedDatabases(&plan, databases, context, log);
  if (!s.ok()) *errors = std::move(plan.errors);
  return s;
}

}  // namespace dynapage
