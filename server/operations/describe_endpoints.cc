// DescribeEndpoints: the endpoint an SDK with endpoint discovery would use. dynapage answers as moto does: the
// service name of its region (DatabaseOptions::region, us-east-1) and a day's caching. Handlers do not see the
// Host header, and SDKs call this only when endpoint discovery is turned on explicitly (DynamoDB does not
// require it).

#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleDescribeEndpoints(OperationContext& ctx) {
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Endpoints");
  w.StartArray();
  w.StartObject();
  w.Key("Address");
  w.String("dynamodb." + ctx.context.caller.region + ".amazonaws.com");
  w.Key("CachePeriodInMinutes");
  w.Int(1440);
  w.EndObject();
  w.EndArray();
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
