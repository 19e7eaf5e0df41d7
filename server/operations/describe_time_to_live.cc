// DescribeTimeToLive: whether a table has TTL enabled, and on which attribute.

#include "engine/write/time_to_live.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleDescribeTimeToLive(OperationContext& ctx) {
  std::string table_name;
  DP_RETURN_IF_ERROR(ReadTableNameOnly(RequestReader(ctx.request), &table_name));
  std::string attribute;
  DP_RETURN_IF_ERROR(DescribeTimeToLive(ctx.db.catalog(), table_name, &attribute));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("TimeToLiveDescription");
  w.StartObject();
  w.Key("TimeToLiveStatus");
  w.String(attribute.empty() ? "DISABLED" : "ENABLED");
  if (!attribute.empty()) {
    w.Key("AttributeName");
    w.String(attribute);
  }
  w.EndObject();
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
