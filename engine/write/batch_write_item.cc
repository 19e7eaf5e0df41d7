#include "engine/write/batch_write_item.h"

#include "engine/base/check.h"
#include "engine/base/messages.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "engine/storage/item_key.h"
#include "engine/storage/key_codec.h"
#include "engine/write/item_operations.h"

namespace dynapage {

namespace {
const char kDuplicates[] = "Provided list of item keys contains duplicates";
// A batch put words a missing or mistyped table key attribute so; the other key errors (empty values, sizes,
// index key types) keep their own messages.
const char kNoMatch[] = "The provided key element does not match the schema";

bool HasDuplicates(std::vector<std::string_view> keys) {
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
}
}  // namespace

Status BatchWriteItem(WritePath& write_path, const RequestContext& ctx, BatchWriteRequest request,
                      BatchWriteResult* result) {
  size_t total = 0;
  for (const auto& [name, entries] : request.tables) total += entries.size();
  if (total > kMaxBatchWriteRequests) {
    return Status::Validation("Too many items requested for the BatchWriteItem call");
  }
  // The size of each put, in entry order (0 for a delete), checked here and written with the item.
  std::vector<size_t> put_sizes;
  put_sizes.reserve(total);
  for (const auto& [name, entries] : request.tables) {
    for (const auto& e : entries) {
      size_t size = !e.is_put ? 0 : e.wire_item ? e.wire_item->size() : ItemSize(e.item_or_key);
      if (size > kMaxItemSize) return Status::Validation("Item size has exceeded the maximum allowed size");
      put_sizes.push_back(size);
    }
  }
  std::vector<ItemWrite> writes;
  writes.reserve(total);
  // The writes' storage keys, checked for duplicates once all are known (sorting 25 views costs less than a set
  // of copies). A duplicate is reported before any error of a later entry, as if each key were checked as it
  // came: an error first reports a duplicate among the keys before it.
  std::vector<std::string_view> keys;
  keys.reserve(total);
  auto fail = [&keys](Status s) { return HasDuplicates(keys) ? Status::Validation(kDuplicates) : s; };
  // A WireItem's key values, which put_keys then points to: made once for the batch, not once an entry.
  AttributeValue wire_key_values[2];
  for (auto& [name, entries] : request.tables) {
    auto table = write_path.catalog().FindTable(name);
    if (!table) return fail(Status::NotFound(kResourceNotFound));
    for (auto& e : entries) {
      Status valid;
      TableKeyValues put_keys;
      // Index entries are made from an AttributeMap; without indexes a WireItem's key values are all the key
      // checks read, and it is stored as it is.
      if (e.wire_item && !table->indexes.empty()) {
        e.item_or_key = e.wire_item->ToAttributeMap();
        e.wire_item.reset();
      }
      if (e.wire_item) {
        valid = FindTableKeyAttributes(table->key, *e.wire_item, wire_key_values, &put_keys)
                    ? ValidateTableKeyValues(table->key, put_keys)
                    : Status::Validation(kNoMatch);
      } else if (e.is_put) {
        // A WireItem holds only names DynamoDB accepts; an AttributeMap is checked.
        valid = ValidateAttributeNames(e.item_or_key);
        if (valid.ok()) {
          valid = FindTableKeyAttributes(table->key, e.item_or_key, &put_keys)
                      ? ValidateItemKeyValues(*table, e.item_or_key, put_keys)
                      : Status::Validation(kNoMatch);
        }
      } else {
        valid = ValidateKey(table->key, e.item_or_key);
      }
      if (!valid.ok()) return fail(valid);
      // writes was reserved for every entry: it never reallocates, and keys' views of it stay valid.
      ItemWrite& w = writes.emplace_back();
      w.table = table;
      w.storage_key = e.is_put ? TableItemKey(*table, put_keys) : TableItemKey(*table, e.item_or_key);
      keys.push_back(w.storage_key);
      if (e.wire_item) {
        w.put_size = put_sizes[writes.size() - 1];
        w.wire_put = &*e.wire_item;
      } else if (e.is_put) {
        w.put_size = put_sizes[writes.size() - 1];
        AttributeMap* item = &e.item_or_key;
        // ApplyWrites calls a mutator once, after the key checks above have read the item.
        w.mutate = [item](const AttributeMap*, std::optional<AttributeMap>* next) {
          *next = std::move(*item);
          return Status::OK();
        };
      } else {
        w.mutate = [](const AttributeMap*, std::optional<AttributeMap>* next) {
          next->reset();
          return Status::OK();
        };
      }
    }
  }
  if (HasDuplicates(keys)) return Status::Validation(kDuplicates);
  result->unprocessed.clear();
  if (!request.leave_unprocessed.empty()) {
    DP_DCHECK(request.leave_unprocessed.size() == writes.size());
    const std::vector<bool>& left = request.leave_unprocessed;
    std::vector<ItemWrite> applied;
    size_t position = 0;
    for (size_t t = 0; t < request.tables.size(); t++) {
      for (size_t e = 0; e < request.tables[t].second.size(); e++, position++) {
        if (left[position]) {
          result->unprocessed.emplace_back(t, e);
        } else {
          applied.push_back(std::move(writes[position]));
        }
      }
    }
    writes = std::move(applied);
    if (ctx.counters && !request.unprocessed_note.empty()) {
      ctx.counters->injected = "BatchWriteItem: " + request.unprocessed_note;
    }
  }
  std::vector<Status> statuses;
  DP_RETURN_IF_ERROR(write_path.ApplyWrites(ctx, &writes, &statuses));
  result->capacity.clear();
  for (const auto& w : writes) {
    AddCapacity(WriteCapacity(*w.table, w.old_item ? &*w.old_item : nullptr, w.old_size,
                              w.new_item ? &*w.new_item : nullptr, w.new_size),
                1, &result->capacity);
  }
  return Status::OK();
}

}  // namespace dynapage
