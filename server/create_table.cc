// CreateTable: declares a table (hash or hash+range key) with its LSIs and GSIs; ACTIVE at once.

#include <set>

#include "server/operation.h"
#include "server/request_reader.h"
#include "server/table_description_json.h"

namespace dynapage {

namespace {
const char kInvalid[] = "One or more parameter values were invalid: ";

struct KeyElement {
  std::optional<std::string> name, type;
};

// Reads a list of structures, type-checking each element.
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
    if (!e.IsObject()) {
      return Status::Serialization(e.IsArray() ? "Start of list found where not expected" : "Unexpected field type");
    }
    out->push_back(&e);
  }
  return Status::OK();
}

Status ReadKeySchema(const RequestReader& r, const char* member, const std::string& path,
                     std::vector<KeyElement>* out, bool* present, ConstraintErrors* errors) {
  std::vector<const rapidjson::Value*> elements;
  DP_RETURN_IF_ERROR(ReadStructList(r, member, &elements, present));
  out->clear();
  for (size_t i = 0; i < elements.size(); i++) {
    RequestReader e(*elements[i]);
    KeyElement k;
    DP_RETURN_IF_ERROR(e.GetString("AttributeName", &k.name));
    DP_RETURN_IF_ERROR(e.GetString("KeyType", &k.type));
    std::string p = path + "." + std::to_string(i + 1) + ".member.";
    if (!k.name) errors->AddNull(p + "attributeName");
    else if (k.name->empty()) errors->Add(*k.name, p + "attributeName", "Member must have length greater than or equal to 1");
    else if (k.name->size() > 255) errors->Add(*k.name, p + "attributeName", "Member must have length less than or equal to 255");
    if (!k.type) errors->AddNull(p + "keyType");
    else errors->CheckEnum(k.type, p + "keyType", {"HASH", "RANGE"});
    out->push_back(k);
  }
  if (*present && (out->empty() || out->size() > 2)) {
    errors->AddRaw("Value '[" + std::string("...") + "]' at '" + path + "' failed to satisfy constraint: Member must have length " +
                   (out->empty() ? "greater than or equal to 1" : "less than or equal to 2"));
  }
  return Status::OK();
}

Status ReadThroughput(const RequestReader& r, const std::string& path, std::optional<ProvisionedThroughput>* out,
                      ConstraintErrors* errors) {
  out->reset();
  const rapidjson::Value* v = r.Get("ProvisionedThroughput");
  if (!v) return Status::OK();
  if (!v->IsObject()) return Status::Serialization(v->IsArray() ? "Start of list found where not expected" : "Unexpected field type");
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

std::string ValidateKeySchema(const std::vector<KeyElement>& schema, const std::vector<KeyAttribute>& defs) {
  auto defined = [&](const std::string& name) {
    for (const auto& d : defs) if (d.name == name) return true;
    return false;
  };
  bool missing = false;
  for (const auto& k : schema) missing |= !defined(*k.name);
  if (missing) {
    std::string keys, attrs;
    for (size_t i = 0; i < schema.size(); i++) keys += (i ? ", " : "") + *schema[i].name;
    for (size_t i = 0; i < defs.size(); i++) attrs += (i ? ", " : "") + defs[i].name;
    return std::string(kInvalid) + "Some index key attributes are not defined in AttributeDefinitions. Keys: [" + keys +
           "], AttributeDefinitions: [" + attrs + "]";
  }
  if (schema.size() == 2 && *schema[0].name == *schema[1].name) {
    return "Both the Hash Key and the Range Key element in the KeySchema have the same name";
  }
  if (*schema[0].type != "HASH") return "Invalid KeySchema: The first KeySchemaElement is not a HASH key type";
  if (schema.size() == 2 && *schema[1].type != "RANGE") {
    return "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type";
  }
  return "";
}

KeySchema ToKeySchema(const std::vector<KeyElement>& schema, const std::vector<KeyAttribute>& defs) {
  auto type_of = [&](const std::string& name) {
    for (const auto& d : defs) if (d.name == name) return d.type;
    return AttrType::kS;
  };
  KeySchema key;
  key.hash = KeyAttribute{*schema[0].name, type_of(*schema[0].name)};
  if (schema.size() == 2) key.range = KeyAttribute{*schema[1].name, type_of(*schema[1].name)};
  return key;
}

struct IndexInput {
  std::optional<std::string> name;
  std::vector<KeyElement> key;
  std::optional<std::string> projection_type;
  std::optional<std::vector<std::string>> non_key;
  std::optional<ProvisionedThroughput> throughput;
};

Status ReadIndexes(const RequestReader& r, const char* member, const std::string& path, bool global,
                   std::vector<IndexInput>* out, bool* present, ConstraintErrors* errors) {
  std::vector<const rapidjson::Value*> elements;
  DP_RETURN_IF_ERROR(ReadStructList(r, member, &elements, present));
  for (size_t i = 0; i < elements.size(); i++) {
    RequestReader e(*elements[i]);
    IndexInput index;
    std::string p = path + "." + std::to_string(i + 1) + ".member";
    DP_RETURN_IF_ERROR(e.GetString("IndexName", &index.name));
    bool key_present = false;
    DP_RETURN_IF_ERROR(ReadKeySchema(e, "KeySchema", p + ".keySchema", &index.key, &key_present, errors));
    const rapidjson::Value* projection = e.Get("Projection");
    if (projection) {
      if (!projection->IsObject()) return Status::Serialization("Unexpected field type");
      RequestReader pr(*projection);
      DP_RETURN_IF_ERROR(pr.GetString("ProjectionType", &index.projection_type));
      DP_RETURN_IF_ERROR(pr.GetStringList("NonKeyAttributes", &index.non_key));
      errors->CheckEnum(index.projection_type, p + ".projection.projectionType", {"ALL", "KEYS_ONLY", "INCLUDE"});
    } else {
      errors->AddNull(p + ".projection");
    }
    if (global) DP_RETURN_IF_ERROR(ReadThroughput(e, p + ".provisionedThroughput", &index.throughput, errors));
    if (!key_present) errors->AddNull(p + ".keySchema");
    errors->CheckTableName(index.name, p + ".indexName");
    out->push_back(std::move(index));
  }
  return Status::OK();
}
}  // namespace

