// TableDefinition: what CreateTable declared for a table (keys, indexes, billing) plus the identity the engine
// gave it (keyspaces, creation time, ARN). Persisted as JSON under the catalog key of the table.

#ifndef DYNAPAGE_ENGINE_MODEL_TABLE_DEFINITION_H_
#define DYNAPAGE_ENGINE_MODEL_TABLE_DEFINITION_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/model/global_table_membership.h"
#include "engine/model/key_schema.h"
#include "engine/model/projection_type.h"
#include "engine/model/table_settings.h"
#include "engine/model/vector_index_definition.h"

namespace dynapage {

struct ProvisionedThroughput {
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
  int64_t number_of_decreases_today = 0;
  double last_increase_time = 0;
  double last_decrease_time = 0;
};

struct IndexDefinition {
  std::string name;
  bool global = true;  // GSI, else LSI
  KeySchema key;
  ProjectionType projection = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // for kInclude
  uint32_t keyspace = 0;
  ProvisionedThroughput throughput;  // GSIs only
  double creation_time = 0;          // seconds since the epoch, for an index UpdateTable added; 0: made with its table
  CapacitySettings settings;         // GSIs only: on-demand and warm throughput, Contributor Insights

  // True if the attribute is kept in this index's entries (index keys, table keys, projected attributes).
  bool Projects(const std::string& attribute, const KeySchema& table_key) const;
};

struct TableDefinition {
  std::string name;
  std::vector<KeyAttribute> attribute_definitions;
  KeySchema key;
  std::vector<IndexDefinition> indexes;
  std::vector<VectorIndexDefinition> vector_indexes;  // docs/vector-search.md
  uint32_t keyspace = 0;
  double creation_time = 0;  // seconds since the epoch
  std::string table_id;      // a UUID
  std::string arn;
  bool pay_per_request = false;
  double last_update_to_pay_per_request_time = 0;  // when UpdateTable last switched to PAY_PER_REQUEST; 0: never
  ProvisionedThroughput throughput;
  std::string ttl_attribute;   // empty when TTL is disabled
  int64_t ttl_changed_ms = 0;  // when UpdateTimeToLive last changed the setting (the opt-in cooldown); 0: never
  std::map<std::string, std::string> tags;
  bool deletion_protection = false;
  // DynamoDB Streams (docs/streams-and-ttl.md): the view type and id of the enabled stream (empty and 0 when
  // streams are off), and the ARN and label of the latest stream, kept after it is disabled.
  std::string stream_view_type;
  uint32_t stream_id = 0;
  std::string latest_stream_arn;
  std::string latest_stream_label;
  // Point-in-time recovery (UpdateContinuousBackups; while enabled, item writes keep a journal: docs/backups.md).
  bool point_in_time_recovery = false;
  double point_in_time_recovery_since = 0;  // when it was last enabled
  int64_t recovery_period_in_days = 35;
  // Table class, encryption, on-demand and warm throughput, Contributor Insights, Kinesis destinations, resource
  // policies: recorded and shown, acted on by nothing (table_settings.h).
  TableSettings settings;
  // A table made by RestoreTableFromBackup or RestoreTableToPointInTime: where from and the instant restored (seconds;
  // 0: not a restored table). Shown as RestoreSummary while the table is CREATING.
  std::string restore_source_backup_arn;  // empty for a point-in-time restore
  std::string restore_source_table_arn;
  double restore_date_time = 0;
  // The global table this table is a replica of (docs/global-tables.md); empty for a regional table.
  GlobalTableMembership global;

  // REQUIRES nothing; returns nullptr when there is no index of that name.
  const IndexDefinition* FindIndex(const std::string& index_name) const;
  // REQUIRES nothing; returns nullptr when there is no vector index of that name.
  const VectorIndexDefinition* FindVectorIndex(const std::string& index_name) const;
  bool HasGlobalIndexes() const;
  bool HasLocalIndexes() const;
};

std::string SerializeTableDefinition(const TableDefinition& table);
bool ParseTableDefinition(const std::string& json, TableDefinition* table);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_TABLE_DEFINITION_H_
