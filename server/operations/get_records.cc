// GetRecords (DynamoDB Streams): the change records at a shard iterator's position, and the iterator after them.

#include <string>

#include "engine/read/stream_reads.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleGetRecords(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> iterator;
  std::optional<int64_t> limit;
  DP_RETURN_IF_ERROR(r.GetString("ShardIterator", &iterator));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &limit));
  ConstraintErrors errors;
  if (!iterator) errors.AddNull("shardIterator");
  errors.CheckMin(limit, "limit", 1);
  // The service model's documentation names LimitExceededException for a Limit above 1,000, but DynamoDB Streams
  // answers ValidationException (found by third-party suites).
  errors.CheckMax(limit, "limit", kMaxGetRecordsLimit);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  GetRecordsResult result;
  DP_RETURN_IF_ERROR(
      GetRecords(ctx.db.catalog(), ctx.context, *iterator, limit.value_or(kMaxGetRecordsLimit), &result));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Records");
  w.StartArray();
  for (const std::string& record : result.records) w.RawJson(record, rapidjson::kObjectType);
  w.EndArray();
  if (result.next_shard_iterator) {
    w.Key("NextShardIterator");
    w.String(*result.next_shard_iterator);
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
