// SearchVectors: the TopK items of a vector index nearest to a query vector, exactly (docs/vector-search.md).
//
// A brute-force scan of the index's entries (engine/vector/vector_store.h) within the HASH value the condition
// names, keeping the K best in a heap: O(N·D + N·log K). Scores: COSINE 1 − cos (0 best, exactly 1 when either
// vector is zero), EUCLIDEAN the distance (0 best), DOT_PRODUCT the dot product (highest best); components are
// 32-bit floats, sums are doubles. Ties go to the smaller primary key (partition key, then sort key, in
// DynamoDB's key order), so a search answers the same every time. Checks come in DynamoDB's order: TopK, the
// expressions' syntax, the table, the index and its readiness, the search vector, the condition's meaning.

#ifndef DYNAPAGE_ENGINE_VECTOR_SEARCH_VECTORS_H_
#define DYNAPAGE_ENGINE_VECTOR_SEARCH_VECTORS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/vector/vector_store.h"

namespace dynapage {

constexpr int64_t kMaxTopK = 100;

struct SearchVectorsRequest {
  std::string table_name;  // a name or an ARN
  std::string index_name;
  std::vector<AttributeValue> search_vector;  // as sent: each should be an N
  int64_t top_k = 1;                          // REQUIRES: ≥ 1 (the server's constraint check)
  std::optional<std::string> projection_expression;
  std::optional<std::string> search_condition_expression;
  ExpressionInputs expression_inputs;
};

struct SearchVectorsResult {
  struct Match {
    AttributeMap item;
    double score = 0;
  };
  std::vector<Match> matches;  // best first
  // VectorSearchRequestBytes: max(1024, Σ the capacity sizes of the entries the search scanned).
  double request_bytes = 0;
};

Status SearchVectors(const Catalog& catalog, const VectorStore& vectors, const RequestContext& ctx,
                     const SearchVectorsRequest& request, SearchVectorsResult* result);

// A vector component as SearchVectors returns it: the float's shortest decimal text, with a fraction ("1.0").
std::string VectorComponentText(float f);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_VECTOR_SEARCH_VECTORS_H_
