// DescribeStream (DynamoDB Streams): a stream's status, view type, key schema and its one shard.

#include "engine/model/json_types.h"
#include "engine/read/stream_reads.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/stream_description_json.h"

namespace dynapage {

Status HandleDescribeStream(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn, filter_type, filter_shard;
  std::optional<int64_t> limit;
  DescribeStreamRequest request;
  DP_RETURN_IF_ERROR(r.GetString("StreamArn", &arn));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &limit));
  DP_RETURN_IF_ERROR(r.GetString("ExclusiveStartShardId", &request.exclusive_start_shard_id));
  const rapidjson::Value* filter = r.Get("ShardFilter");
  if (filter) {
    DP_RETURN_IF_ERROR(CheckJsonObject(*filter));
    RequestReader f(*filter);
    DP_RETURN_IF_ERROR(f.GetString("Type", &filter_type));
    DP_RETURN_IF_ERROR(f.GetString("ShardId", &filter_shard));
  }
  ConstraintErrors errors;
  if (!arn) errors.AddNull("streamArn");
  errors.CheckMin(limit, "limit", 1);
  if (filter) {
    if (!filter_type) errors.AddNull("shardFilter.type");
    errors.CheckEnum(filter_type, "shardFilter.type", {"CHILD_SHARDS"});
  }
  DP_RETURN_IF_ERROR(errors.ToStatus());
  request.stream_arn = *arn;
  if (filter) request.child_shards_of = filter_shard.value_or("");
  DescribeStreamResult result;
  DP_RETURN_IF_ERROR(DescribeStream(ctx.db.catalog(), ctx.context, request, &result));

  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("StreamDescription");
  WriteStreamDescription(result.stream, result.shard_listed, &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
