#include "engine/catalog/index_schema.h"

#include "engine/base/messages.h"

#include <algorithm>

namespace dynapage {

namespace {

bool IsDefined(const std::vector<KeyAttribute>& definitions, const std::string& name) {
  return std::any_of(definitions.begin(), definitions.end(), [&](const KeyAttribute& d) { return d.name == name; });
}

std::string JoinList(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); i++) out += (i ? ", " : "") + names[i];
  return out + "]";
}

KeyAttribute DefinedAttribute(const std::vector<KeyAttribute>& definitions, const std::string& name) {
  for (const auto& d : definitions) {
    if (d.name == name) return d;
  }
  return KeyAttribute{name, AttrType::kS};
}

void AddOnce(const std::string& name, std::vector<std::string>* names) {
  if (std::find(names->begin(), names->end(), name) == names->end()) names->push_back(name);
}
}  // namespace

std::string UndefinedKeysMessage(const std::vector<std::string>& keys, const std::vector<KeyAttribute>& definitions) {
  std::vector<std::string> defined;
  for (const auto& d : definitions) defined.push_back(d.name);
  return std::string(kInvalidParameterPrefix) +
         "Some index key attributes are not defined in AttributeDefinitions. Keys: " + JoinList(keys) +
         ", AttributeDefinitions: " + JoinList(defined);
}

Status CheckAttributeDefinitions(const std::vector<KeyElementInput>& key,
                                 const std::vector<SecondaryIndexInput>& indexes, bool has_index_lists,
                                 const std::vector<KeyAttribute>& definitions,
                                 const std::vector<std::string>& search_schema_names) {
  std::vector<std::string> table_keys;
  for (const auto& k : key) table_keys.push_back(k.name);
  if (!has_index_lists) {
    if (key.size() > definitions.size()) {
      return Status::Validation("Invalid KeySchema: Some index key attribute have no definition");
    }
    for (const auto& k : key) {
      if (!IsDefined(definitions, k.name)) return Status::Validation(UndefinedKeysMessage(table_keys, definitions));
    }
    return Status::OK();
  }
  // With indexes DynamoDB names only the missing attributes, across the table and all its indexes.
  std::vector<std::string> used = table_keys, missing;
  for (const auto& index : indexes) {
    for (const auto& k : index.key) AddOnce(k.name, &used);
  }
  // A vector index's SearchSchema attributes are used; one not defined has a message of its own (checked before).
  for (const auto& name : search_schema_names) {
    if (IsDefined(definitions, name)) AddOnce(name, &used);
  }
  for (const auto& name : used) {
    if (!IsDefined(definitions, name)) missing.push_back(name);
  }
  if (!missing.empty()) return Status::Validation(UndefinedKeysMessage(missing, definitions));
  if (definitions.size() > used.size()) {
    std::vector<std::string> defined;
    for (const auto& d : definitions) defined.push_back(d.name);
    std::sort(defined.begin(), defined.end());
    std::sort(used.begin(), used.end());
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Some AttributeDefinitions are not used. AttributeDefinitions: " + JoinList(defined) +
                              ", keys used: " + JoinList(used));
  }
  return Status::OK();
}

Status CheckKeySchemaShape(const std::vector<KeyElementInput>& key, const std::vector<KeyAttribute>& definitions,
                           KeySchema* out) {
  if (key.size() == 2 && key[0].name == key[1].name) {
    return Status::Validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
  }
  if (key[0].key_type != "HASH") {
    return Status::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (key.size() == 2 && key[1].key_type != "RANGE") {
    return Status::Validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  }
  *out = KeySchema();
  out->hash = DefinedAttribute(definitions, key[0].name);
  if (key.size() == 2) out->range = DefinedAttribute(definitions, key[1].name);
  return Status::OK();
}

Status CheckGlobalIndexKeyShape(const std::vector<KeyElementInput>& key, const std::vector<KeyAttribute>& definitions,
                                KeySchema* out) {
  const bool hash_then_range = key.size() == 2 && key[0].key_type == "HASH" && key[1].key_type == "RANGE";
  for (size_t i = 0; i < key.size(); i++) {
    for (size_t j = i + 1; j < key.size(); j++) {
      if (key[i].name != key[j].name) continue;
      // A [HASH, RANGE] pair keeps the single-attribute wording.
      if (hash_then_range) {
        return Status::Validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
      }
      return Status::Validation("The KeySchema contains multiple key attributes with the same name");
    }
  }
  if (key[0].key_type != "HASH") {
    return Status::Validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  size_t hashes = 0, ranges = 0;
  for (const KeyElementInput& k : key) {
    if (k.key_type == "HASH") {
      if (ranges > 0) {
        return Status::Validation(std::string(kInvalidParameterPrefix) +
                                  "All HASH key attributes must precede RANGE key attributes in the KeySchema");
      }
      hashes++;
    } else {
      ranges++;
    }
  }
  for (auto [count, key_type] : {std::pair<size_t, const char*>{hashes, "HASH"}, {ranges, "RANGE"}}) {
    if (count > kMaxKeyAttributesOfOneType) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "The KeySchema exceeds the maximum allowed number of " + key_type + " key attributes");
    }
  }
  *out = KeySchema();
  out->hash = DefinedAttribute(definitions, key[0].name);
  for (size_t i = 1; i < hashes; i++) out->more_hash.push_back(DefinedAttribute(definitions, key[i].name));
  for (size_t i = hashes; i < key.size(); i++) {
    KeyAttribute a = DefinedAttribute(definitions, key[i].name);
    if (i == hashes) {
      out->range = std::move(a);
    } else {
      out->more_range.push_back(std::move(a));
    }
  }
  return Status::OK();
}

