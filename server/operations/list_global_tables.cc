// ListGlobalTables: the global tables of version 2017.11.29 with a replica in a region (RegionName, else the
// caller's), by name, in pages of Limit (default 100) (docs/global-tables.md).

#include "engine/database/global_tables.h"
#include "server/operations/global_table_members.h"
#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleListGlobalTables(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ConstraintErrors errors;
  std::optional<std::string> start, region;
  std::optional<int64_t> limit;
  DP_RETURN_IF_ERROR(r.GetString("ExclusiveStartGlobalTableName", &start));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &limit));
  DP_RETURN_IF_ERROR(r.GetString("RegionName", &region));
  errors.CheckTableName(start, "exclusiveStartGlobalTableName", false);
  errors.CheckMin(limit, "limit", 1);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  DP_RETURN_IF_ERROR(RequireRegionNamespaces(ctx));
  std::vector<GlobalTableInfo> tables;
  bool more = false;
  DP_RETURN_IF_ERROR(ListGlobalTables(ctx.databases, ctx.context, region.value_or(ctx.context.caller.region),
                                      start.value_or(""), static_cast<size_t>(limit.value_or(100)), &tables, &more));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("GlobalTables");
  w.StartArray();
  for (const GlobalTableInfo& table : tables) {
    w.StartObject();
    w.Key("GlobalTableName");
    w.String(table.name);
    w.Key("ReplicationGroup");
    w.StartArray();
    for (const std::string& name : table.regions) {
      w.StartObject();
      w.Key("RegionName");
      w.String(name);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  if (more) {
    w.Key("LastEvaluatedGlobalTableName");
    w.String(tables.back().name);
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
