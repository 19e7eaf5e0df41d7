#include "engine/vector/search_vectors.h"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <mutex>
#include <shared_mutex>

#include "engine/base/messages.h"
#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/expression_parser.h"
#include "engine/expressions/projection.h"
#include "engine/model/value_compare.h"
#include "engine/storage/table_items.h"
#include "engine/vector/search_condition.h"

namespace dynapage {

namespace {
// The storage key's first bytes ("d", keyspace, partition hash); the key's parts follow, in key order.
constexpr size_t kKeyPartsOffset = 13;

// Σ a·b over n floats, in double, with four independent sums (the compiler may not reorder one sum).
double Dot(const float* a, const float* b, size_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += static_cast<double>(a[i]) * b[i];
    s1 += static_cast<double>(a[i + 1]) * b[i + 1];
    s2 += static_cast<double>(a[i + 2]) * b[i + 2];
    s3 += static_cast<double>(a[i + 3]) * b[i + 3];
  }
  for (; i < n; i++) s0 += static_cast<double>(a[i]) * b[i];
  return (s0 + s1) + (s2 + s3);
}

// Σ (a−b)² over n floats, in double.
double SquaredDistance(const float* a, const float* b, size_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t i = 0;
  auto sq = [](double x) { return x * x; };
  for (; i + 4 <= n; i += 4) {
    s0 += sq(static_cast<double>(a[i]) - b[i]);
    s1 += sq(static_cast<double>(a[i + 1]) - b[i + 1]);
    s2 += sq(static_cast<double>(a[i + 2]) - b[i + 2]);
    s3 += sq(static_cast<double>(a[i + 3]) - b[i + 3]);
  }
  for (; i < n; i++) s0 += sq(static_cast<double>(a[i]) - b[i]);
  return (s0 + s1) + (s2 + s3);
}

double ClampToFloatRange(double score) {
  if (std::isnan(score)) return 0;
  return std::clamp(score, -static_cast<double>(FLT_MAX), static_cast<double>(FLT_MAX));
}

// A candidate: rank is the score with "lower is better" for every function (DOT_PRODUCT negated).
struct Candidate {
  double rank;
  double score;
  const VectorEntry* entry;
};
// a before b: the better rank, then the smaller primary key.
bool Before(const Candidate& a, const Candidate& b) {
  if (a.rank != b.rank) return a.rank < b.rank;
  return std::string_view(a.entry->storage_key).substr(kKeyPartsOffset) <
         std::string_view(b.entry->storage_key).substr(kKeyPartsOffset);
}

bool PassesFilters(const VectorEntry& entry, const SearchCondition& condition) {
  for (const auto& [position, value] : condition.filters) {
    const auto& have = entry.filters[position];
    if (!have || !ValuesEqual(*have, value)) return false;
  }
  return true;
}

Status CheckExpressionSyntax(const SearchVectorsRequest& r, std::unique_ptr<ConditionExpr>* condition,
                             std::vector<DocumentPath>* projection) {
  const ExpressionNameMap* names = r.expression_inputs.names ? &*r.expression_inputs.names : nullptr;
  const ExpressionValueMap* values = r.expression_inputs.values ? &*r.expression_inputs.values : nullptr;
  if (names && !r.projection_expression && !r.search_condition_expression) {
    return Status::Validation(ExpressionAttributes::NamesWithoutExpressionsMessage());
  }
  if (values && !r.search_condition_expression) {
    return Status::Validation(ExpressionAttributes::ValuesWithoutExpressionsMessage({"SearchConditionExpression"}));
  }
  DP_RETURN_IF_ERROR(ExpressionAttributes::ValidateNames(names));
  DP_RETURN_IF_ERROR(ExpressionAttributes::ValidateValues(values));
  ExpressionAttributes attrs(names, values);
  if (r.search_condition_expression) {
    DP_RETURN_IF_ERROR(ParseCondition(*r.search_condition_expression, "SearchConditionExpression", &attrs, condition));
  }
  if (r.projection_expression) DP_RETURN_IF_ERROR(ParseProjection(*r.projection_expression, &attrs, projection));
  return attrs.CheckAllUsed();
}

// The search vector as floats: every element an N within the float range, else DynamoDB's one message.
Status ReadSearchVector(const std::vector<AttributeValue>& elements, std::vector<float>* out) {
  out->resize(elements.size());
  for (size_t i = 0; i < elements.size(); i++) {
    if (elements[i].type != AttrType::kN || !VectorComponent(elements[i].scalar, &(*out)[i])) {
      return Status::Validation(
          "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point "
          "number attribute");
    }
  }
  return Status::OK();
}

// What SearchVectors returns of a stored item: the index's projection, the vector only when the request's
// ProjectionExpression names it and the index keeps it (as its float copy), then the ProjectionExpression.
AttributeMap ResultItem(const TableDefinition& table, const VectorIndexDefinition& index, const AttributeMap& stored,
                        const std::optional<Projection>& projection, bool vector_requested) {
  AttributeMap item = ProjectForVectorIndex(table, index, stored);
  auto vector = item.find(index.vector_attribute);
  if (vector != item.end()) {
    if (!vector_requested) {
      item.erase(vector);
    } else {
      std::vector<AttributeValue> copy;
      copy.reserve(vector->second.list.size());
      for (const AttributeValue& element : vector->second.list) {
        float f = 0;
        VectorComponent(element.scalar, &f);
        copy.push_back(AttributeValue::Number(VectorComponentText(f)));
      }
      vector->second = AttributeValue::List(std::move(copy));
    }
  }
  return projection ? projection->Apply(item) : item;
}
}  // namespace

