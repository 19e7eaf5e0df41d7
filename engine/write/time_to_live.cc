#include "engine/write/time_to_live.h"

#include <cstdlib>
#include <vector>

#include "engine/storage/key_codec.h"
#include "engine/storage/table_items.h"

namespace dynapage {

namespace {
// TTL values further in the past than this are taken for mistakes and never expire (DynamoDB: five years).
constexpr double kMaxPastSeconds = 5.0 * 365 * 86400;
// Items deleted per ApplyWrites: one batch each, so that other writes get the lock in between.
constexpr size_t kDeletesPerBatch = 100;

// Deletes the expired items of one table (NotFound when it went away meanwhile).
Status ExpireTableItems(WritePath& write_path, const RequestContext& ctx, std::shared_ptr<const TableDefinition> table,
                        uint64_t* deleted) {
  const std::string attribute = table->ttl_attribute;
  std::vector<ItemWrite> writes;
  auto flush = [&]() -> Status {
    if (writes.empty()) return Status::OK();
    std::vector<Status> statuses;
    Status s = write_path.ApplyWrites(ctx, &writes, &statuses);
    if (s.ok()) {
      for (const ItemWrite& w : writes) *deleted += w.old_item && !w.new_item;
    }
    writes.clear();
    return s;
  };
  std::string prefix = KeyspacePrefix(table->keyspace);
  auto it = write_path.storage().NewIterator(prefix, PrefixSuccessor(prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    AttributeMap item;
    uint64_t size = 0;
    DP_RETURN_IF_ERROR(DecodeTableItem(*table, it->value(), &item, &size));
    if (!HasExpired(item, attribute, ctx.clock->NowMillis())) continue;
    ItemWrite& w = writes.emplace_back();
    w.table = table;
    w.storage_key = std::string(it->key());
    w.by_ttl = true;
    // Checked again under the writer lock: an item updated since it was read may have a later time now.
    w.mutate = [attribute, &ctx](const AttributeMap* current, std::optional<AttributeMap>* next) {
      if (current && !HasExpired(*current, attribute, ctx.clock->NowMillis())) *next = *current;
      return Status::OK();
    };
    if (writes.size() >= kDeletesPerBatch) DP_RETURN_IF_ERROR(flush());
  }
  DP_RETURN_IF_ERROR(it->status());
  return flush();
}
}  // namespace

Status DescribeTimeToLive(const Catalog& catalog, const std::string& table_name, std::string* attribute) {
  TableDescription description;
  DP_RETURN_IF_ERROR(catalog.DescribeTable(table_name, &description));
  *attribute = description.definition->ttl_attribute;
  return Status::OK();
}

Status UpdateTimeToLive(WritePath& write_path, const RequestContext& ctx, const std::string& table_name, bool enabled,
                        const std::string& attribute) {
  TableDescription before, after;
  return write_path.ChangeTable(
      ctx, table_name,
      [enabled, &attribute, &ctx](const TableDefinition& current, TableDefinition* next) {
        const std::string& on = current.ttl_attribute;
        if (!on.empty() && on != attribute) {
          return Status::Validation("TimeToLive is active on a different AttributeName: current AttributeName is " +
                                    on);
        }
        if (enabled && !on.empty()) return Status::Validation("TimeToLive is already enabled");
        if (!enabled && on.empty()) return Status::Validation("TimeToLive is already disabled");
        // The cooldown comes after the content checks; a refused change does not extend it.
        const int64_t now = ctx.clock->NowMillis();
        if (ctx.ttl_update_cooldown_ms > 0 && current.ttl_changed_ms > 0 &&
            now - current.ttl_changed_ms < ctx.ttl_update_cooldown_ms) {
          return Status::Validation("Time to live has been modified multiple times within a fixed interval");
        }
        next->ttl_attribute = enabled ? attribute : std::string();
        next->ttl_changed_ms = now;
        return Status::OK();
      },
      &before, &after);
}

bool HasExpired(const AttributeMap& item, const std::string& ttl_attribute, int64_t now_ms) {
  auto found = item.find(ttl_attribute);
  if (found == item.end() || found->second.type != AttrType::kN) return false;
  // Canonical decimal text; a fraction counts, and values beyond a double's range are far from now either way.
  double value = std::strtod(found->second.scalar.c_str(), nullptr);
  double now = static_cast<double>(now_ms) / 1000.0;
  return value < now && now - value <= kMaxPastSeconds;
}

Status ExpireItems(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                   uint64_t* deleted) {
  *deleted = 0;
  std::vector<std::string> names;
  if (table_name.empty()) {
    bool more = false;
    write_path.catalog().ListTables("", SIZE_MAX, &names, &more);
  } else {
    names.push_back(table_name);
  }
  for (const std::string& name : names) {
    auto table = write_path.catalog().FindTable(name);
    if (!table || table->ttl_attribute.empty()) continue;
    Status s = ExpireTableItems(write_path, ctx, table, deleted);
    // A table deleted or re-created during its sweep is simply done.
    if (!s.ok() && s.code() != ErrorCode::kResourceNotFound) return s;
  }
  return Status::OK();
}

}  // namespace dynapage