Status CheckProjection(const std::optional<std::string>& projection_type,
                       const std::optional<std::vector<std::string>>& non_key_attributes, ProjectionType* projection,
                       std::vector<std::string>* non_key_out) {
  if (!projection_type)
    return Status::Validation(std::string(kInvalidParameterPrefix) + "Unknown ProjectionType: null");
  const std::string& type = *projection_type;
  if (non_key_attributes && type != "INCLUDE") {
    return Status::Validation(std::string(kInvalidParameterPrefix) + "ProjectionType is " + type +
                              ", but NonKeyAttributes is specified");
  }
  if (type == "INCLUDE" && !non_key_attributes) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  }
  if (non_key_attributes) {
    const std::vector<std::string>& names = *non_key_attributes;
    for (size_t i = 1; i < names.size(); i++) {
      if (std::find(names.begin(), names.begin() + i, names[i]) != names.begin() + i) {
        return Status::Validation(std::string(kInvalidParameterPrefix) +
                                  "Duplicate value in NonKeyAttributes: " + names[i]);
      }
    }
  }
  *projection = ProjectionTypeFromName(type.c_str());
  if (non_key_attributes) *non_key_out = *non_key_attributes;
  return Status::OK();
}

Status AddSecondaryIndex(const SecondaryIndexInput& input, TableDefinition* table) {
  const std::string& name = input.name;
  if (!input.global && !table->key.range) {
    return Status::Validation(
        std::string(kInvalidParameterPrefix) +
        "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex");
  }
  IndexDefinition index;
  index.name = name;
  index.global = input.global;
  if (input.global) {
    DP_RETURN_IF_ERROR(CheckGlobalIndexKeyShape(input.key, table->attribute_definitions, &index.key));
  } else {
    DP_RETURN_IF_ERROR(CheckKeySchemaShape(input.key, table->attribute_definitions, &index.key));
  }
  if (!input.global) {
    if (!index.key.range) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "Index KeySchema does not have a range key for index: " + name);
    }
    if (index.key.hash.name != table->key.hash.name) {
      return Status::Validation(
          std::string(kInvalidParameterPrefix) +
          "Index KeySchema does not have the same leading hash key as table KeySchema for index: " + name +
          ". index hash key: " + index.key.hash.name + ", table hash key: " + table->key.hash.name);
    }
  }
  DP_RETURN_IF_ERROR(
      CheckProjection(input.projection_type, input.non_key_attributes, &index.projection, &index.non_key_attributes));
  if (input.global) {
    if (table->pay_per_request && input.throughput) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "ProvisionedThroughput should not be specified for index: " + name +
                                " when BillingMode is PAY_PER_REQUEST");
    }
    if (!table->pay_per_request && !input.throughput) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "ProvisionedThroughput must be specified for index: " + name);
    }
    if (input.throughput) index.throughput = *input.throughput;
  }
  if (table->FindIndex(name) || table->FindVectorIndex(name))
    return Status::Validation(std::string(kInvalidParameterPrefix) + "Duplicate index name: " + name);
  table->indexes.push_back(std::move(index));
  return Status::OK();
}

Status CheckIndexLimits(const TableDefinition& table, bool global) {
  size_t count = 0, projected = 0;
  for (const auto& index : table.indexes) {
    if (index.global == global) count++;
    projected += index.non_key_attributes.size();
  }
  if (!global && count > kMaxLocalIndexes) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Number of LocalSecondaryIndexes exceeds per-table limit of " +
                              std::to_string(kMaxLocalIndexes));
  }
  if (global && count > kMaxGlobalIndexes) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "GlobalSecondaryIndex count exceeds the per-table limit of " +
                              std::to_string(kMaxGlobalIndexes));
  }
  if (projected > kMaxProjectedAttributes) {
    return Status::Validation(
        std::string(kInvalidParameterPrefix) + "Number of projected attributes in all indexes exceeds limit of " +
        std::to_string(kMaxProjectedAttributes) + ", number of projected attributes:" + std::to_string(projected));
  }
  return Status::OK();
}

}  // namespace dynapage
