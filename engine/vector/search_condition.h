// SearchCondition: SearchVectors' SearchConditionExpression bound to a vector index (docs/vector-search.md,
// "Filtering"): equality conditions joined by AND, one per SearchSchema attribute, the HASH one required when the
// index has a HASH. Parsed by the engine's expression parser (so its syntax errors are Query's, under the prefix
// "Invalid SearchConditionExpression: "), then checked against the index with DynamoDB's messages.

#ifndef DYNAPAGE_ENGINE_VECTOR_SEARCH_CONDITION_H_
#define DYNAPAGE_ENGINE_VECTOR_SEARCH_CONDITION_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/expression_ast.h"
#include "engine/model/attribute_value.h"
#include "engine/model/vector_index_definition.h"

namespace dynapage {

struct SearchCondition {
  std::optional<std::string> bucket;  // the HASH value's bucket (VectorBucketOf); unset without a HASH
  // (position among the index's INLINE_FILTER elements, the value an entry's must equal)
  std::vector<std::pair<size_t, AttributeValue>> filters;
};

// Binds condition (null when the request had none) to index. REQUIRES: condition, if set, came from
// ParseCondition.
Status BindSearchCondition(const ConditionExpr* condition, const VectorIndexDefinition& index, SearchCondition* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_VECTOR_SEARCH_CONDITION_H_