std::string VectorComponentText(float f) {
  char buffer[128];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, f, std::chars_format::fixed);
  if (ec != std::errc()) return "0.0";
  std::string text(buffer, end);
  if (text.find('.') == std::string::npos) text += ".0";
  if (text == "-0.0") text = "0.0";  // DynamoDB numbers have no negative zero
  return text;
}

Status SearchVectors(const Catalog& catalog, const VectorStore& vectors, const RequestContext& ctx,
                     const SearchVectorsRequest& request, SearchVectorsResult* result) {
  *result = SearchVectorsResult();
  if (request.top_k > kMaxTopK) {
    return Status::Validation("Provided TopK value '" + std::to_string(request.top_k) +
                              "' is out of valid range. The value must be between 1 and 100 inclusive");
  }
  std::unique_ptr<ConditionExpr> condition_expr;
  std::vector<DocumentPath> projection_paths;
  DP_RETURN_IF_ERROR(CheckExpressionSyntax(request, &condition_expr, &projection_paths));
  auto table = catalog.FindTable(request.table_name);
  if (!table) return Status::NotFound(kResourceNotFound);
  const VectorIndexDefinition* index = table->FindVectorIndex(request.index_name);
  if (!index) return Status::Validation("The table does not have the specified index: " + request.index_name);
  // Under a transient-status delay an index UpdateTable added is backfilling for the delay.
  if (ctx.transient_status_ms && index->creation_time > 0 &&
      (ctx.clock->NowSeconds() - index->creation_time) * 1000 < static_cast<double>(ctx.transient_status_ms)) {
    return Status::Validation("Cannot search backfilling vector index: " + index->name);
  }
  std::vector<float> query;
  DP_RETURN_IF_ERROR(ReadSearchVector(request.search_vector, &query));
  if (query.size() != index->dimensions) {
    return Status::Validation("Input search vector dimension " + std::to_string(query.size()) +
                              " does not match vector index dimension " + std::to_string(index->dimensions));
  }
  SearchCondition condition;
  DP_RETURN_IF_ERROR(BindSearchCondition(condition_expr.get(), *index, &condition));

  const size_t d = index->dimensions;
  const double query_norm_squared = Dot(query.data(), query.data(), d);
  const size_t k = static_cast<size_t>(request.top_k);
  std::vector<Candidate> best;  // a heap whose front is the worst kept
  best.reserve(k + 1);
  std::shared_lock<std::shared_mutex> lock(vectors.mutex());
  const VectorIndexData* data = vectors.Find(table->keyspace, index->name);
  const VectorBucket* bucket = nullptr;
  if (data) {
    auto b = data->buckets.find(condition.bucket.value_or(""));
    if (b != data->buckets.end()) bucket = &b->second;
  }
  uint64_t scanned_bytes = 0;
  if (bucket) {
    scanned_bytes = bucket->total_entry_bytes;
    for (size_t i = 0; i < bucket->entries.size(); i++) {
      const VectorEntry& entry = bucket->entries[i];
      if (!condition.filters.empty() && !PassesFilters(entry, condition)) continue;
      const float* v = bucket->vectors.data() + i * d;
      double score;
      switch (index->distance) {
        case DistanceFunction::kCosine: {
          const double norms = query_norm_squared * entry.norm_squared;
          // sqrt(x·x) is x exactly, so a vector against itself scores exactly 0.
          score = norms == 0 ? 1.0 : std::clamp(1.0 - Dot(query.data(), v, d) / std::sqrt(norms), 0.0, 2.0);
          break;
        }
        case DistanceFunction::kEuclidean:
          score = std::sqrt(SquaredDistance(query.data(), v, d));
          break;
        default:
          score = Dot(query.data(), v, d);
          break;
      }
      score = ClampToFloatRange(score);
      Candidate c{index->distance == DistanceFunction::kDotProduct ? -score : score, score, &entry};
      if (best.size() < k) {
        best.push_back(c);
        std::push_heap(best.begin(), best.end(), Before);
      } else if (Before(c, best.front())) {
        std::pop_heap(best.begin(), best.end(), Before);
        best.back() = c;
        std::push_heap(best.begin(), best.end(), Before);
      }
    }
  }
  std::sort_heap(best.begin(), best.end(), Before);
  result->request_bytes = static_cast<double>(std::max<uint64_t>(1024, scanned_bytes));

  // The K items, read while the lock keeps every write out: each is the item the entry was made from.
  std::vector<std::string_view> keys;
  for (const Candidate& c : best) keys.push_back(c.entry->storage_key);
  std::vector<std::string> values;
  std::vector<bool> found;
  if (!keys.empty()) DP_RETURN_IF_ERROR(catalog.storage().MultiGet(keys, &values, &found));
  std::optional<Projection> projection;
  bool vector_requested = false;
  if (request.projection_expression) {
    projection.emplace(projection_paths);
    for (const auto& path : projection_paths) vector_requested |= path.front().name == index->vector_attribute;
  }
  for (size_t i = 0; i < best.size(); i++) {
    if (!found[i]) continue;
    AttributeMap stored;
    uint64_t size = 0;
    DP_RETURN_IF_ERROR(DecodeTableItem(*table, values[i], &stored, &size));
    result->matches.push_back({ResultItem(*table, *index, stored, projection, vector_requested), best[i].score});
  }
  return Status::OK();
}

}  // namespace dynapage
