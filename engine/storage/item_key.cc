#include "engine/storage/item_key.h"

#include "engine/base/check.h"
#include "engine/base/messages.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
const char kNoMatch[] = "The provided key element does not match the schema";

const AttributeValue* Find(const AttributeMap& item, const std::string& name) {
  auto it = item.find(name);
  return it == item.end() ? nullptr : &it->second;
}
}  // namespace

Status ValidateKeyValue(const std::string& name, const AttributeValue& value, bool is_partition) {
  if ((value.type == AttrType::kS || value.type == AttrType::kB) && value.scalar.empty()) {
    return Status::Validation(
               "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an "
               "empty " +
               std::string(value.type == AttrType::kS ? "string" : "binary") + " value. Key: " + name)
        .WithDetail(ErrorDetail::kEmptyKeyValue);
  }
  size_t size = ValueSize(value);
  if (is_partition && size > kMaxPartitionKeyBytes) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Size of hashkey has exceeded the maximum size limit of2048 bytes");
  }
  if (!is_partition && size > kMaxSortKeyBytes) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
  }
  return Status::OK();
}

Status ValidateKey(const KeySchema& schema, const AttributeMap& key) {
  size_t expected = schema.has_range() ? 2 : 1;
  const AttributeValue* pk = Find(key, schema.hash.name);
  const AttributeValue* sk = schema.has_range() ? Find(key, schema.range->name) : nullptr;
  if (key.size() != expected || !pk || pk->type != schema.hash.type ||
      (schema.has_range() && (!sk || sk->type != schema.range->type))) {
    return Status::Validation(kNoMatch);
  }
  DP_RETURN_IF_ERROR(ValidateKeyValue(schema.hash.name, *pk, true));
  if (sk) DP_RETURN_IF_ERROR(ValidateKeyValue(schema.range->name, *sk, false));
  return Status::OK();
}

bool FindTableKeyAttributes(const KeySchema& schema, const AttributeMap& item, TableKeyValues* keys) {
  auto find = [&](const KeyAttribute& k) {
    const AttributeValue* v = Find(item, k.name);
    return v && v->type == k.type ? v : nullptr;
  };
  keys->partition = find(schema.hash);
  keys->sort = schema.range ? find(*schema.range) : nullptr;
  return keys->partition && (!schema.range || keys->sort);
}

bool FindTableKeyAttributes(const KeySchema& schema, const WireItem& item, AttributeValue copies[2],
                            TableKeyValues* keys) {
  auto find = [&](const KeyAttribute& k, AttributeValue* copy) {
    return item.Find(k.name, copy) && copy->type == k.type ? copy : nullptr;
  };
  keys->partition = find(schema.hash, &copies[0]);
  keys->sort = schema.range ? find(*schema.range, &copies[1]) : nullptr;
  return keys->partition && (!schema.range || keys->sort);
}

Status ValidateTableKeyValues(const KeySchema& schema, const TableKeyValues& keys) {
  DP_RETURN_IF_ERROR(ValidateKeyValue(schema.hash.name, *keys.partition, true));
  if (schema.range) DP_RETURN_IF_ERROR(ValidateKeyValue(schema.range->name, *keys.sort, false));
  return Status::OK();
}

namespace {
Status ValidateIndexKeys(const TableDefinition& table, const AttributeMap& item) {
  for (const auto& index : table.indexes) {
    auto check_index = [&](const KeyAttribute& k, bool is_partition) -> Status {
      const AttributeValue* v = Find(item, k.name);
      if (!v || table.key.IsKeyAttribute(k.name)) return Status::OK();
      if (v->type != k.type) {
        return Status::Validation(std::string(kInvalidParameterPrefix) + "Type mismatch for Index Key " + k.name +
                                  " Expected: " + AttrTypeName(k.type) + " Actual: " + AttrTypeName(v->type) +
                                  " IndexName: " + index.name);
      }
      if ((v->type == AttrType::kS || v->type == AttrType::kB) && v->scalar.empty()) {
        return Status::Validation(
            "One or more parameter values are not valid. A value specified for a secondary index key is not "
            "supported. The AttributeValue for a key attribute cannot contain an empty " +
                   std::string(v->type == AttrType::kS ? "string" : "binary") + " value. IndexName: " + index.name +
                   ", IndexKey: " + k.name)
            .WithDetail(ErrorDetail::kEmptyIndexKeyValue);
      }
      return ValidateKeyValue(k.name, *v, is_partition);
    };
    DP_RETURN_IF_ERROR(check_index(index.key.hash, true));
    if (index.key.range) DP_RETURN_IF_ERROR(check_index(*index.key.range, false));
    for (const KeyAttribute& k : index.key.more_hash) DP_RETURN_IF_ERROR(check_index(k, true));
    for (const KeyAttribute& k : index.key.more_range) DP_RETURN_IF_ERROR(check_index(k, false));
  }
  return Status::OK();
}
}  // namespace

Status ValidateItemKeyValues(const TableDefinition& table, const AttributeMap& item, const TableKeyValues& keys) {
  DP_RETURN_IF_ERROR(ValidateTableKeyValues(table.key, keys));
  return ValidateIndexKeys(table, item);
}

