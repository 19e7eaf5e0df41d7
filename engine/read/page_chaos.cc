#include "engine/read/page_chaos.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/number.h"
#include "engine/read/start_key.h"
#include "engine/storage/item_key.h"

namespace dynapage {

namespace {

// How many partition key values ChaosKeyBetween tries for one key between two hashed keys.
constexpr int kHashedKeyCandidates = 128;

// Page chaos's keys between two entries (PageCut::key_between). Only the last part of a storage key changes: the
// table's sort key, or on an index, the table key that ends each entry; not when that attribute is also part of
// the index key (a LastEvaluatedKey holds one value per attribute).
//   - A sort key, or an index entry's table key, is not hashed: the value just after the lower key's does (an S
//     or B value with a NUL appended, a number plus one unit of its 38th significant digit).
//   - A hash-only table's own partition key comes after its hash: some values are tried, and the first whose key
//     falls between is taken, as DynamoDB's Scan can stop on a key that no item has (one deleted, say).
// Keys over DynamoDB's size limits are never made: the client sends them back as its ExclusiveStartKey.
class ChaosKeyBetween : public KeyBetween {
 public:
  ChaosKeyBetween(const TableDefinition& table, const IndexDefinition* index) : table_(table), index_(index) {}

  bool Find(std::string_view low, std::string_view high, std::string* key) const override {
    AttributeMap attributes;
    if (!StorageKeyToAttributes(table_, index_, low, &attributes)) return false;
    const KeyAttribute& last = table_.key.range ? *table_.key.range : table_.key.hash;
    const bool hashed = !index_ && !table_.key.range;
    AttributeValue& value = attributes[last.name];
    const AttributeValue lower = value;
    for (int i = 1; i <= (hashed ? kHashedKeyCandidates : 1); i++) {
      if (!(hashed ? Candidate(lower.type, i, &value) : Successor(lower, &value))) return false;
      if (!ValidateKeyValue(last.name, value, &last == &table_.key.hash).ok()) return false;
      *key = StartKeyToStorageKey(table_, index_, attributes);
      if (low < *key && *key < high) return true;
    }
    return false;
  }

  // Whether an empty page's key can be made on this keyspace at all.
  static bool Possible(const TableDefinition& table, const IndexDefinition* index) {
    const KeyAttribute& last = table.key.range ? *table.key.range : table.key.hash;
    return !index || !index->key.IsKeyAttribute(last.name);
  }

 private:
  // The value right after lower: S and B with a NUL appended; N plus one unit in its 38th significant digit (or
  // 1E-130, the smallest magnitude, where that unit is smaller).
  static bool Successor(const AttributeValue& lower, AttributeValue* next) {
    *next = lower;
    if (lower.type != AttrType::kN) {
      next->scalar.push_back('\0');
      return true;
    }
    Decimal number, unit, sum;
    if (!Decimal::Parse(lower.scalar, &number).ok()) return false;
    int exponent = number.is_zero() ? -130 : std::max(number.exponent() - 37, -130);
    if (!Decimal::Parse("1e" + std::to_string(exponent), &unit).ok()) return false;
    if (!Decimal::Add(number, unit, &sum).ok()) return false;
    next->scalar = sum.ToString();
    return true;
  }

  // The i-th partition key value to try (any value of the type: it is its hash that must fall between).
  static bool Candidate(AttrType type, int i, AttributeValue* value) {
    value->type = type;
    value->scalar = std::to_string(i);
    if (type == AttrType::kS || type == AttrType::kB) value->scalar.insert(0, "dynapage-chaos-");
    return true;
  }

  const TableDefinition& table_;
  const IndexDefinition* index_;
};

}  // namespace

void ChoosePageCut(const RequestContext& ctx, const TableDefinition& table, const IndexDefinition* index, PageCut* cut,
                   PageSpec* spec) {
  if (!ctx.policies || !ctx.policies->page_chaos || spec->single_item_range) return;
  ChaosDice dice(ctx.policies->chaos_seed);
  if (ChaosKeyBetween::Possible(table, index)) cut->key_between = std::make_unique<ChaosKeyBetween>(table, index);
  // One page in eight as it would be, a quarter empty where a key allows, the rest short.
  switch (dice.Below(8)) {
    case 0:
      return;
    case 1:
    case 2:
      cut->empty_page = true;
      break;
    default:
      break;
  }
  cut->max_items = 1 + dice.Below(dice.Chance(0.5) ? 3 : 12);
  cut->key_on_last = dice.Chance(0.5);
  spec->cut = cut;
}

GetRecordsCut ChooseGetRecordsCut(const RequestContext& ctx, int64_t* limit) {
  if (!ctx.policies || !ctx.policies->page_chaos) return GetRecordsCut::kNone;
  ChaosDice dice(ctx.policies->chaos_seed);
  // As Query and Scan: one answer in eight as it would be, a quarter empty, the rest short.
  switch (dice.Below(8)) {
    case 0:
      return GetRecordsCut::kNone;
    case 1:
    case 2:
      *limit = 0;
      return GetRecordsCut::kEmpty;
    default:
      break;
  }
  *limit = std::min<int64_t>(*limit, 1 + static_cast<int64_t>(dice.Below(dice.Chance(0.5) ? 3 : 12)));
  return dice.Chance(0.5) ? GetRecordsCut::kIteratorOnLast : GetRecordsCut::kShort;
}

bool ChooseListTablesCut(const RequestContext& ctx, size_t* page) {
  if (!ctx.policies || !ctx.policies->page_chaos) return false;
  ChaosDice dice(ctx.policies->chaos_seed);
  if (dice.Below(4) != 0) *page = 1 + dice.Below(std::min<size_t>(*page, 3));
  return dice.Chance(0.5);
}

std::vector<bool> ChooseUnprocessed(const RequestContext& ctx, BatchKind kind, size_t total, std::string* injected) {
  if (!ctx.policies) return {};
  const RequestPolicies& policies = *ctx.policies;
  std::vector<bool> left(total, false);
  if (total == 0) return left;
  const uint64_t salt = kind == BatchKind::kGet ? 0xB47C6 : 0xB47C4;
  ChaosDice dice(policies.chaos_seed ^ salt);
  size_t count = 0;
  if (policies.unprocessed > 0) {
    count = std::min(total, static_cast<size_t>(std::ceil(policies.unprocessed * static_cast<double>(total))));
  } else if (policies.page_chaos && dice.Chance(0.5)) {
    count = 1 + dice.Below(total);
  }
  // The first count positions of a random permutation (a partial Fisher-Yates shuffle).
  std::vector<size_t> order(total);
  for (size_t i = 0; i < total; i++) order[i] = i;
  for (size_t i = 0; i < count; i++) {
    std::swap(order[i], order[i + dice.Below(total - i)]);
    left[order[i]] = true;
  }
  if (count) *injected = std::to_string(count) + " of " + std::to_string(total) + " unprocessed";
  return left;
}

}  // namespace dynapage
