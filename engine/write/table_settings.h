// Changes of a table's settings (engine/model/table_settings.h) by CreateTable and UpdateTable: table class,
// encryption at rest, on-demand throughput and warm throughput of the table and its GSIs (docs/control-plane.md).
//
// Each function checks its setting against the table, with DynamoDB's messages, and changes *next; UpdateTable
// calls them inside its ChangeTable, so a refused setting leaves the table as it was. The server has checked the
// request's types, enumerations and which members may be combined.

#ifndef DYNAPAGE_ENGINE_WRITE_TABLE_SETTINGS_H_
#define DYNAPAGE_ENGINE_WRITE_TABLE_SETTINGS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/index_schema.h"
#include "engine/model/table_definition.h"

namespace dynapage {

// PAY_PER_REQUEST tables and GSIs are warm for at least these units per second.
constexpr int64_t kOnDemandWarmReadUnits = 12000;
constexpr int64_t kOnDemandWarmWriteUnits = 4000;

// SSESpecification as the server read it: kms (Enabled true or SSEType KMS) with the key named by KMSMasterKeyId
// (empty: the account's aws/dynamodb key), or the AWS owned key.
struct SseSettingInput {
  bool kms = false;
  std::string kms_master_key_id;
};

struct TableSettingsInput {
  std::optional<std::string> table_class;
  std::optional<SseSettingInput> sse;
  CapacitySettingsInput capacity;  // the table's own
};

// The ARN of the caller's aws/dynamodb KMS key in this region: the same for every table of the account and region,
// across restarts (a UUID derived from both).
std::string DefaultKmsKeyArn(const RequestContext& ctx);

// CreateTable: applies the table's and its GSIs' (gsis: as CreateTable received them) settings to table, whose
// keys, indexes and billing are set, then raises warm throughput to its floors.
Status ApplyCreateTableSettings(const RequestContext& ctx, const TableSettingsInput& input,
                                const std::vector<SecondaryIndexInput>& gsis, TableDefinition* table);

// UpdateTable: applies input's table settings to next.
Status ApplyUpdateTableSettings(const RequestContext& ctx, const TableSettingsInput& input, TableDefinition* next);

// UpdateTable's GSI Create or Update: the index's on-demand and warm throughput. REQUIRES: index is a GSI of
// table, whose billing mode is the one the request leaves.
Status ApplyIndexSettings(double now, const CapacitySettingsInput& input, const TableDefinition& table,
                          IndexDefinition* index);

// True while a setting changed at changed_time is still settling under the context's transient-status delay
// (--transient-status-delay): it shows ENABLING, UPDATING, … until then. Never with no delay.
bool StillSettling(const RequestContext& ctx, double changed_time);

// Raises the warm throughput of the table and each GSI to at least what its billing allows: 12000/4000 on
// demand, the provisioned units otherwise. Warm throughput never goes down.
void RaiseWarmThroughputFloors(TableDefinition* table);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_TABLE_SETTINGS_H_
