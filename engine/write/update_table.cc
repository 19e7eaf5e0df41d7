#include "engine/write/update_table.h"

#include "engine/base/messages.h"

#include <algorithm>
#include <set>

namespace dynapage {

namespace {

// Sets the units of *current (of a table or GSI that was PAY_PER_REQUEST if was_on_demand) to requested,
// stamping the time of an increase or decrease; an unchanged value is refused.
Status ChangeThroughput(const ProvisionedThroughput& requested, bool was_on_demand, double now,
                        ProvisionedThroughput* current) {
  int64_t read = was_on_demand ? 0 : current->read_capacity_units;
  int64_t write = was_on_demand ? 0 : current->write_capacity_units;
  int64_t new_read = requested.read_capacity_units, new_write = requested.write_capacity_units;
  if (new_read == read && new_write == write) {
    return Status::Validation(
        "The provisioned throughput for the table will not change. The requested value equals the current value. "
        "Current ReadCapacityUnits provisioned for the table: " +
        std::to_string(read) + ". Requested ReadCapacityUnits: " + std::to_string(new_read) +
        ". Current WriteCapacityUnits provisioned for the table: " + std::to_string(write) +
        ". Requested WriteCapacityUnits: " + std::to_string(new_write) +
        ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
  }
  if (new_read > read || new_write > write) current->last_increase_time = now;
  if (new_read < read || new_write < write) {
    current->last_decrease_time = now;
    current->number_of_decreases_today++;
  }
  current->read_capacity_units = new_read;
  current->write_capacity_units = new_write;
  return Status::OK();
}

// Adds the request's definitions to next's (a known attribute keeps its type), then the index.
// Adds to next's definitions those of the request that names lists (a known attribute keeps its type).
Status AddDefinitions(const std::vector<KeyAttribute>& definitions, TableDefinition* next) {
  for (const auto& d : definitions) {
    auto known = std::find_if(next->attribute_definitions.begin(), next->attribute_definitions.end(),
                              [&](const KeyAttribute& k) { return k.name == d.name; });
    if (known == next->attribute_definitions.end()) {
      next->attribute_definitions.push_back(d);
    } else if (known->type != d.type) {
      return Status::Validation(std::string(kInvalidParameterPrefix) + "Cannot change the type of attribute " + d.name +
                                " from " + AttrTypeName(known->type) + " to " + AttrTypeName(d.type));
    }
  }
  return Status::OK();
}

// A key attribute of a new GSI that is a vector index's vector attribute (an L of numbers, never a key type).
Status CheckKeyNotVector(const std::vector<KeyElementInput>& key, const std::vector<KeyAttribute>& definitions,
                         const TableDefinition& table) {
  for (const auto& k : key) {
    auto defined =
        std::find_if(definitions.begin(), definitions.end(), [&](const KeyAttribute& a) { return a.name == k.name; });
    if (defined == definitions.end()) continue;  // undefined: the missing-definition message
    for (const auto& v : table.vector_indexes) {
      if (v.vector_attribute != k.name) continue;
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "Attributes cannot be redefined. Please check that your attribute has the same type "
                                "as previously defined. Existing schema: VectorIndexSchema:[VectorAttribute: key{" +
                                k.name + ":L:" + std::to_string(v.dimensions) +
                                "}] New schema: Schema:[SchemaElement: key{" + k.name + ":" +
                                AttrTypeName(defined->type) + ":" + k.key_type + "}]");
    }
  }
  return Status::OK();
}

Status CreateIndex(const GlobalIndexUpdate& update, const std::vector<KeyAttribute>& definitions,
                   TableDefinition* next) {
  if (IndexNameTaken(*next, update.index_name)) {
    return Status::Validation("Attempting to create an index which already exists");
  }
  DP_RETURN_IF_ERROR(CheckKeyNotVector(update.create.key, definitions, *next));
  DP_RETURN_IF_ERROR(AddDefinitions(definitions, next));
  std::vector<std::string> missing;
  for (const auto& k : update.create.key) {
    bool defined = std::any_of(next->attribute_definitions.begin(), next->attribute_definitions.end(),
                               [&](const KeyAttribute& a) { return a.name == k.name; });
    if (!defined) missing.push_back(k.name);
  }
  if (!missing.empty()) return Status::Validation(UndefinedKeysMessage(missing, definitions));
  DP_RETURN_IF_ERROR(AddSecondaryIndex(update.create, next));
  return CheckIndexLimits(*next, true);
}

// Creates or deletes a vector index (docs/vector-search.md). next's billing mode is the one the request leaves.
Status ChangeVectorIndex(const VectorIndexUpdate& update, const std::vector<KeyAttribute>& definitions, double now,
                         TableDefinition* next) {
  if (!update.create) {
    auto& list = next->vector_indexes;
    auto index = std::find_if(list.begin(), list.end(),
                              [&](const VectorIndexDefinition& v) { return v.name == update.index_name; });
    if (index == list.end()) {
      return Status::NotFound("Requested resource not found: Index " + update.index_name + " for table " + next->name);
    }
    list.erase(index);
    return Status::OK();
  }
  if (!next->pay_per_request) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Vector indexes are only supported for PAY_PER_REQUEST tables");
  }
  if (IndexNameTaken(*next, update.input.name)) {
    return Status::Validation("Attempting to create an index which already exists");
  }
  DP_RETURN_IF_ERROR(AddDefinitions(definitions, next));
  DP_RETURN_IF_ERROR(AddVectorIndex(update.input, next));
  next->vector_indexes.back().creation_time = now;  // backfilling for a transient-status delay
  return CheckVectorIndexCount(next->vector_indexes.size());
}

// Keeps the definitions that a key schema of the table or of an index, or a vector index's SearchSchema, still
// uses.
void DropUnusedDefinitions(TableDefinition* t) {
  auto unused = [&](const KeyAttribute& a) {
    if (t->key.IsKeyAttribute(a.name)) return false;
    for (const auto& v : t->vector_indexes) {
      if (v.FindSearchAttribute(a.name)) return false;
    }
    return std::none_of(t->indexes.begin(), t->indexes.end(),
                        [&](const IndexDefinition& i) { return i.key.IsKeyAttribute(a.name); });
  };
  auto& defs = t->attribute_definitions;
  defs.erase(std::remove_if(defs.begin(), defs.end(), unused), defs.end());
}

Status ApplyUpdate(const UpdateTableRequest& r, const RequestContext& ctx, const TableDefinition& current,
                   TableDefinition* next) {
  const double now = ctx.clock->NowSeconds();
  const bool was_on_demand = current.pay_per_request;
  const bool on_demand = r.pay_per_request.value_or(was_on_demand);
  if (r.throughput && on_demand) {
    return Status::Validation(
        std::string(kInvalidParameterPrefix) +
        "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }
  next->pay_per_request = on_demand;
  if (r.throughput) DP_RETURN_IF_ERROR(ChangeThroughput(*r.throughput, was_on_demand, now, &next->throughput));

  std::set<std::string> updated;
  for (const auto& u : r.index_updates) {
    if (u.action == GlobalIndexUpdate::Action::kCreate) {
      DP_RETURN_IF_ERROR(CreateIndex(u, r.attribute_definitions, next));
      for (auto& index : next->indexes) {
        if (index.name != u.index_name) continue;
        index.creation_time = now;  // CREATING for a transient-status delay
        DP_RETURN_IF_ERROR(ApplyIndexSettings(now, u.create.settings, *next, &index));
      }
      continue;
    }
    auto index = std::find_if(next->indexes.begin(), next->indexes.end(),
                              [&](const IndexDefinition& i) { return i.global && i.name == u.index_name; });
    if (index == next->indexes.end()) {
      return Status::NotFound("Requested resource not found: Index: " + u.index_name + " not found");
    }
    if (u.action == GlobalIndexUpdate::Action::kDelete) {
      next->indexes.erase(index);
      continue;
    }
    DP_RETURN_IF_ERROR(ApplyIndexSettings(now, u.settings, *next, &*index));
    if (!u.throughput) continue;  // on-demand or warm throughput only
    if (on_demand) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "ProvisionedThroughput should not be specified for index: " + u.index_name +
                                " when BillingMode is PAY_PER_REQUEST");
    }
    if (u.throughput->read_capacity_units > kMaxCapacityUnits ||
        u.throughput->write_capacity_units > kMaxCapacityUnits) {
      return Status::Validation(
          "This operation cannot be performed with given input values. Please contact DynamoDB service team for "
          "more info: Action Blocked: IndexUpdate");
    }
    DP_RETURN_IF_ERROR(ChangeThroughput(*u.throughput, was_on_demand, now, &index->throughput));
    updated.insert(u.index_name);
  }

  if (!on_demand && !current.vector_indexes.empty()) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Tables with vector indexes must be in PAY_PER_REQUEST mode");
  }
  for (const auto& u : r.vector_index_updates)
    DP_RETURN_IF_ERROR(ChangeVectorIndex(u, r.attribute_definitions, now, next));

