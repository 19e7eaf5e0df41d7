// The DynamoDB Streams API over the streams the write path keeps (engine/catalog/stream_catalog.h):
// ListStreams, DescribeStream, GetShardIterator and GetRecords (docs/streams-and-ttl.md).
//
// Each stream has one shard. A shard iterator is a position token, "<StreamArn>|1|<base64>", holding the stream,
// the first sequence number still to read and the time it was issued; nothing is kept on the server for it. It
// expires 15 minutes after it was issued, by the request's clock. Records older than the retention period count as
// trimmed from the moment they are, whether or not the write path has deleted them yet (WritePath::TrimStreams),
// and so does a disabled stream older than that.
//
// Requests arrive with their constraints checked (Limit in range, enums, required members) by the server.

#ifndef DYNAPAGE_ENGINE_READ_STREAM_READS_H_
#define DYNAPAGE_ENGINE_READ_STREAM_READS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/catalog/stream_catalog.h"

namespace dynapage {

// An iterator is good for this long after it is issued (DynamoDB: 15 minutes).
constexpr int64_t kShardIteratorLifetimeMillis = 15LL * 60 * 1000;
// The most records, and bytes of records, one GetRecords returns.
constexpr int64_t kMaxGetRecordsLimit = 1000;
constexpr size_t kMaxGetRecordsBytes = 1048576;

struct ListStreamsRequest {
  std::optional<std::string> table_name;
  int64_t limit = 100;  // REQUIRES: >= 1 (more than 100 counts as 100)
  std::optional<std::string> exclusive_start_stream_arn;
};

struct ListStreamsResult {
  std::vector<StreamInfo> streams;  // newest label first, then by ARN
  std::optional<std::string> last_evaluated_stream_arn;  // set only when more streams follow
};

Status ListStreams(const Catalog& catalog, const RequestContext& ctx, const ListStreamsRequest& request,
                   ListStreamsResult* result);

struct DescribeStreamRequest {
  std::string stream_arn;
  std::optional<std::string> exclusive_start_shard_id;
  std::optional<std::string> child_shards_of;  // ShardFilter CHILD_SHARDS: its ShardId
};

struct DescribeStreamResult {
  StreamInfo stream;
  bool shard_listed = true;  // false when the start shard id or the filter leave the one shard out
};

Status DescribeStream(const Catalog& catalog, const RequestContext& ctx, const DescribeStreamRequest& request,
                      DescribeStreamResult* result);

enum class ShardIteratorType { kTrimHorizon, kLatest, kAtSequenceNumber, kAfterSequenceNumber };

struct GetShardIteratorRequest {
  std::string stream_arn;
  std::string shard_id;
  ShardIteratorType type = ShardIteratorType::kTrimHorizon;
  std::string type_name;                       // as sent, for messages
  std::optional<std::string> sequence_number;  // ignored for TRIM_HORIZON and LATEST
};

Status GetShardIterator(const Catalog& catalog, const RequestContext& ctx, const GetShardIteratorRequest& request,
                        std::string* shard_iterator);

struct GetRecordsResult {
  std::vector<std::string> records;  // each record's JSON, in sequence order
  std::optional<std::string> next_shard_iterator;  // absent once a closed shard is read to its end
};

// Under page chaos (ctx.policies) the answer may hold fewer records than it could, none at all (with a
// NextShardIterator at the same place), or keep a NextShardIterator after a closed shard's last records; it says
// so in ctx.counters, with the records left after the NextShardIterator. REQUIRES: 1 <= limit <= kMaxGetRecordsLimit.
Status GetRecords(const Catalog& catalog, const RequestContext& ctx, const std::string& shard_iterator,
                  int64_t limit, GetRecordsResult* result);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_STREAM_READS_H_
