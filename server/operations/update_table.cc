// UpdateTable: billing mode, provisioned throughput, deletion protection and GSI Create/Update/Delete.
//
// Here: the request's types and constraints, and the checks that need only the request (at least one change,
// units in bounds, one action per index, one index created or deleted at a time). engine/write/update_table.cc does
// the rest against the table.

#include "engine/write/update_table.h"

#include "engine/base/messages.h"
#include "engine/database/global_tables.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/stream_specification_reader.h"
#include "server/protocol/table_description_json.h"
#include "server/protocol/table_schema_reader.h"
#include "server/protocol/table_settings_reader.h"
#include "server/protocol/vector_index_reader.h"

namespace dynapage {

namespace {

// A member holding a structure, or nullptr when absent.
Status GetStructure(const RequestReader& r, const char* member, const rapidjson::Value** out) {
  *out = r.Get(member);
  if (*out && !(*out)->IsObject()) {
    return Status::Serialization((*out)->IsArray() ? "Start of list found where not expected"
                                                   : "Unexpected field type");
  }
  return Status::OK();
}

// One GlobalSecondaryIndexUpdates element. *empty: it had none of Update, Create, Delete.
Status ReadIndexUpdate(const RequestReader& r, const std::string& path, GlobalIndexUpdate* out, bool* empty,
                       ConstraintErrors* errors) {
  const rapidjson::Value *update = nullptr, *create = nullptr, *del = nullptr;
  DP_RETURN_IF_ERROR(GetStructure(r, "Update", &update));
  DP_RETURN_IF_ERROR(GetStructure(r, "Create", &create));
  DP_RETURN_IF_ERROR(GetStructure(r, "Delete", &del));
  *empty = !update && !create && !del;
  if ((update != nullptr) + (create != nullptr) + (del != nullptr) > 1) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Only one of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                              "GlobalSecondaryIndexUpdate.Delete can be specified");
  }
  std::optional<std::string> name;
  if (update) {
    RequestReader u(*update);
    out->action = GlobalIndexUpdate::Action::kUpdate;
    DP_RETURN_IF_ERROR(u.GetString("IndexName", &name));
    DP_RETURN_IF_ERROR(ReadThroughput(u, path + ".update.provisionedThroughput", &out->throughput, errors));
    DP_RETURN_IF_ERROR(ReadCapacitySettings(u, path + ".update", &out->settings, errors));
    if (!out->throughput && !out->settings.on_demand && !out->settings.warm) {
      errors->AddNull(path + ".update.provisionedThroughput");
    }
    errors->CheckTableName(name, path + ".update.indexName");
  } else if (create) {
    out->action = GlobalIndexUpdate::Action::kCreate;
    DP_RETURN_IF_ERROR(ReadSecondaryIndex(RequestReader(*create), path + ".create", true, &out->create, errors));
    name = out->create.name;
  } else if (del) {
    out->action = GlobalIndexUpdate::Action::kDelete;
    DP_RETURN_IF_ERROR(RequestReader(*del).GetString("IndexName", &name));
    errors->CheckTableName(name, path + ".delete.indexName");
  }
  out->index_name = name.value_or("");
  return Status::OK();
}

// One VectorIndexUpdates element: a Create or a Delete, checked for exactly one after the constraints.
Status ReadVectorIndexUpdate(const RequestReader& r, const std::string& path, VectorIndexUpdate* out, int* actions,
                             ConstraintErrors* errors) {
  const rapidjson::Value *create = nullptr, *del = nullptr;
  DP_RETURN_IF_ERROR(GetStructure(r, "Create", &create));
  DP_RETURN_IF_ERROR(GetStructure(r, "Delete", &del));
  *actions = (create != nullptr) + (del != nullptr);
  if (create) {
    out->create = true;
    DP_RETURN_IF_ERROR(ReadVectorIndex(RequestReader(*create), path + ".create", &out->input, errors));
  } else if (del) {
    std::optional<std::string> name;
    DP_RETURN_IF_ERROR(RequestReader(*del).GetString("IndexName", &name));
    errors->CheckTableName(name, path + ".delete.indexName");
    out->index_name = name.value_or("");
  }
  return Status::OK();
}