  if (was_on_demand && !on_demand) {
    // A table created PAY_PER_REQUEST has been so since its creation.
    if (next->last_update_to_pay_per_request_time == 0)
      next->last_update_to_pay_per_request_time = current.creation_time;
    // Every GSI that stays needs its own units (a GSI created by this request has them already).
    std::string missing;
    for (const auto& index : next->indexes) {
      if (!index.global || index.keyspace == 0 || updated.count(index.name)) continue;
      missing += (missing.empty() ? "" : ",") + index.name;
    }
    if (!missing.empty()) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "ProvisionedThroughput must be specified for index: " + missing);
    }
  }
  if (!was_on_demand && on_demand) {
    next->last_update_to_pay_per_request_time = now;
    next->throughput.read_capacity_units = next->throughput.write_capacity_units = 0;
    for (auto& index : next->indexes) index.throughput.read_capacity_units = index.throughput.write_capacity_units = 0;
  }
  if (r.deletion_protection) next->deletion_protection = *r.deletion_protection;
  // The view type of an enabled stream cannot change: it is disabled, then enabled anew (a new stream).
  if (r.stream_enabled && *r.stream_enabled) {
    if (!current.stream_view_type.empty()) {
      return Status::Validation("Table already has an enabled stream: TableName: " + current.name);
    }
    next->stream_view_type = r.stream_view_type;
  } else if (r.stream_enabled) {
    // A replica's stream carries what the group replicates (docs/global-tables.md).
    if (current.global.is_global())
      return Status::Validation("Disabling Stream is not allowed for a Global Table replica");
    if (current.stream_view_type.empty()) {
      return Status::Validation("Table has no stream to disable: TableName: " + current.name);
    }
    next->stream_view_type.clear();
  }
  DP_RETURN_IF_ERROR(ApplyUpdateTableSettings(ctx, r.settings, next));
  RaiseWarmThroughputFloors(next);
  DropUnusedDefinitions(next);
  return Status::OK();
}
}  // namespace

