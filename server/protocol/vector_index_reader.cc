#include "server/protocol/vector_index_reader.h"

#include "server/protocol/table_schema_reader.h"

namespace dynapage {

Status ReadVectorIndex(const RequestReader& r, const std::string& path, VectorIndexInput* out,
                       ConstraintErrors* errors) {
  *out = VectorIndexInput();
  std::optional<std::string> name, vector_attribute, distance;
  std::optional<int64_t> dimensions;
  DP_RETURN_IF_ERROR(r.GetString("IndexName", &name));
  const rapidjson::Value* attribute = r.Get("VectorAttribute");
  if (attribute) {
    if (!attribute->IsObject()) return Status::Serialization("Unexpected field type");
    DP_RETURN_IF_ERROR(RequestReader(*attribute).GetString("AttributeName", &vector_attribute));
    if (!vector_attribute) errors->AddNull(path + ".vectorAttribute.attributeName");
  }
  std::vector<const rapidjson::Value*> elements;
  bool schema_present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "SearchSchema", &elements, &schema_present));
  for (size_t i = 0; i < elements.size(); i++) {
    RequestReader er(*elements[i]);
    std::optional<std::string> element_name, element_type;
    DP_RETURN_IF_ERROR(er.GetString("AttributeName", &element_name));
    DP_RETURN_IF_ERROR(er.GetString("SearchSchemaElementType", &element_type));
    const std::string element_path = path + ".searchSchema." + std::to_string(i + 1) + ".member";
    if (!element_name) errors->AddNull(element_path + ".attributeName");
    if (!element_type) errors->AddNull(element_path + ".searchSchemaElementType");
    errors->CheckEnum(element_type, element_path + ".searchSchemaElementType", {"HASH", "INLINE_FILTER"});
    out->search_schema.push_back({element_name.value_or(""), element_type.value_or("")});
  }
  DP_RETURN_IF_ERROR(ReadProjection(r, path, &out->projection_type, &out->non_key_attributes, errors));
  DP_RETURN_IF_ERROR(r.GetInteger("Dimensions", &dimensions));
  DP_RETURN_IF_ERROR(r.GetString("DistanceFunction", &distance));

  errors->CheckTableName(name, path + ".indexName");
  if (!attribute) errors->AddNull(path + ".vectorAttribute");
  if (!dimensions) errors->AddNull(path + ".dimensions");
  errors->CheckMin(dimensions, path + ".dimensions", 1);
  if (!distance) errors->AddNull(path + ".distanceFunction");
  errors->CheckEnum(distance, path + ".distanceFunction", {"COSINE", "DOT_PRODUCT", "EUCLIDEAN"});
  out->name = name.value_or("");
  out->vector_attribute = vector_attribute.value_or("");
  out->dimensions = dimensions.value_or(0);
  if (distance) DistanceFunctionFromName(*distance, &out->distance);
  return Status::OK();
}

}  // namespace dynapage
