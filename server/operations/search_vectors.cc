// SearchVectors: the TopK items of a vector index nearest to a vector (docs/vector-search.md). Here: the members'
// JSON types and constraints; engine/vector/search_vectors.h does the search and the checks that need the table.

#include "engine/vector/search_vectors.h"

#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
// TopK is an int: a fraction is refused while the JSON is read, as DynamoDB's deserializer does.
Status ReadTopK(const RequestReader& r, std::optional<int64_t>* out) {
  const rapidjson::Value* v = r.Get("TopK");
  if (v && v->IsNumber() && !v->IsInt64() && !v->IsUint64()) {
    return Status::Serialization("invalid type: floating point `" + std::to_string(v->GetDouble()) + "`, expected i32");
  }
  return r.GetInteger("TopK", out);
}

Status ReadSearchVector(const RequestReader& r, std::optional<std::vector<AttributeValue>>* out) {
  const rapidjson::Value* v = r.Get("SearchVector");
  if (!v) return Status::OK();
  if (!v->IsArray()) return Status::Serialization("Unexpected field type");
  out->emplace();
  for (const auto& element : v->GetArray()) {
    AttributeValue value;
    DP_RETURN_IF_ERROR(DecodeAttributeValue(element, &value));
    (*out)->push_back(std::move(value));
  }
  return Status::OK();
}
}  // namespace

Status HandleSearchVectors(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name, index_name, capacity;
  std::optional<std::vector<AttributeValue>> search_vector;
  std::optional<int64_t> top_k;
  SearchVectorsRequest request;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetString("IndexName", &index_name));
  DP_RETURN_IF_ERROR(ReadSearchVector(r, &search_vector));
  DP_RETURN_IF_ERROR(ReadTopK(r, &top_k));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", &capacity));
  DP_RETURN_IF_ERROR(r.GetString("ProjectionExpression", &request.projection_expression));
  DP_RETURN_IF_ERROR(r.GetString("SearchConditionExpression", &request.search_condition_expression));
  DP_RETURN_IF_ERROR(r.GetExpressionInputs(&request.expression_inputs));

  ConstraintErrors errors;
  errors.CheckTableNameOrArn(table_name, "tableName");
  if (!index_name) errors.AddNull("indexName");
  if (index_name && index_name->size() < 3) {
    errors.AddUnechoed("IndexName", "Member must have length greater than or equal to 3");
  }
  if (index_name && index_name->size() > 255) {
    errors.AddUnechoed("IndexName", "Member must have length less than or equal to 255");
  }
  if (!search_vector) errors.AddNull("searchVector");
  if (search_vector && search_vector->empty()) {
    errors.AddUnechoed("SearchVector", "Member must have length greater than or equal to 1");
  }
  if (!top_k) errors.AddNull("topK");
  errors.CheckMin(top_k, "topK", 1);
  errors.CheckEnum(capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  request.table_name = *table_name;
  request.index_name = *index_name;
  request.search_vector = std::move(*search_vector);
  request.top_k = *top_k;
  SearchVectorsResult result;
  DP_RETURN_IF_ERROR(SearchVectors(ctx.db.catalog(), ctx.db.vectors(), ctx.context, request, &result));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("SearchResults");
  w.StartArray();
  for (const auto& match : result.matches) {
    w.StartObject();
    w.Key("Item");
    WriteAttributeMap(match.item, &w);
    w.Key("Score");
    w.Double(match.score);
    w.EndObject();
  }
  w.EndArray();
  // A bare VectorCapacity, the same under TOTAL and INDEXES.
  if (capacity && *capacity != "NONE") {
    w.Key("ConsumedCapacity");
    w.StartObject();
    w.Key("VectorSearchRequestBytes");
    w.Double(result.request_bytes);
    w.EndObject();
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
