// CreateTable: declares a table (hash or hash+range key) with its LSIs and GSIs; ACTIVE at once.

#include "engine/catalog/index_schema.h"
#include "engine/catalog/vector_index_schema.h"

#include "engine/base/messages.h"
#include "engine/write/resource_policies.h"
#include "engine/write/table_settings.h"
#include "engine/write/tags.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/stream_specification_reader.h"
#include "server/protocol/table_description_json.h"
#include "server/protocol/table_schema_reader.h"
#include "server/protocol/table_settings_reader.h"
#include "server/protocol/tag_list_reader.h"
#include "server/protocol/vector_index_reader.h"

namespace dynapage {

namespace {

Status ReadIndexes(const RequestReader& r, const char* member, const std::string& path, bool global,
                   std::vector<SecondaryIndexInput>* out, bool* present, ConstraintErrors* errors) {
  std::vector<const rapidjson::Value*> elements;
  DP_RETURN_IF_ERROR(ReadStructList(r, member, &elements, present));
  for (size_t i = 0; i < elements.size(); i++) {
    SecondaryIndexInput index;
    std::string p = path + "." + std::to_string(i + 1) + ".member";
    DP_RETURN_IF_ERROR(ReadSecondaryIndex(RequestReader(*elements[i]), p, global, &index, errors));
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
  std::vector<KeyAttribute> defs;
  bool defs_present = false, defs_valid = true;
  DP_RETURN_IF_ERROR(ReadAttributeDefinitions(r, &defs, &defs_present, &defs_valid, &errors));
  std::vector<KeyElementInput> key;
  bool key_present = false;
  DP_RETURN_IF_ERROR(ReadKeySchema(r, "KeySchema", "keySchema", &key, &key_present, &errors));
  std::vector<SecondaryIndexInput> lsis, gsis;
  bool lsis_present = false, gsis_present = false;
  DP_RETURN_IF_ERROR(
      ReadIndexes(r, "LocalSecondaryIndexes", "localSecondaryIndexes", false, &lsis, &lsis_present, &errors));
  DP_RETURN_IF_ERROR(
      ReadIndexes(r, "GlobalSecondaryIndexes", "globalSecondaryIndexes", true, &gsis, &gsis_present, &errors));
  std::vector<const rapidjson::Value*> vector_elements;
  bool vectors_present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "VectorIndexes", &vector_elements, &vectors_present));
  std::vector<VectorIndexInput> vector_indexes(vector_elements.size());
  for (size_t i = 0; i < vector_elements.size(); i++) {
    DP_RETURN_IF_ERROR(ReadVectorIndex(RequestReader(*vector_elements[i]),
                                       "vectorIndexes." + std::to_string(i + 1) + ".member", &vector_indexes[i],
                                       &errors));
  }
  std::optional<ProvisionedThroughput> throughput;
  DP_RETURN_IF_ERROR(ReadThroughput(r, "provisionedThroughput", &throughput, &errors));
  std::optional<bool> deletion_protection;
  DP_RETURN_IF_ERROR(r.GetBoolean("DeletionProtectionEnabled", &deletion_protection));
  std::vector<std::pair<std::string, std::string>> tags;
  bool tags_present = false;
  DP_RETURN_IF_ERROR(ReadTagList(r, &tags, &tags_present, &errors));
  StreamSpecificationInput stream;
  DP_RETURN_IF_ERROR(ReadStreamSpecification(r, &stream, &errors));
  TableSettingsInput settings;
  DP_RETURN_IF_ERROR(ReadTableSettings(r, &settings, &errors));
  std::optional<std::string> resource_policy;
  DP_RETURN_IF_ERROR(r.GetString("ResourcePolicy", &resource_policy));

