// DescribeStream (DynamoDB Streams): a stream's status, view type, key schema and its one shard.

#include "engine/model/json_types.h"
#include "engine/read/stream_reads.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
void WriteKeyElement(const std::string& name, const char* type, JsonWriter* w) {
  w->StartObject();
  w->Key("AttributeName");
  w->String(name);
  w->Key("KeyType");
  w->String(type);
  w->EndObject();
}
}  // namespace

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

  const StreamInfo& s = result.stream;
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("StreamDescription");
  w.StartObject();
  w.Key("StreamArn");
  w.String(s.arn);
  w.Key("StreamLabel");
  w.String(s.label);
  w.Key("StreamStatus");
  w.String(s.enabled() ? "ENABLED" : "DISABLED");
  w.Key("StreamViewType");
  w.String(s.view_type);
  w.Key("CreationRequestDateTime");
  w.Double(static_cast<double>(s.created_ms) / 1000.0);
  w.Key("TableName");
  w.String(s.table_name);
  w.Key("KeySchema");
  w.StartArray();
  WriteKeyElement(s.hash_key, "HASH", &w);
  if (!s.range_key.empty()) WriteKeyElement(s.range_key, "RANGE", &w);
  w.EndArray();
  w.Key("Shards");
  w.StartArray();
  if (result.shard_listed) {
    w.StartObject();
    w.Key("ShardId");
    w.String(s.shard_id);
    w.Key("SequenceNumberRange");
    w.StartObject();
    w.Key("StartingSequenceNumber");
    w.String(FormatSequenceNumber(s.starting_seq));
    // A closed shard (its stream disabled) shows where it ends.
    if (!s.enabled()) {
      w.Key("EndingSequenceNumber");
      w.String(FormatSequenceNumber(s.ending_seq()));
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