// What an UpdateTable request asks to change, for the rule that some members must be alone.
struct UpdateTableMembers {
  bool throughput = false, billing_mode = false, index_updates = false, index_create = false, stream = false,
       vector_updates = false, sse = false, table_class = false, deletion_protection = false, warm = false,
       on_demand = false, replicas = false;
  int Count() const {
    return throughput + billing_mode + index_updates + stream + vector_updates + sse + table_class +
           deletion_protection + warm + on_demand + replicas;
  }
};

// DynamoDB's members that must be the only change of their request, in the order it checks them (SSE, table
// class, deletion protection, warm throughput; then replicas; on-demand throughput may come with BillingMode).
Status CheckMembersAlone(const UpdateTableMembers& m) {
  const bool others = m.Count() > 1;
  if (m.sse && others) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Server-Side Encryption modification must be the only operation in the request");
  }
  if (m.table_class && others) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "TableClass modification must be the only operation in the request");
  }
  if (m.deletion_protection && others) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "DeletionProtection modification must be the only operation in the request");
  }
  if (m.warm && m.index_create) {
    return Status::Validation("Create global secondary index cannot be specified when updating WarmThroughput");
  }
  if (m.warm && others) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "WarmThroughput must be the only operation in the request");
  }
  if (m.replicas && others) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Replica modification must be the only operation in the request");
  }
  if (m.on_demand && m.Count() - m.billing_mode > 1) {
    return Status::Validation("OnDemandThroughput can only be combined with BillingMode in an UpdateTable request");
  }
  return Status::OK();
}

Status CheckUnits(const std::optional<ProvisionedThroughput>& t) {
  if (!t) return Status::OK();
  for (auto [units, what] : {std::make_pair(t->read_capacity_units, "ReadCapacityUnits"),
                             std::make_pair(t->write_capacity_units, "WriteCapacityUnits")}) {
    if (units > kMaxCapacityUnits) {
      return Status::Validation("Given value " + std::to_string(units) + " for " + what + " is out of bounds");
    }
  }
  return Status::OK();
}
}  // namespace

