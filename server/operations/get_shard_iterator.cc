// GetShardIterator (DynamoDB Streams): a position in a shard to read from with GetRecords.

#include "engine/read/stream_reads.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleGetShardIterator(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn, shard_id, type;
  GetShardIteratorRequest request;
  DP_RETURN_IF_ERROR(r.GetString("StreamArn", &arn));
  DP_RETURN_IF_ERROR(r.GetString("ShardId", &shard_id));
  DP_RETURN_IF_ERROR(r.GetString("ShardIteratorType", &type));
  DP_RETURN_IF_ERROR(r.GetString("SequenceNumber", &request.sequence_number));
  ConstraintErrors errors;
  if (!arn) errors.AddNull("streamArn");
  if (!shard_id) errors.AddNull("shardId");
  if (!type) errors.AddNull("shardIteratorType");
  errors.CheckEnum(type, "shardIteratorType",
                   {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"});
  DP_RETURN_IF_ERROR(errors.ToStatus());
  request.stream_arn = *arn;
  request.shard_id = *shard_id;
  request.type_name = *type;
  request.type = *type == "TRIM_HORIZON"         ? ShardIteratorType::kTrimHorizon
                 : *type == "LATEST"             ? ShardIteratorType::kLatest
                 : *type == "AT_SEQUENCE_NUMBER" ? ShardIteratorType::kAtSequenceNumber
                                                 : ShardIteratorType::kAfterSequenceNumber;
  std::string iterator;
  DP_RETURN_IF_ERROR(GetShardIterator(ctx.db.catalog(), ctx.context, request, &iterator));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("ShardIterator");
  w.String(iterator);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
