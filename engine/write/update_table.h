// UpdateTable: changes a table's billing mode, provisioned throughput, deletion protection, global secondary
// indexes (Create with a backfill of the existing items, Update of throughput, Delete) and stream (enabled with a
// new stream each time, or disabled: docs/streams-and-ttl.md).
//
// The server checks what needs only the request (constraints, at least one change, one action per index, at
// most one Create or Delete); UpdateTable makes the checks that need the table, with DynamoDB's messages, under
// the writer lock, and applies all of the request or none of it. A vector index created here is built before
// UpdateTable returns (the answer shows the table UPDATING and the index CREATING, as DynamoDB's does); a deleted
// one is shown DELETING. An index created here is complete (ACTIVE)
// when UpdateTable returns; a deleted one is gone, and the answer still lists it, as DELETING. The table is
// ACTIVE throughout.

#ifndef DYNAPAGE_ENGINE_WRITE_UPDATE_TABLE_H_
#define DYNAPAGE_ENGINE_WRITE_UPDATE_TABLE_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/catalog/index_schema.h"
#include "engine/catalog/vector_index_schema.h"
#include "engine/write/table_settings.h"
#include "engine/write/write_path.h"

namespace dynapage {

// Provisioned units above this are refused (DynamoDB: "Given value … is out of bounds").
constexpr int64_t kMaxCapacityUnits = 1000000000000;

struct GlobalIndexUpdate {
  enum class Action { kCreate, kUpdate, kDelete };
  Action action = Action::kCreate;
  std::string index_name;
  SecondaryIndexInput create;                       // kCreate (global)
  std::optional<ProvisionedThroughput> throughput;  // kUpdate
  CapacitySettingsInput settings;                   // kUpdate: on-demand and warm throughput
};

// One VectorIndexUpdates element: a Create or a Delete (the server checked there is exactly one).
struct VectorIndexUpdate {
  bool create = false;
  VectorIndexInput input;  // create
  std::string index_name;  // delete
};

struct UpdateTableRequest {
  std::string table_name;
  std::vector<KeyAttribute> attribute_definitions;  // definitions of the key attributes of a created index
  std::optional<bool> pay_per_request;              // BillingMode
  std::optional<ProvisionedThroughput> throughput;
  std::vector<GlobalIndexUpdate> index_updates;
  std::vector<VectorIndexUpdate> vector_index_updates;
  std::optional<bool> deletion_protection;
  // StreamSpecification: StreamEnabled, and the StreamViewType that enabling requires (the server checks that).
  std::optional<bool> stream_enabled;
  std::string stream_view_type;
  // TableClass, SSESpecification, OnDemandThroughput, WarmThroughput (the server checked which may be combined).
  TableSettingsInput settings;
};

Status UpdateTable(WritePath& write_path, const RequestContext& ctx, const UpdateTableRequest& request,
                   TableDescription* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_UPDATE_TABLE_H_
