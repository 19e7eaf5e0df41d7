#include "engine/read/start_key.h"

#include "engine/base/messages.h"
#include "engine/model/attribute_value_format.h"
#include "engine/storage/item_key.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
const char kNoMatch[] = "The provided key element does not match the schema";

std::string InvalidNoMatch() { return std::string(kInvalidStartKey) + ": " + kNoMatch; }

// A base-table Scan's start key that does not fit the key schema: its wording is the Scan cohort's (Scan words it).
Status BaseScanNoMatch() {
  return Status::Validation(InvalidNoMatch()).WithDetail(ErrorDetail::kBaseScanStartKeyNotSchema);
}

const AttributeValue* Find(const AttributeMap& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? nullptr : &it->second;
}
}  // namespace

Status ValidateStartKey(const TableDefinition& table, const IndexDefinition* index, ReadKind kind,
                        const AttributeMap& start_key) {
  // Null entries are absent keys. Fixed arrays: this runs for every page a client asks for.
  const KeyAttribute* table_keys[2] = {&table.key.hash, table.key.range ? &*table.key.range : nullptr};
  const KeyAttribute* index_keys[2 * kMaxKeyAttributesOfOneType] = {};
  size_t expected = table.key.range ? 2 : 1;
  if (index) {
    size_t n = 0;
    auto add = [&](const KeyAttribute& k) {
      if (table.key.IsKeyAttribute(k.name)) return;
      index_keys[n++] = &k;
      expected++;
    };
    for (size_t i = 0; i < index->key.hash_count(); i++) add(index->key.hash_at(i));
    for (size_t i = 0; i < index->key.range_count(); i++) add(index->key.range_at(i));
  }
  // Scan of a base table words every shape error the same way; the other reads distinguish them.
  const bool base_scan = kind == ReadKind::kScan && !index;
  if (start_key.size() != expected) return base_scan ? BaseScanNoMatch() : Status::Validation(kInvalidStartKey);
  for (const KeyAttribute* k : index_keys) {
    if (!k) continue;
    const AttributeValue* v = Find(start_key, k->name);
    if (!v) return Status::Validation(kInvalidStartKey);
    if (v->type != k->type) return Status::Validation(kNoMatch);
  }
  for (const KeyAttribute* k : table_keys) {
    if (!k) continue;
    const AttributeValue* v = Find(start_key, k->name);
    if (!v) {
      if (index) return Status::Validation(InvalidNoMatch());
      return base_scan ? BaseScanNoMatch() : Status::Validation(kInvalidStartKey);
    }
    if (v->type != k->type) {
      if (base_scan) return BaseScanNoMatch();
      if (index) return Status::Validation(InvalidNoMatch());
      return Status::Validation(kNoMatch);
    }
  }
  for (const auto& [name, value] : start_key) {
    bool is_partition = name == table.key.hash.name || (index && index->key.IsHashAttribute(name));
    Status s = ValidateKeyValue(name, value, is_partition);
    // On an index read the table key is checked as a key of its own, whose errors carry the prefix.
    if (!s.ok() && index && !index->key.IsKeyAttribute(name))
      return Status::Validation(std::string(kInvalidStartKey) + ": " + s.message());
    DP_RETURN_IF_ERROR(s);
  }
  return Status::OK();
}

std::string StartKeyToStorageKey(const TableDefinition& table, const IndexDefinition* index,
                                 const AttributeMap& start_key) {
  if (!index) return TableItemKey(table, start_key);
  std::string key;
  IndexEntryKey(table, *index, start_key, &key);
  return key;
}

bool StorageKeyToAttributes(const TableDefinition& table, const IndexDefinition* index, std::string_view key,
                            AttributeMap* out) {
  out->clear();
  size_t pos = kKeyHeaderSize;
  // In key order; a fixed array, not a vector (this runs for every page that stops early).
  const KeyAttribute* parts[2 * kMaxKeyAttributesOfOneType + 2];
  size_t count = 0;
  if (index) {
    for (size_t i = 0; i < index->key.hash_count(); i++) parts[count++] = &index->key.hash_at(i);
    for (size_t i = 0; i < index->key.range_count(); i++) parts[count++] = &index->key.range_at(i);
  }
  parts[count++] = &table.key.hash;
  if (table.key.range) parts[count++] = &*table.key.range;
  for (size_t i = 0; i < count; i++) {
    const KeyAttribute* k = parts[i];
    AttributeValue v;
    if (!DecodeKeyPart(key, &pos, k->type, &v)) return false;
    (*out)[k->name] = std::move(v);
  }
  return pos == key.size();
}

std::string DescribeKeyForMessage(const AttributeMap& key) {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, value] : key) {
    if (!first) out += ", ";
    first = false;
    out += name + "=" + FormatAttributeValue(value);
  }
  return out + "}";
}

}  // namespace dynapage
