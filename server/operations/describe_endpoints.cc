// DescribeEndpoints: the endpoint an SDK with endpoint discovery would use: the host and port this server was
// reached at (the Host header), never DynamoDB's public host name, so that a client with endpoint discovery on is
// never sent to AWS; and a day's caching, as DynamoDB's. SDKs call this only when endpoint discovery is turned on
// explicitly (DynamoDB does not require it).

#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleDescribeEndpoints(OperationContext& ctx) {
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Endpoints");
  w.StartArray();
  w.StartObject();
  w.Key("Address");
  w.String(ctx.host.data(), static_cast<rapidjson::SizeType>(ctx.host.size()));
  w.Key("CachePeriodInMinutes");
  w.Int(1440);
  w.EndObject();
  w.EndArray();
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
