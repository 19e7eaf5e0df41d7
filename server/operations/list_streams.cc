// ListStreams (DynamoDB Streams): the streams of every table, or of one table name, newest first.

#include "engine/read/stream_reads.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/stream_description_json.h"

namespace dynapage {

Status HandleListStreams(OperationContext& ctx) {
  RequestReader r(ctx.request);
  ListStreamsRequest request;
  std::optional<int64_t> limit;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &request.table_name));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &limit));
  DP_RETURN_IF_ERROR(r.GetString("ExclusiveStartStreamArn", &request.exclusive_start_stream_arn));
  ConstraintErrors errors;
  errors.CheckTableName(request.table_name, "tableName", false);
  errors.CheckMin(limit, "limit", 1);
  errors.CheckMax(limit, "limit", 100);  // the documented upper limit, refused as a constraint (not clamped)
  DP_RETURN_IF_ERROR(errors.ToStatus());
  if (limit) request.limit = *limit;
  ListStreamsResult result;
  DP_RETURN_IF_ERROR(ListStreams(ctx.db.catalog(), ctx.context, request, &result));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Streams");
  w.StartArray();
  for (const StreamInfo& stream : result.streams) WriteStreamSummary(stream, &w);
  w.EndArray();
  if (result.last_evaluated_stream_arn) {
    w.Key("LastEvaluatedStreamArn");
    w.String(*result.last_evaluated_stream_arn);
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
