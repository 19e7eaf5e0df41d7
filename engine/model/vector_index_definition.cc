#include "engine/model/vector_index_definition.h"

namespace dynapage {

const char* DistanceFunctionName(DistanceFunction function) {
  switch (function) {
    case DistanceFunction::kCosine:
      return "COSINE";
    case DistanceFunction::kDotProduct:
      return "DOT_PRODUCT";
    case DistanceFunction::kEuclidean:
      return "EUCLIDEAN";
  }
  return "COSINE";
}

bool DistanceFunctionFromName(const std::string& name, DistanceFunction* out) {
  for (DistanceFunction f : {DistanceFunction::kCosine, DistanceFunction::kDotProduct, DistanceFunction::kEuclidean}) {
    if (name == DistanceFunctionName(f)) {
      *out = f;
      return true;
    }
  }
  return false;
}

const SearchSchemaElement* VectorIndexDefinition::HashElement() const {
  for (const auto& e : search_schema) {
    if (e.hash) return &e;
  }
  return nullptr;
}

const SearchSchemaElement* VectorIndexDefinition::FindSearchAttribute(const std::string& name) const {
  for (const auto& e : search_schema) {
    if (e.attribute.name == name) return &e;
  }
  return nullptr;
}

void WriteVectorIndexDefinition(const VectorIndexDefinition& v, JsonWriter* w) {
  w->StartObject();
  w->Key("name");
  w->String(v.name);
  w->Key("attribute");
  w->String(v.vector_attribute);
  w->Key("dimensions");
  w->Uint(v.dimensions);
  w->Key("distance");
  w->String(DistanceFunctionName(v.distance));
  w->Key("searchSchema");
  w->StartArray();
  for (const auto& e : v.search_schema) {
    w->StartObject();
    w->Key("name");
    w->String(e.attribute.name);
    w->Key("type");
    w->String(AttrTypeName(e.attribute.type));
    w->Key("hash");
    w->Bool(e.hash);
    w->EndObject();
  }
  w->EndArray();
  w->Key("projection");
  w->String(ProjectionTypeName(v.projection));
  w->Key("include");
  w->StartArray();
  for (const auto& n : v.non_key_attributes) w->String(n);
  w->EndArray();
  w->Key("created");
  w->Double(v.creation_time);
  w->EndObject();
}

bool ReadVectorIndexDefinition(const rapidjson::Value& v, VectorIndexDefinition* index) {
  for (const char* member : {"name", "attribute", "distance", "projection"}) {
    if (!v.HasMember(member) || !v[member].IsString()) return false;
  }
  for (const char* member : {"dimensions", "created"}) {
    if (!v.HasMember(member) || !v[member].IsNumber()) return false;
  }
  if (!v.HasMember("searchSchema") || !v["searchSchema"].IsArray() || !v.HasMember("include") ||
      !v["include"].IsArray()) {
    return false;
  }
  index->name = v["name"].GetString();
  index->vector_attribute = v["attribute"].GetString();
  index->dimensions = v["dimensions"].GetUint();
  if (!DistanceFunctionFromName(v["distance"].GetString(), &index->distance)) return false;
  for (const auto& e : v["searchSchema"].GetArray()) {
    SearchSchemaElement element;
    if (!e.IsObject() || !e.HasMember("name") || !e.HasMember("type") || !e.HasMember("hash")) return false;
    element.attribute.name = e["name"].GetString();
    if (!AttrTypeFromName(e["type"].GetString(), &element.attribute.type)) return false;
    element.hash = e["hash"].GetBool();
    index->search_schema.push_back(std::move(element));
  }
  index->projection = ProjectionTypeFromName(v["projection"].GetString());
  for (const auto& n : v["include"].GetArray()) index->non_key_attributes.push_back(n.GetString());
  index->creation_time = v["created"].GetDouble();
  return true;
}

}  // namespace dynapage