Status ValidateAttributeNames(const AttributeMap& item) {
  for (const auto& [name, value] : item) {
    if (name.empty()) return Status::Validation(std::string(kInvalidParameterPrefix) + "Empty attribute name");
    if (name.size() > kMaxAttributeNameBytes) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "Attribute name is too large, must be less than 65536 bytes");
    }
  }
  return Status::OK();
}

Status ValidateItemKeys(const TableDefinition& table, const AttributeMap& item) {
  DP_RETURN_IF_ERROR(ValidateAttributeNames(item));
  auto check = [&](const KeyAttribute& k, bool is_partition) -> Status {
    const AttributeValue* v = Find(item, k.name);
    if (!v)
      return Status::Validation(std::string(kInvalidParameterPrefix) + "Missing the key " + k.name + " in the item");
    if (v->type != k.type) {
      return Status::Validation(std::string(kInvalidParameterPrefix) + "Type mismatch for key " + k.name +
                                " expected: " + AttrTypeName(k.type) + " actual: " + AttrTypeName(v->type));
    }
    return ValidateKeyValue(k.name, *v, is_partition);
  };
  DP_RETURN_IF_ERROR(check(table.key.hash, true));
  if (table.key.range) DP_RETURN_IF_ERROR(check(*table.key.range, false));
  return ValidateIndexKeys(table, item);
}

AttributeMap KeyOf(const KeySchema& schema, const AttributeMap& item) {
  AttributeMap key;
  auto copy = [&](const std::string& name) {
    auto it = item.find(name);
    if (it != item.end()) key.emplace(name, it->second);
  };
  copy(schema.hash.name);
  if (schema.range) copy(schema.range->name);
  return key;
}

std::string TableItemKey(const TableDefinition& table, const AttributeMap& item) {
  const AttributeValue& pk = item.at(table.key.hash.name);
  const AttributeValue* sk = table.key.range ? &item.at(table.key.range->name) : nullptr;
  return ItemKey(table.keyspace, pk, sk);
}

std::string TableItemKey(const TableDefinition& table, const TableKeyValues& keys) {
  return ItemKey(table.keyspace, *keys.partition, keys.sort);
}

namespace {
// A value a write would refuse as an index key (writes check first; an index backfill finds such items in the
// table) gives no entry.
bool UsableIndexKeyValue(const AttributeValue* v, AttrType type, size_t max_bytes) {
  return v && v->type == type && (type == AttrType::kN || (!v->scalar.empty() && ValueSize(*v) <= max_bytes));
}

// IndexEntryKey for a multi-attribute key: every HASH and RANGE attribute must be usable (a sparse index).
bool MultiAttributeIndexEntryKey(const TableDefinition& table, const IndexDefinition& index, const AttributeMap& item,
                                 std::string* key) {
  const KeySchema& schema = index.key;
  DP_DCHECK(schema.hash_count() <= kMaxKeyAttributesOfOneType && schema.range_count() <= kMaxKeyAttributesOfOneType);
  const AttributeValue* hashes[kMaxKeyAttributesOfOneType];
  const AttributeValue* ranges[kMaxKeyAttributesOfOneType];
  for (size_t i = 0; i < schema.hash_count(); i++) {
    const KeyAttribute& k = schema.hash_at(i);
    hashes[i] = Find(item, k.name);
    if (!UsableIndexKeyValue(hashes[i], k.type, kMaxPartitionKeyBytes)) return false;
  }
  for (size_t i = 0; i < schema.range_count(); i++) {
    const KeyAttribute& k = schema.range_at(i);
    ranges[i] = Find(item, k.name);
    if (!UsableIndexKeyValue(ranges[i], k.type, kMaxSortKeyBytes)) return false;
  }
  *key = CompositePartitionPrefix(index.keyspace, hashes, schema.hash_count());
  for (size_t i = 0; i < schema.range_count(); i++) AppendKeyPart(*ranges[i], key);
  AppendKeyPart(item.at(table.key.hash.name), key);
  if (table.key.range) AppendKeyPart(item.at(table.key.range->name), key);
  return true;
}
}  // namespace

bool IndexEntryKey(const TableDefinition& table, const IndexDefinition& index, const AttributeMap& item,
                   std::string* key) {
  if (index.key.multi_attribute()) return MultiAttributeIndexEntryKey(table, index, item, key);
  const AttributeValue* ipk = Find(item, index.key.hash.name);
  if (!UsableIndexKeyValue(ipk, index.key.hash.type, kMaxPartitionKeyBytes)) return false;
  const AttributeValue* isk = nullptr;
  if (index.key.range) {
    isk = Find(item, index.key.range->name);
    if (!UsableIndexKeyValue(isk, index.key.range->type, kMaxSortKeyBytes)) return false;
  }
  *key = ItemKey(index.keyspace, *ipk, isk);
  AppendKeyPart(item.at(table.key.hash.name), key);
  if (table.key.range) AppendKeyPart(item.at(table.key.range->name), key);
  return true;
}

AttributeMap ProjectForIndex(const TableDefinition& table, const IndexDefinition& index, const AttributeMap& item) {
  if (index.projection == ProjectionType::kAll) return item;
  AttributeMap out;
  for (const auto& [name, value] : item) {
    if (index.Projects(name, table.key)) out.emplace(name, value);
  }
  return out;
}

}  // namespace dynapage