Status HandleCreateTable(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  std::optional<std::string> table_name, billing_mode;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetString("BillingMode", &billing_mode));

  std::vector<const rapidjson::Value*> def_values;
  bool defs_present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "AttributeDefinitions", &def_values, &defs_present));
  std::vector<KeyAttribute> defs;
  bool defs_valid = true;
  for (size_t i = 0; i < def_values.size(); i++) {
    RequestReader d(*def_values[i]);
    std::optional<std::string> name, type;
    DP_RETURN_IF_ERROR(d.GetString("AttributeName", &name));
    DP_RETURN_IF_ERROR(d.GetString("AttributeType", &type));
    std::string p = "attributeDefinitions." + std::to_string(i + 1) + ".member.";
    if (!name) errors.AddNull(p + "attributeName");
    if (!type) errors.AddNull(p + "attributeType");
    errors.CheckEnum(type, p + "attributeType", {"B", "N", "S"});
    AttrType t = AttrType::kS;
    if (!name || !type || !AttrTypeFromName(*type, &t) || IsSetType(t)) {
      defs_valid = false;
      continue;
    }
    defs.push_back(KeyAttribute{*name, t});
  }

  std::vector<KeyElement> key;
  bool key_present = false;
  DP_RETURN_IF_ERROR(ReadKeySchema(r, "KeySchema", "keySchema", &key, &key_present, &errors));
  std::vector<IndexInput> lsis, gsis;
  bool lsis_present = false, gsis_present = false;
  DP_RETURN_IF_ERROR(ReadIndexes(r, "LocalSecondaryIndexes", "localSecondaryIndexes", false, &lsis, &lsis_present, &errors));
  DP_RETURN_IF_ERROR(ReadIndexes(r, "GlobalSecondaryIndexes", "globalSecondaryIndexes", true, &gsis, &gsis_present, &errors));
  std::optional<ProvisionedThroughput> throughput;
  DP_RETURN_IF_ERROR(ReadThroughput(r, "provisionedThroughput", &throughput, &errors));
  std::optional<bool> deletion_protection;
  DP_RETURN_IF_ERROR(r.GetBoolean("DeletionProtectionEnabled", &deletion_protection));

  errors.CheckEnum(billing_mode, "billingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  if (!defs_present) errors.AddNull("attributeDefinitions");
  if (!key_present) errors.AddNull("keySchema");
  errors.CheckTableName(table_name, "tableName");
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (!defs_valid) return Status::Validation("Invalid AttributeDefinitions");

  for (size_t i = 0; i < defs.size(); i++) {
    for (size_t j = i + 1; j < defs.size(); j++) {
      if (defs[i].name == defs[j].name) return Status::Validation("Cannot have two attributes with the same name");
    }
  }
  std::string msg = ValidateKeySchema(key, defs);
  if (!msg.empty()) return Status::Validation(msg);
  bool pay_per_request = billing_mode && *billing_mode == "PAY_PER_REQUEST";
  if (pay_per_request && throughput) {
    return Status::Validation(std::string(kInvalid) +
                              "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }
  if (!pay_per_request && !throughput) {
    return Status::Validation(std::string(kInvalid) +
                              "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  }

  TableDefinition table;
  table.name = *table_name;
  table.attribute_definitions = defs;
  table.key = ToKeySchema(key, defs);
  table.pay_per_request = pay_per_request;
  if (throughput) table.throughput = *throughput;
  table.deletion_protection = deletion_protection.value_or(false);

  std::set<std::string> used_attributes = {table.key.hash.name};
  if (table.key.range) used_attributes.insert(table.key.range->name);
  std::set<std::string> index_names;
  for (bool global : {false, true}) {
    std::vector<IndexInput>& inputs = global ? gsis : lsis;
    if (global ? gsis_present : lsis_present) {
      if (inputs.empty()) {
        return Status::Validation(std::string(kInvalid) + "List of " + (global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes") +
                                  " is empty");
      }
    }
    for (auto& input : inputs) {
      msg = ValidateKeySchema(input.key, defs);
      if (!msg.empty()) return Status::Validation(msg);
      IndexDefinition index;
      index.name = *input.name;
      index.global = global;
      index.key = ToKeySchema(input.key, defs);
      if (!global) {
        if (!table.key.range) {
          return Status::Validation(std::string(kInvalid) +
                                    "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex");
        }
        if (!index.key.range) {
          return Status::Validation(std::string(kInvalid) + "Index KeySchema does not have a range key for index: " + index.name);
        }
        if (index.key.hash.name != table.key.hash.name) {
          return Status::Validation(std::string(kInvalid) +
                                    "Index KeySchema does not have the same leading hash key as table KeySchema for index: " +
                                    index.name + ". index hash key: " + index.key.hash.name +
                                    ", table hash key: " + table.key.hash.name);
        }
      }
      std::string type = input.projection_type.value_or("");
      if (type.empty()) {
        return Status::Validation(std::string(kInvalid) + "Unknown ProjectionType: null");
      }
      if (type != "INCLUDE" && input.non_key) {
        return Status::Validation(std::string(kInvalid) + "ProjectionType is " + type + ", but NonKeyAttributes is specified");
      }
      index.projection = type == "ALL" ? ProjectionType::kAll : type == "KEYS_ONLY" ? ProjectionType::kKeysOnly : ProjectionType::kInclude;
      if (input.non_key) index.non_key_attributes = *input.non_key;
      if (global) {
        if (!pay_per_request && !input.throughput) {
          return Status::Validation(std::string(kInvalid) + "ProvisionedThroughput must be specified for index: " + index.name);
        }
        if (pay_per_request && input.throughput) {
          return Status::Validation(std::string(kInvalid) +
                                    "ProvisionedThroughput should not be specified for index: " + index.name +
                                    " when BillingMode is PAY_PER_REQUEST");
        }
        if (input.throughput) index.throughput = *input.throughput;
      }
      if (!index_names.insert(index.name).second) {
        return Status::Validation(std::string(kInvalid) + "Duplicate index name: " + index.name);
      }
      used_attributes.insert(index.key.hash.name);
      if (index.key.range) used_attributes.insert(index.key.range->name);
      table.indexes.push_back(std::move(index));
    }
  }
  if (lsis.size() > 5) {
    return Status::Validation(std::string(kInvalid) + "Number of LocalSecondaryIndexes exceeds per-table limit of 5");
  }
  if (gsis.size() > 20) {
    return Status::Validation(std::string(kInvalid) + "GlobalSecondaryIndex count exceeds the per-table limit of 20");
  }
  if (used_attributes.size() != defs.size()) {
    return Status::Validation(std::string(kInvalid) +
                              "Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions");
  }

  TableDescription description;
  DP_RETURN_IF_ERROR(ctx.db.CreateTable(std::move(table), &description));
  ctx.response.StartObject();
  ctx.response.Key("TableDescription");
  WriteTableDescription(description, &ctx.response);
  ctx.response.EndObject();
  return Status::OK();
}

}  // namespace dynapage