Status UpdateTable(WritePath& write_path, const RequestContext& ctx, const UpdateTableRequest& request,
                   TableDescription* out) {
  TableDescription before;
  DP_RETURN_IF_ERROR(write_path.ChangeTable(
      ctx, request.table_name,
      [&](const TableDefinition& current, TableDefinition* next) { return ApplyUpdate(request, ctx, current, next); },
      &before, out));
  // The answer shows a raised warm throughput and changed encryption UPDATING.
  if (request.settings.capacity.warm) out->settings_status["warm"] = "UPDATING";
  if (request.settings.sse) out->settings_status["sse"] = "UPDATING";
  for (const auto& u : request.index_updates) {
    const CapacitySettingsInput& s = u.action == GlobalIndexUpdate::Action::kCreate ? u.create.settings : u.settings;
    if (s.warm) out->settings_status["warm/" + u.index_name] = "UPDATING";
  }
  // The answer still lists a deleted index, as DELETING, with its last figures.
  auto shown = std::make_shared<TableDefinition>(*out->definition);
  for (const auto& index : before.definition->indexes) {
    if (out->definition->FindIndex(index.name)) continue;
    shown->indexes.push_back(index);
    out->index_stats[index.name] = before.index_stats[index.name];
    out->index_status[index.name] = "DELETING";
  }
  // A vector index: created, the table answers UPDATING and the index CREATING; deleted, DELETING.
  for (const auto& u : request.vector_index_updates) {
    if (u.create) {
      out->status = "UPDATING";
      out->index_status[u.input.name] = "CREATING";
      out->index_backfilling[u.input.name] = false;
    } else if (const VectorIndexDefinition* gone = before.definition->FindVectorIndex(u.index_name)) {
      shown->vector_indexes.push_back(*gone);
      out->index_status[u.index_name] = "DELETING";
    }
  }
  out->definition = shown;
  return Status::OK();
}

}  // namespace dynapage