  errors.CheckEnum(billing_mode, "billingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  if (!defs_present) errors.AddNull("attributeDefinitions");
  if (!key_present) errors.AddNull("keySchema");
  errors.CheckTableName(table_name, "tableName");
  CheckModelConstraints("CreateTable", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (!defs_valid) return Status::Validation("Invalid AttributeDefinitions");
  DP_RETURN_IF_ERROR(CreateTableStreamCheck(stream));
  DP_RETURN_IF_ERROR(CheckSseSpecification(r));
  if (resource_policy) {
    const std::string arn =
        "arn:aws:dynamodb:" + ctx.context.caller.region + ":" + ctx.context.caller.account_id + ":table/" + *table_name;
    DP_RETURN_IF_ERROR(CheckResourcePolicyDocument(*resource_policy, arn, true));
  }

  for (size_t i = 0; i < defs.size(); i++) {
    for (size_t j = i + 1; j < defs.size(); j++) {
      if (defs[i].name == defs[j].name) {
        return Status::Validation(std::string(kInvalidParameterPrefix) +
                                  "Duplicate AttributeName in AttributeDefinitions: " + defs[i].name);
      }
    }
  }
  bool pay_per_request = billing_mode && *billing_mode == "PAY_PER_REQUEST";
  if (pay_per_request && throughput) {
    return Status::Validation(
        std::string(kInvalidParameterPrefix) +
        "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }
  if (!pay_per_request && !throughput) {
    return Status::Validation(
        std::string(kInvalidParameterPrefix) +
        "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  }

  for (bool global : {false, true}) {
    if ((global ? gsis_present : lsis_present) && (global ? gsis : lsis).empty()) {
      return Status::Validation(std::string(kInvalidParameterPrefix) + "List of " +
                                (global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes") + " is empty");
    }
  }
  if (vectors_present && vector_indexes.empty()) {
    return Status::Validation(std::string(kInvalidParameterPrefix) + "List of VectorIndexes is empty");
  }
  for (const auto& input : vector_indexes) {
    DP_RETURN_IF_ERROR(CheckVectorAttributeUndefined(input.vector_attribute, defs));
  }
  bool has_index_lists = lsis_present || gsis_present || vectors_present;
  std::vector<SecondaryIndexInput> all_indexes = lsis;
  all_indexes.insert(all_indexes.end(), gsis.begin(), gsis.end());
  DP_RETURN_IF_ERROR(
      CheckAttributeDefinitions(key, all_indexes, has_index_lists, defs, SearchSchemaNames(vector_indexes)));
  TableDefinition table;
  DP_RETURN_IF_ERROR(CheckKeySchemaShape(key, defs, &table.key));
  if (!has_index_lists && defs.size() != key.size()) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Number of attributes in KeySchema does not exactly match number of attributes defined "
                              "in AttributeDefinitions");
  }
  table.name = *table_name;
  table.attribute_definitions = defs;
  table.pay_per_request = pay_per_request;
  if (throughput) table.throughput = *throughput;
  table.deletion_protection = deletion_protection.value_or(false);
  for (const auto& [key, value] : tags) table.tags[key] = value;
  DP_RETURN_IF_ERROR(CheckTagSet(table.tags));
  if (stream.present && *stream.enabled) table.stream_view_type = *stream.view_type;
  for (bool global : {false, true}) {
    if (!(global ? gsis_present : lsis_present)) continue;
    for (const auto& input : global ? gsis : lsis) DP_RETURN_IF_ERROR(AddSecondaryIndex(input, &table));
    DP_RETURN_IF_ERROR(CheckIndexLimits(table, global));
  }
  DP_RETURN_IF_ERROR(CheckVectorIndexCount(vector_indexes.size()));
  for (const auto& input : vector_indexes) DP_RETURN_IF_ERROR(AddVectorIndex(input, &table));
  DP_RETURN_IF_ERROR(ApplyCreateTableSettings(ctx.context, settings, gsis, &table));
  if (resource_policy) {
    const auto now_ms = static_cast<int64_t>(ctx.context.clock->NowSeconds() * 1000);
    table.settings.resource_policies[""] = {*resource_policy, std::to_string(now_ms)};
  }

  TableDescription description;
  DP_RETURN_IF_ERROR(ctx.db.writes().CreateTable(ctx.context, std::move(table), &description));
  ApplyTransientStatus(ctx.context, &description);
  // The answer shows WarmThroughput only where the request set it, UPDATING (DynamoDB's CreateTable does).
  description.settings_status["warm"] = settings.capacity.warm ? "UPDATING" : "";
  for (const auto& gsi : gsis) description.settings_status["warm/" + gsi.name] = gsi.settings.warm ? "UPDATING" : "";
  // Vector indexes made with the table answer CREATING, without Backfilling (docs/vector-search.md).
  for (const auto& index : description.definition->vector_indexes) description.index_status[index.name] = "CREATING";
  WriteTableDescriptionResponse("TableDescription", description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
