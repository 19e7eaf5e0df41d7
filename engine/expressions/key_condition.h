// Key conditions: what a Query reads, from a KeyConditionExpression or the legacy KeyConditions map, plus the
// rules that tie a Query's filter to the key attributes.
//
// DynamoDB validates in two steps, and so does this module: the text is checked before the table is looked up
// (ParseKeyConditionExpression / ParseLegacyKeyConditions give table-independent terms), then the terms are
// matched against the key schema of the table or index read (BindKeyCondition). Messages are docs/behaviour.md §5.1's.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_KEY_CONDITION_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_KEY_CONDITION_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/legacy_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/model/key_schema.h"

namespace dynapage {

// The range of a Query: one partition, and optionally a condition on the sort key.
struct KeyCondition {
  enum class SortOp { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };
  AttributeValue partition_value;
  SortOp sort_op = SortOp::kNone;
  AttributeValue sort_lower;  // the operand of a one-operand op; BETWEEN's lower bound
  AttributeValue sort_upper;  // BETWEEN's upper bound
  // A multi-attribute key (docs/multi-attribute-keys.md): partition_value is the first HASH attribute's value and
  // more_partition_values the others', in schema order; sort_equalities are the values of the RANGE attributes
  // before the one sort_op constrains, each with "=". Empty for every other key.
  std::vector<AttributeValue> more_partition_values;
  std::vector<AttributeValue> sort_equalities;
};

// One condition on one attribute, before the key schema is known. Operands are already flipped so that the
// attribute is on the left (":v < sk" is sk > :v).
struct KeyConditionTerm {
  std::string attribute;
  KeyCondition::SortOp op = KeyCondition::SortOp::kEq;  // never kNone
  AttributeValue lower;
  AttributeValue upper;  // kBetween only
};

// A key condition has at most one term per key attribute: 2 on a table or LSI, 8 on a multi-attribute GSI.
constexpr size_t kMaxKeyConditionTerms = 8;

struct ParsedKeyCondition {
  std::vector<KeyConditionTerm> terms;  // 1 to kMaxKeyConditionTerms, distinct attributes
};

// Parses and checks a KeyConditionExpression without the table: the errors of ParseCondition (prefixed
// "Invalid KeyConditionExpression: "), then, unprefixed, "Invalid operator used in KeyConditionExpression: OR"
// (also NOT, IN, <>, attribute_exists, attribute_not_exists, attribute_type, contains),
// "KeyConditionExpressions cannot contain nested operations", "Invalid condition in KeyConditionExpression:
// BETWEEN operator must have the key attribute as its first operand" (and begins_with), "… No key attribute
// specified", "… Multiple attribute names used in one condition", "KeyConditionExpressions cannot have
// conditions on nested attributes", "Conditions can be of length 1 or 2 only" (more than kMaxKeyConditionTerms;
// BindKeyCondition says it for more than 2 on a single-attribute key), "KeyConditionExpressions must only contain
// one condition per key".
Status ParseKeyConditionExpression(std::string_view text, ExpressionAttributes* attrs, ParsedKeyCondition* out);

// The legacy KeyConditions map (entries in request order): ValidateLegacyCondition's checks, then
// "Attempted conditional constraint is not an indexable operation" for NE, NULL, NOT_NULL, CONTAINS,
// NOT_CONTAINS and IN, then "Conditions can be of length 1 or 2 only" (as ParseKeyConditionExpression).
Status ParseLegacyKeyConditions(const std::vector<LegacyCondition>& conditions, ParsedKeyCondition* out);

// Matches terms against the key schema of the table or index being queried:
//   "Query condition missed key schema element: <partition key>" (no condition on it; also when the second
//       condition names "<sort key>" wrongly: then the sort key's name is reported)
//   "Query key condition not supported" (a partition key condition other than EQ; two conditions on a
//       schema without a sort key)
//   "One or more parameter values were invalid: Condition parameter type does not match schema type"
// On a multi-attribute key, docs/multi-attribute-keys.md's rules and messages instead:
//   "Query condition missed key schema element" (a condition on an attribute outside the key)
//   "HASH key attributes a, b must have equality conditions specified in the query"
//   "RANGE key attributes c must have equality conditions specified in the query because a condition is present
//       on key attribute d"
//   then the type mismatch above.
Status BindKeyCondition(const ParsedKeyCondition& parsed, const KeySchema& schema, KeyCondition* out);

// True if a sort key value satisfies the condition's sort part (kNone: any value). Used to check an
// ExclusiveStartKey against the range key predicate.
bool SortKeyMatches(const KeyCondition& condition, const AttributeValue& sort_value);

// Filter rules tied to key attributes, given the paths a filter reads (CollectConditionPaths, or the attribute
// names of a QueryFilter/ScanFilter):
//   "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: a"
//   (a nested path into a key attribute of the table, "IndexKey: d" for one of index, which may be null).
Status CheckNestedKeyPaths(const std::vector<DocumentPath>& paths, const KeySchema& table, const KeySchema* index);
// Query only: "<label> can only contain non-primary key attributes: Primary key attribute: a", for any path
// into a key attribute of schema (the schema queried: the index's for an index Query). label is
// "Filter Expression" or "QueryFilter".
Status CheckFilterAvoidsKeys(const std::vector<DocumentPath>& paths, const KeySchema& schema, const char* label);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_KEY_CONDITION_H_
