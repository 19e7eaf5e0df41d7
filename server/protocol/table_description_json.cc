#include "server/protocol/table_description_json.h"

#include "server/protocol/global_table_json.h"
#include "server/protocol/table_settings_json.h"

namespace dynapage {

void WriteKeySchemaElement(const std::string& name, const char* key_type, JsonWriter* w) {
  w->StartObject();
  w->Key("AttributeName");
  w->String(name);
  w->Key("KeyType");
  w->String(key_type);
  w->EndObject();
}

void WriteKeySchema(const KeySchema& key, JsonWriter* w) {
  w->StartArray();
  for (size_t i = 0; i < key.hash_count(); i++) WriteKeySchemaElement(key.hash_at(i).name, "HASH", w);
  for (size_t i = 0; i < key.range_count(); i++) WriteKeySchemaElement(key.range_at(i).name, "RANGE", w);
  w->EndArray();
}

namespace {
// An index's IndexSizeBytes, ItemCount and IndexArn (GSIs, LSIs and vector indexes alike).
void WriteIndexCountsAndArn(const TableDescription& d, const std::string& index_name, JsonWriter* w) {
  auto stats = d.index_stats.find(index_name);
  w->Key("IndexSizeBytes");
  w->Int64(stats == d.index_stats.end() ? 0 : stats->second.size_bytes);
  w->Key("ItemCount");
  w->Int64(stats == d.index_stats.end() ? 0 : stats->second.item_count);
  w->Key("IndexArn");
  w->String(d.definition->arn + "/index/" + index_name);
}

}  // namespace

void WriteProjection(ProjectionType type, const std::vector<std::string>& non_key_attributes, JsonWriter* w) {
  w->StartObject();
  w->Key("ProjectionType");
  w->String(ProjectionTypeName(type));
  if (type == ProjectionType::kInclude) {
    w->Key("NonKeyAttributes");
    w->StartArray();
    for (const auto& n : non_key_attributes) w->String(n);
    w->EndArray();
  }
  w->EndObject();
}

void WriteThroughput(const ProvisionedThroughput& t, bool pay_per_request, JsonWriter* w) {
  w->StartObject();
  if (t.last_increase_time > 0) {
    w->Key("LastIncreaseDateTime");
    w->Double(t.last_increase_time);
  }
  if (t.last_decrease_time > 0) {
    w->Key("LastDecreaseDateTime");
    w->Double(t.last_decrease_time);
  }
  w->Key("NumberOfDecreasesToday");
  w->Int64(t.number_of_decreases_today);
  w->Key("ReadCapacityUnits");
  w->Int64(pay_per_request ? 0 : t.read_capacity_units);
  w->Key("WriteCapacityUnits");
  w->Int64(pay_per_request ? 0 : t.write_capacity_units);
  w->EndObject();
}

namespace {
// ProvisionedThroughput, TableSizeBytes, ItemCount, TableArn, TableId: the members every description has.
void WriteCountsAndIdentity(const TableDescription& d, JsonWriter* w) {
  const TableDefinition& t = *d.definition;
  w->Key("ProvisionedThroughput");
  WriteThroughput(t.throughput, t.pay_per_request, w);
  w->Key("TableSizeBytes");
  w->Int64(d.stats.size_bytes);
  w->Key("ItemCount");
  w->Int64(d.stats.item_count);
  w->Key("TableArn");
  w->String(t.arn);
  w->Key("TableId");
  w->String(t.table_id);
}

// A table created PROVISIONED shows no summary until it has been switched to PAY_PER_REQUEST once.
void WriteBillingModeSummary(const TableDefinition& t, JsonWriter* w) {
  if (!t.pay_per_request && t.last_update_to_pay_per_request_time <= 0) return;
  if (t.global.version == kGlobalTableVersion2019) return;  // a replica shows none (docs/global-tables.md)
  w->Key("BillingModeSummary");
  w->StartObject();
  w->Key("BillingMode");
  w->String(t.pay_per_request ? "PAY_PER_REQUEST" : "PROVISIONED");
  w->Key("LastUpdateToPayPerRequestDateTime");
  w->Double(t.last_update_to_pay_per_request_time > 0 ? t.last_update_to_pay_per_request_time : t.creation_time);
  w->EndObject();
}
}  // namespace

void ApplyTransientStatus(const RequestContext& ctx, TableDescription* description) {
  ApplyReplicaTransientStatus(ctx, description);
  if (ctx.transient_status_ms == 0 || description->status != "ACTIVE") return;
  ApplySettingsTransientStatus(ctx, description);
  const double now = ctx.clock->NowSeconds();
  auto young = [&](double creation_time) {
    return (now - creation_time) * 1000 < static_cast<double>(ctx.transient_status_ms);
  };
  // A new table's global indexes are created with it.
  const bool new_table = young(description->definition->creation_time);
  if (new_table) description->status = "CREATING";
  for (const auto& index : description->definition->indexes) {
    if (index.global && (new_table || (index.creation_time > 0 && young(index.creation_time)))) {
      description->index_status.emplace(index.name, "CREATING");
    }
  }
  // A vector index made with its table is CREATING with it; one UpdateTable added is backfilling for the delay.
  for (const auto& index : description->definition->vector_indexes) {
    if (new_table) {
      description->index_status.emplace(index.name, "CREATING");
    } else if (index.creation_time > 0 && young(index.creation_time)) {
      description->index_status.emplace(index.name, "CREATING");
      description->index_backfilling.emplace(index.name, true);
    }
  }
}

namespace {
void WriteVectorIndexes(const TableDescription& d, JsonWriter* w) {
  const TableDefinition& t = *d.definition;
  if (t.vector_indexes.empty()) return;
  w->Key("VectorIndexes");
  w->StartArray();
  for (const auto& index : t.vector_indexes) {
    w->StartObject();
    w->Key("IndexName");
    w->String(index.name);
    w->Key("SearchSchema");
    w->StartArray();
    for (const auto& e : index.search_schema) {
      w->StartObject();
      w->Key("AttributeName");
      w->String(e.attribute.name);
      w->Key("SearchSchemaElementType");
      w->String(e.hash ? "HASH" : "INLINE_FILTER");
      w->EndObject();
    }
    w->EndArray();
    w->Key("Projection");
    WriteProjection(index.projection, index.non_key_attributes, w);
    w->Key("VectorAttribute");
    w->StartObject();
    w->Key("AttributeName");
    w->String(index.vector_attribute);
    w->EndObject();
    w->Key("Dimensions");
    w->Uint(index.dimensions);
    w->Key("DistanceFunction");
    w->String(DistanceFunctionName(index.distance));
    auto status = d.index_status.find(index.name);
    w->Key("IndexStatus");
    w->String(status != d.index_status.end() ? status->second : d.status == "DELETING" ? "DELETING" : "ACTIVE");
    auto backfilling = d.index_backfilling.find(index.name);
    if (backfilling != d.index_backfilling.end()) {
      w->Key("Backfilling");
      w->Bool(backfilling->second);
    }
    WriteIndexCountsAndArn(d, index.name, w);
    w->EndObject();
  }
  w->EndArray();
}
}  // namespace

void WriteTableDescription(const TableDescription& d, JsonWriter* w) {
  const TableDefinition& t = *d.definition;
  w->StartObject();
  w->Key("AttributeDefinitions");
  w->StartArray();
  for (const auto& a : t.attribute_definitions) {
    w->StartObject();
    w->Key("AttributeName");
    w->String(a.name);
    w->Key("AttributeType");
    w->String(AttrTypeName(a.type));
    w->EndObject();
  }
  w->EndArray();
  w->Key("TableName");
  w->String(t.name);
  w->Key("KeySchema");
  WriteKeySchema(t.key, w);
  w->Key("TableStatus");
  w->String(d.status);
  w->Key("CreationDateTime");
  w->Double(t.creation_time);
  WriteCountsAndIdentity(d, w);
  WriteBillingModeSummary(t, w);
  for (bool global : {false, true}) {
    bool any = false;
    for (const auto& index : t.indexes) any |= index.global == global;
    if (!any) continue;
    w->Key(global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
    w->StartArray();
    for (const auto& index : t.indexes) {
      if (index.global != global) continue;
      w->StartObject();
      w->Key("IndexName");
      w->String(index.name);
      w->Key("KeySchema");
      WriteKeySchema(index.key, w);
      w->Key("Projection");
      WriteProjection(index.projection, index.non_key_attributes, w);
      if (global) {
        auto status = d.index_status.find(index.name);
        w->Key("IndexStatus");
        w->String(status != d.index_status.end() ? status->second : d.status == "DELETING" ? "DELETING" : "ACTIVE");
        w->Key("ProvisionedThroughput");
        WriteThroughput(index.throughput, t.pay_per_request, w);
        WriteIndexSettingsMembers(d, index, w);
      }
      WriteIndexCountsAndArn(d, index.name, w);
      w->EndObject();
    }
    w->EndArray();
  }
  WriteVectorIndexes(d, w);
  if (!t.stream_view_type.empty()) {
    w->Key("StreamSpecification");
    w->StartObject();
    w->Key("StreamEnabled");
    w->Bool(true);
    w->Key("StreamViewType");
    w->String(t.stream_view_type);
    w->EndObject();
  }
  // The latest stream stays named after it is disabled (docs/streams-and-ttl.md).
  if (!t.latest_stream_arn.empty()) {
    w->Key("LatestStreamArn");
    w->String(t.latest_stream_arn);
    w->Key("LatestStreamLabel");
    w->String(t.latest_stream_label);
  }
  // A restored table's origin, while it is being restored (docs/backups.md).
  if (d.status == "CREATING" && t.restore_date_time > 0) {
    w->Key("RestoreSummary");
    w->StartObject();
    if (!t.restore_source_backup_arn.empty()) {
      w->Key("SourceBackupArn");
      w->String(t.restore_source_backup_arn);
    }
    w->Key("SourceTableArn");
    w->String(t.restore_source_table_arn);
    w->Key("RestoreDateTime");
    w->Double(t.restore_date_time);
    w->Key("RestoreInProgress");
    w->Bool(true);
    w->EndObject();
  }
  WriteTableSettingsMembers(d, w);
  w->Key("DeletionProtectionEnabled");
  w->Bool(t.deletion_protection);
  WriteReplicaMembers(d, w);
  w->EndObject();
}

void WriteDeletedTableResponse(const TableDescription& d, JsonWriter* w) {
  const TableDefinition& t = *d.definition;
  w->StartObject();
  w->Key("TableDescription");
  w->StartObject();
  w->Key("TableName");
  w->String(t.name);
  w->Key("TableStatus");
  w->String(d.status);
  WriteCountsAndIdentity(d, w);
  WriteBillingModeSummary(t, w);
  w->EndObject();
  w->EndObject();
}

void WriteTableDescriptionResponse(const char* member, const TableDescription& description, JsonWriter* w) {
  w->StartObject();
  w->Key(member);
  WriteTableDescription(description, w);
  w->EndObject();
}

}  // namespace dynapage