Status HandleUpdateTable(OperationContext& ctx) {
  // Replicas of a global table: their own handler (update_table_replicas.cc), unless a member DynamoDB checks
  // before them is there too: CheckMembersAlone then names that member first.
  RequestReader members_reader(ctx.request);
  const rapidjson::Value* replica_updates = members_reader.Get("ReplicaUpdates");
  const bool checked_before_replicas = members_reader.Has("SSESpecification") || members_reader.Has("TableClass") ||
                                       members_reader.Has("DeletionProtectionEnabled") ||
                                       members_reader.Has("WarmThroughput");
  if (replica_updates && replica_updates->IsArray() && !replica_updates->Empty() && !checked_before_replicas) {
    return HandleUpdateTableReplicas(ctx);
  }
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  UpdateTableRequest request;
  std::optional<std::string> table_name, billing_mode;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetString("BillingMode", &billing_mode));
  bool defs_present = false, defs_valid = true;
  DP_RETURN_IF_ERROR(ReadAttributeDefinitions(r, &request.attribute_definitions, &defs_present, &defs_valid, &errors));
  DP_RETURN_IF_ERROR(ReadThroughput(r, "provisionedThroughput", &request.throughput, &errors));
  DP_RETURN_IF_ERROR(r.GetBoolean("DeletionProtectionEnabled", &request.deletion_protection));
  StreamSpecificationInput stream;
  DP_RETURN_IF_ERROR(ReadStreamSpecification(r, &stream, &errors));
  std::vector<const rapidjson::Value*> updates;
  bool updates_present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "GlobalSecondaryIndexUpdates", &updates, &updates_present));
  bool some_update_empty = false;
  for (size_t i = 0; i < updates.size(); i++) {
    GlobalIndexUpdate update;
    bool empty = false;
    std::string path = "globalSecondaryIndexUpdates." + std::to_string(i + 1) + ".member";
    DP_RETURN_IF_ERROR(ReadIndexUpdate(RequestReader(*updates[i]), path, &update, &empty, &errors));
    some_update_empty |= empty;
    if (!empty) request.index_updates.push_back(std::move(update));
  }
  std::vector<const rapidjson::Value*> vector_updates;
  bool vector_updates_present = false;
  DP_RETURN_IF_ERROR(ReadStructList(r, "VectorIndexUpdates", &vector_updates, &vector_updates_present));
  int vector_actions_wrong = -1;  // the number of actions of the first element without exactly one, if any
  for (size_t i = 0; i < vector_updates.size(); i++) {
    VectorIndexUpdate update;
    int actions = 0;
    std::string path = "vectorIndexUpdates." + std::to_string(i + 1) + ".member";
    DP_RETURN_IF_ERROR(ReadVectorIndexUpdate(RequestReader(*vector_updates[i]), path, &update, &actions, &errors));
    if (actions != 1 && vector_actions_wrong < 0) vector_actions_wrong = actions;
    request.vector_index_updates.push_back(std::move(update));
  }
  DP_RETURN_IF_ERROR(ReadTableSettings(r, &request.settings, &errors));
  errors.CheckEnum(billing_mode, "billingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  errors.CheckTableNameOrArn(table_name, "tableName");
  CheckModelConstraints("UpdateTable", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (!defs_valid) return Status::Validation("Invalid AttributeDefinitions");

  UpdateTableMembers members;
  members.throughput = request.throughput.has_value();
  members.billing_mode = billing_mode.has_value();
  members.index_updates = !updates.empty();
  for (const auto& u : request.index_updates) members.index_create |= u.action == GlobalIndexUpdate::Action::kCreate;
  members.stream = stream.present;
  members.vector_updates = !vector_updates.empty();
  members.sse = request.settings.sse.has_value();
  members.table_class = request.settings.table_class.has_value();
  members.deletion_protection = request.deletion_protection.has_value();
  members.warm = request.settings.capacity.warm.has_value();
  members.on_demand = request.settings.capacity.on_demand.has_value();
  members.replicas = r.Has("ReplicaUpdates");  // the global-table operations' to apply
  DP_RETURN_IF_ERROR(CheckMembersAlone(members));
  DP_RETURN_IF_ERROR(CheckSseSpecification(r));
  if (members.on_demand && !request.settings.capacity.on_demand->max_read_request_units &&
      !request.settings.capacity.on_demand->max_write_request_units) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "OnDemandThroughput must specify MaxReadRequestUnits or MaxWriteRequestUnits");
  }
  if (members.Count() - members.replicas == 0) {  // ReplicaUpdates alone: as before the global-table work
    return Status::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or "
        "SSESpecification or ReplicaUpdates is required");
  }
  if (billing_mode && *billing_mode == "PROVISIONED" && !request.throughput) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
  }
  DP_RETURN_IF_ERROR(CheckUnits(request.throughput));
  DP_RETURN_IF_ERROR(UpdateTableStreamCheck(stream));
  // Sent even when no change of capacity is under way.
  if (stream.present && (request.throughput || (billing_mode && *billing_mode == "PROVISIONED"))) {
    return Status::Validation("You cannot modify stream status while updating table IOPS");
  }
  if (some_update_empty) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                              "GlobalSecondaryIndexUpdate.Delete must not be null");
  }
  if (vector_actions_wrong > 1) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Only one vector index action is allowed per VectorIndexUpdate object");
  }
  if (vector_actions_wrong == 0) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null");
  }
  size_t creates_and_deletes = request.vector_index_updates.size();
  for (size_t i = 0; i < request.index_updates.size(); i++) {
    const GlobalIndexUpdate& u = request.index_updates[i];
    for (size_t j = 0; j < i; j++) {
      if (request.index_updates[j].index_name == u.index_name) {
        return Status::Validation(
            std::string(kInvalidParameterPrefix) +
            "Only one global secondary index update per index is allowed simultaneously. Index: " + u.index_name);
      }
    }
    if (u.action != GlobalIndexUpdate::Action::kUpdate) creates_and_deletes++;
  }
  if (creates_and_deletes > 1) {
    return Status::Error(
        ErrorCode::kLimitExceeded,
        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
  }

  request.table_name = *table_name;
  if (billing_mode) request.pay_per_request = *billing_mode == "PAY_PER_REQUEST";
  if (stream.present) {
    request.stream_enabled = stream.enabled;
    request.stream_view_type = stream.view_type.value_or("");
  }
  TableDescription description;
  DP_RETURN_IF_ERROR(UpdateTable(ctx.db.writes(), ctx.context, request, &description));
  // A replica's group-wide settings are every replica's (docs/global-tables.md).
  if (ctx.databases) {
    DP_RETURN_IF_ERROR(PropagateGroupSettings(ctx.databases, ctx.context, description.definition->name));
  }
  ApplyTransientStatus(ctx.context, &description);  // a new index is CREATING for the delay
  WriteTableDescriptionResponse("TableDescription", description, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
