// UpdateTimeToLive: enables or disables TTL on a table (recorded, not enforced: see engine/write/time_to_live.h).

#include "engine/database/global_tables.h"
#include "engine/model/json_types.h"
#include "engine/write/time_to_live.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleUpdateTimeToLive(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table_name, attribute;
  std::optional<bool> enabled;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  const rapidjson::Value* spec = r.Get("TimeToLiveSpecification");
  if (spec) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*spec));
    RequestReader s(*spec);
    DP_RETURN_IF_ERROR(s.GetBoolean("Enabled", &enabled));
    DP_RETURN_IF_ERROR(s.GetString("AttributeName", &attribute));
  }
  ConstraintErrors errors;
  errors.CheckTableNameOrArn(table_name, "tableName");
  if (!spec) {
    errors.AddNull("timeToLiveSpecification");
  } else {
    if (!attribute) {
      errors.AddNull("timeToLiveSpecification.attributeName");
    } else if (attribute->empty()) {
      errors.Add("", "timeToLiveSpecification.attributeName", "Member must have length greater than or equal to 1");
    } else if (attribute->size() > 255) {
      errors.Add(*attribute, "timeToLiveSpecification.attributeName",
                 "Member must have length less than or equal to 255");
    }
    if (!enabled) errors.AddNull("timeToLiveSpecification.enabled");
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(UpdateTimeToLive(ctx.db.writes(), ctx.context, *table_name, *enabled, *attribute));
  if (ctx.databases) {  // a replica's TTL is every replica's (docs/global-tables.md)
    TableDescription changed;
    DP_RETURN_IF_ERROR(ctx.db.catalog().DescribeTable(*table_name, &changed));
    DP_RETURN_IF_ERROR(PropagateGroupSettings(ctx.databases, ctx.context, changed.definition->name));
  }
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("TimeToLiveSpecification");
  w.StartObject();
  w.Key("Enabled");
  w.Bool(*enabled);
  w.Key("AttributeName");
  w.String(*attribute);
  w.EndObject();
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
