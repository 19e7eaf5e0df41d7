#include "engine/read/query.h"

#include "engine/expressions/condition_evaluator.h"
#include "engine/expressions/key_condition.h"
#include "engine/read/read_plan.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {

// The storage-key range of a key condition within the partition prefix.
void RangeOf(const std::string& partition, const KeyCondition& kc, std::string* lower, std::string* upper) {
  auto with = [&](const AttributeValue& v) {
    std::string key = partition;
    AppendKeyPart(v, &key);
    return key;
  };
  *lower = partition;
  *upper = PrefixSuccessor(partition);
  switch (kc.sort_op) {
    case KeyCondition::SortOp::kNone: break;
    case KeyCondition::SortOp::kEq:
      *lower = with(kc.sort_lower);
      *upper = PrefixSuccessor(*lower);
      break;
    case KeyCondition::SortOp::kLt: *upper = with(kc.sort_lower); break;
    case KeyCondition::SortOp::kLe: *upper = PrefixSuccessor(with(kc.sort_lower)); break;
    case KeyCondition::SortOp::kGt: *lower = PrefixSuccessor(with(kc.sort_lower)); break;
    case KeyCondition::SortOp::kGe: *lower = with(kc.sort_lower); break;
    case KeyCondition::SortOp::kBetween:
      *lower = with(kc.sort_lower);
      *upper = PrefixSuccessor(with(kc.sort_upper));
      break;
    case KeyCondition::SortOp::kBeginsWith: {
      // A part is the escaped bytes then a terminator; every value starting with the prefix has an encoding
      // starting with the prefix's escaped bytes.
      std::string prefix = with(kc.sort_lower);
      prefix.resize(prefix.size() - 2);  // drop the terminator
      *lower = prefix;
      *upper = PrefixSuccessor(prefix);
      break;
    }
  }
}

// The start key must lie in the queried key range (docs/behaviour.md §3.2).
Status CheckStartKeyAgainstCondition(const KeySchema& schema, bool hash_only_table, const KeyCondition& kc,
                                     const AttributeMap& start_key) {
  if (hash_only_table) {
    return Status::Validation("The provided exclusive start key is invalid: ExclusiveStartKey: " +
                              DescribeKeyForMessage(start_key));
  }
  const AttributeValue& pk = start_key.at(schema.hash.name);
  bool same_partition = pk == kc.partition_value;
  bool sort_ok = true;
  if (kc.sort_op != KeyCondition::SortOp::kNone && schema.range) {
    sort_ok = SortKeyMatches(kc, start_key.at(schema.range->name));
  }
  if (kc.sort_op == KeyCondition::SortOp::kNone) {
    if (!same_partition) {
      return Status::Validation("The provided starting key is outside query boundaries based on provided conditions");
    }
    return Status::OK();
  }
  if (!sort_ok) return Status::Validation("The provided starting key does not match the range key predicate");
  if (!same_partition) return Status::Validation("The query can return at most one row and cannot be restarted");
  return Status::OK();
}

// The start of the queried key range: the partition's prefix, then on a multi-attribute key the RANGE values
// fixed by equality before the last condition (docs/multi-attribute-keys.md).
std::string QueryPrefix(uint32_t keyspace, const KeyCondition& kc) {
  if (kc.more_partition_values.empty() && kc.sort_equalities.empty()) {
    return PartitionPrefix(keyspace, kc.partition_value);
  }
  const AttributeValue* hashes[kMaxKeyAttributesOfOneType];
  size_t count = 0;
  hashes[count++] = &kc.partition_value;
  for (const AttributeValue& v : kc.more_partition_values) hashes[count++] = &v;
  std::string prefix = CompositePartitionPrefix(keyspace, hashes, count);
  for (const AttributeValue& v : kc.sort_equalities) AppendKeyPart(v, &prefix);
  return prefix;
}

// On a multi-attribute key the start key must lie in the queried key range, whatever part of it differs.
Status CheckMultiAttributeStartKey(const std::string& start_storage_key, const std::string& lower,
                                   const std::string& upper) {
  if (start_storage_key < lower || (!upper.empty() && start_storage_key >= upper)) {
    return Status::Validation("The provided starting key does not match the range key predicate");
  }
  return Status::OK();
}

}  // namespace

Status Query(const Catalog& catalog, const RequestContext& ctx, const QueryRequest& request, ItemSink* sink,
             ReadResult* result) {
  ReadPlan plan;
  DP_RETURN_IF_ERROR(PrepareRead(catalog, request, ReadKind::kQuery, &request.key_condition_expression,
                                 &request.key_conditions, &plan));
  if (!plan.key_condition) {
    return Status::Validation(
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
  }
  const KeySchema& schema = plan.index ? plan.index->key : plan.table->key;
  KeyCondition kc;
  DP_RETURN_IF_ERROR(BindKeyCondition(*plan.key_condition, schema, &kc));
  bool hash_only_table = !plan.index && !plan.table->key.range;
  uint32_t keyspace = plan.index ? plan.index->keyspace : plan.table->keyspace;
  PageSpec spec;
  RangeOf(QueryPrefix(keyspace, kc), kc, &spec.lower, &spec.upper);
  if (request.exclusive_start_key) {
    if (schema.multi_attribute()) {
      DP_RETURN_IF_ERROR(CheckMultiAttributeStartKey(*plan.start_storage_key, spec.lower, spec.upper));
    } else {
      DP_RETURN_IF_ERROR(CheckStartKeyAgainstCondition(schema, hash_only_table, kc, *request.exclusive_start_key));
    }
  }
  if (plan.filter && !request.filter_may_read_keys) {
    std::vector<DocumentPath> paths;
    CollectConditionPaths(*plan.filter, &paths);
    DP_RETURN_IF_ERROR(CheckNestedKeyPaths(paths, plan.table->key, plan.index ? &plan.index->key : nullptr));
    DP_RETURN_IF_ERROR(
        CheckFilterAvoidsKeys(paths, schema, request.legacy_filter ? "QueryFilter" : "Filter Expression"));
  }
  DP_RETURN_IF_ERROR(CheckIndexSelect(plan, request));

  spec.forward = request.scan_index_forward;
  spec.single_item_range = hash_only_table;
  return ReadPlannedPage(catalog, ctx, plan, request, &spec, sink, result);
}

}  // namespace dynapage
