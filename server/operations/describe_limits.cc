// DescribeLimits: the default capacity quotas of an AWS account, which infrastructure tools read at start-up.
// dynapage enforces none of them.

#include "server/operations/operation_table.h"

namespace dynapage {

Status HandleDescribeLimits(OperationContext& ctx) {
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("AccountMaxReadCapacityUnits");
  w.Int64(80000);
  w.Key("AccountMaxWriteCapacityUnits");
  w.Int64(80000);
  w.Key("TableMaxReadCapacityUnits");
  w.Int64(40000);
  w.Key("TableMaxWriteCapacityUnits");
  w.Int64(40000);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
