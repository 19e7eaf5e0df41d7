// TableSettings: the settings of a table that change nothing about how its items are stored, read or written —
// table class, encryption at rest, on-demand and warm throughput, Contributor Insights, Kinesis streaming
// destinations and resource policies (docs/control-plane.md). DynamoDB keeps them; dynapage records them, shows
// them as DynamoDB does and acts on none of them. Persisted inside the table's definition JSON (table_definition.h);
// definitions written before these settings existed read as the defaults below.

#ifndef DYNAPAGE_ENGINE_MODEL_TABLE_SETTINGS_H_
#define DYNAPAGE_ENGINE_MODEL_TABLE_SETTINGS_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/attribute_value_json.h"

namespace dynapage {

// OnDemandThroughput: the most request units per second a PAY_PER_REQUEST table or GSI may use. -1 (or never set)
// is "no limit"; the struct is shown only while one of the two is set.
struct OnDemandThroughput {
  int64_t max_read_request_units = -1;
  int64_t max_write_request_units = -1;
  bool any_set() const { return max_read_request_units > 0 || max_write_request_units > 0; }
};

// WarmThroughput: the units per second a table or GSI is prepared for. Only ever raised: by the floor of its
// billing mode (warm_throughput_floor.h) or by a request; raised_time is when a request last raised it (0: never),
// for the UPDATING status a transient-status delay shows.
struct WarmThroughput {
  int64_t read_units_per_second = 0;
  int64_t write_units_per_second = 0;
  double raised_time = 0;
};

// Contributor Insights of a table or GSI: updated_time 0 means never configured.
struct ContributorInsights {
  bool enabled = false;
  std::string mode;  // ACCESSED_AND_THROTTLED_KEYS or THROTTLED_KEYS
  double updated_time = 0;
};

// What a table and each of its GSIs have of their own.
struct CapacitySettings {
  OnDemandThroughput on_demand;
  WarmThroughput warm;
  ContributorInsights insights;
};

// One Kinesis streaming destination (nothing is sent to it).
struct KinesisDestination {
  std::string stream_arn;
  bool active = true;       // ACTIVE, else DISABLED
  std::string precision;    // ApproximateCreationDateTimePrecision: empty (the default, MILLISECOND) or set
  double updated_time = 0;  // when it was enabled, disabled or updated (the transient ENABLING etc.)
  bool updated = false;     // the last change was an UpdateKinesisStreamingDestination (UPDATING)
};

// A resource-based policy, stored as sent (not enforced).
struct ResourcePolicy {
  std::string document;
  std::string revision_id;
};

struct TableSettings {
  CapacitySettings capacity;  // the table's own
  std::string table_class;    // empty: never set, STANDARD
  double table_class_updated_time = 0;
  bool sse_kms = false;  // a KMS key, else the AWS owned key (no SSEDescription)
  std::string kms_master_key_arn;
  double sse_updated_time = 0;
  std::vector<KinesisDestination> kinesis_destinations;
  std::map<std::string, ResourcePolicy> resource_policies;  // by ARN: the table's and its stream's
};

// A request's OnDemandThroughput and WarmThroughput of a table or GSI: absent members change nothing; a
// MaxRead/WriteRequestUnits of -1 clears that limit.
struct OnDemandThroughputInput {
  std::optional<int64_t> max_read_request_units;
  std::optional<int64_t> max_write_request_units;
};
struct WarmThroughputInput {
  std::optional<int64_t> read_units_per_second;
  std::optional<int64_t> write_units_per_second;
};
struct CapacitySettingsInput {
  std::optional<OnDemandThroughputInput> on_demand;
  std::optional<WarmThroughputInput> warm;
};

// The settings as members of the open JSON object w is writing (none for defaults), and back. Read ignores what
// it does not know and REQUIRES v to be an object.
void WriteTableSettings(const TableSettings& settings, JsonWriter* w);
void ReadTableSettings(const rapidjson::Value& v, TableSettings* settings);
void WriteCapacitySettings(const CapacitySettings& settings, JsonWriter* w);
void ReadCapacitySettings(const rapidjson::Value& v, CapacitySettings* settings);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_TABLE_SETTINGS_H_
