#include "server/protocol/table_schema_reader.h"

#include "server/protocol/table_settings_reader.h"

namespace dynapage {

namespace {
Status StructureTypeError(const rapidjson::Value& v) {
  return Status::Serialization(v.IsArray() ? "Start of list found where not expected" : "Unexpected field type");
}
}  // namespace

Status ReadStructList(const RequestReader& r, const char* member, std::vector<const rapidjson::Value*>* out,
                      bool* present) {
  out->clear();
  const rapidjson::Value* list = r.Get(member);
  *present = list != nullptr;
  if (!list) return Status::OK();
  std::optional<std::vector<std::string>> ignored;
  if (!list->IsArray()) return r.GetStringList(member, &ignored);  // produces the type error
  for (const auto& e : list->GetArray()) {
    if (e.IsNull()) continue;
    if (!e.IsObject()) return StructureTypeError(e);
    out->push_back(&e);
  }
  return Status::OK();
}

Status ReadAttributeDefinitions(const RequestReader& r, std::vector<KeyAttribute>* out, bool* present, bool* valid,
                                ConstraintErrors* errors) {
  std::vector<const rapidjson::Value*> values;
  DP_RETURN_IF_ERROR(ReadStructList(r, "AttributeDefinitions", &values, present));
  out->clear();
  *valid = true;
  for (size_t i = 0; i < values.size(); i++) {
    RequestReader d(*values[i]);
    std::optional<std::string> name, type;
    DP_RETURN_IF_ERROR(d.GetString("AttributeName", &name));
    DP_RETURN_IF_ERROR(d.GetString("AttributeType", &type));
    std::string p = "attributeDefinitions." + std::to_string(i + 1) + ".member.";
    if (!name) errors->AddNull(p + "attributeName");
    if (!type) errors->AddNull(p + "attributeType");
    errors->CheckEnum(type, p + "attributeType", {"B", "N", "S"});
    AttrType t = AttrType::kS;
    if (!name || !type || !AttrTypeFromName(*type, &t) || IsSetType(t)) {
      *valid = false;
      continue;
    }
    out->push_back(KeyAttribute{*name, t});
  }
  return Status::OK();
}

Status ReadKeySchema(const RequestReader& r, const char* member, const std::string& path,
                     std::vector<KeyElementInput>* out, bool* present, ConstraintErrors* errors, bool at_most_two) {
  std::vector<const rapidjson::Value*> elements;
  DP_RETURN_IF_ERROR(ReadStructList(r, member, &elements, present));
  out->clear();
  for (size_t i = 0; i < elements.size(); i++) {
    RequestReader e(*elements[i]);
    std::optional<std::string> name, type;
    DP_RETURN_IF_ERROR(e.GetString("AttributeName", &name));
    DP_RETURN_IF_ERROR(e.GetString("KeyType", &type));
    std::string p = path + "." + std::to_string(i + 1) + ".member.";
    if (!name)
      errors->AddNull(p + "attributeName");
    else if (name->empty())
      errors->Add(*name, p + "attributeName", "Member must have length greater than or equal to 1");
    else if (name->size() > 255)
      errors->Add(*name, p + "attributeName", "Member must have length less than or equal to 255");
    if (!type)
      errors->AddNull(p + "keyType");
    else
      errors->CheckEnum(type, p + "keyType", {"HASH", "RANGE"});
    out->push_back(KeyElementInput{name.value_or(""), type.value_or("")});
  }
  if (*present && (out->empty() || (at_most_two && out->size() > 2))) {
    std::string value = "[";
    for (const KeyElementInput& k : *out) {
      if (value.size() > 1) value += ", ";
      value += "KeySchemaElement(attributeName=" + k.name + ", keyType=" + k.key_type + ")";
    }
    errors->Add(value + "]", path,
                out->empty() ? "Member must have length greater than or equal to 1"
                             : "Member must have length less than or equal to 2");
  }
  return Status::OK();
}

Status ReadThroughput(const RequestReader& r, const std::string& path, std::optional<ProvisionedThroughput>* out,
                      ConstraintErrors* errors, const char* member) {
  out->reset();
  const rapidjson::Value* v = r.Get(member);
  if (!v) return Status::OK();
  if (!v->IsObject()) return StructureTypeError(*v);
  RequestReader t(*v);
  std::optional<int64_t> read, write;
  DP_RETURN_IF_ERROR(t.GetInteger("ReadCapacityUnits", &read));
  DP_RETURN_IF_ERROR(t.GetInteger("WriteCapacityUnits", &write));
  if (!write) errors->AddNull(path + ".writeCapacityUnits");
  errors->CheckMin(write, path + ".writeCapacityUnits", 1);
  if (!read) errors->AddNull(path + ".readCapacityUnits");
  errors->CheckMin(read, path + ".readCapacityUnits", 1);
  ProvisionedThroughput p;
  p.read_capacity_units = read.value_or(0);
  p.write_capacity_units = write.value_or(0);
  *out = p;
  return Status::OK();
}

Status ReadProjection(const RequestReader& r, const std::string& path, std::optional<std::string>* projection_type,
                      std::optional<std::vector<std::string>>* non_key_attributes, ConstraintErrors* errors) {
  const rapidjson::Value* projection = r.Get("Projection");
  if (projection) {
    if (!projection->IsObject()) return StructureTypeError(*projection);
    RequestReader pr(*projection);
    DP_RETURN_IF_ERROR(pr.GetString("ProjectionType", projection_type));
    DP_RETURN_IF_ERROR(pr.GetStringList("NonKeyAttributes", non_key_attributes));
    errors->CheckEnum(*projection_type, path + ".projection.projectionType", {"ALL", "INCLUDE", "KEYS_ONLY"});
    if (*non_key_attributes && (*non_key_attributes)->empty()) {
      errors->Add("[]", path + ".projection.nonKeyAttributes", "Member must have length greater than or equal to 1");
    }
    if (*non_key_attributes) {
      bool too_long = false;
      std::string value = "[";
      for (const std::string& n : **non_key_attributes) {
        too_long |= n.empty() || n.size() > 255;
        value += (value.size() > 1 ? ", " : "") + n;
      }
      if (too_long) {
        errors->Add(value + "]", path + ".projection.nonKeyAttributes",
                    "Member must satisfy constraint: [Member must have length less than or equal to 255, Member "
                    "must have length greater than or equal to 1]");
      }
    }
  } else {
    errors->AddNull(path + ".projection");
  }
  return Status::OK();
}

Status ReadSecondaryIndex(const RequestReader& r, const std::string& path, bool global, SecondaryIndexInput* out,
                          ConstraintErrors* errors) {
  *out = SecondaryIndexInput();
  out->global = global;
  std::optional<std::string> name;
  DP_RETURN_IF_ERROR(r.GetString("IndexName", &name));
  out->name = name.value_or("");
  bool key_present = false;
  DP_RETURN_IF_ERROR(ReadKeySchema(r, "KeySchema", path + ".keySchema", &out->key, &key_present, errors, !global));
  DP_RETURN_IF_ERROR(ReadProjection(r, path, &out->projection_type, &out->non_key_attributes, errors));
  if (global) DP_RETURN_IF_ERROR(ReadThroughput(r, path + ".provisionedThroughput", &out->throughput, errors));
  if (global) DP_RETURN_IF_ERROR(ReadCapacitySettings(r, path, &out->settings, errors));
  if (!key_present) errors->AddNull(path + ".keySchema");
  errors->CheckTableName(name, path + ".indexName");
  return Status::OK();
}

}  // namespace dynapage
