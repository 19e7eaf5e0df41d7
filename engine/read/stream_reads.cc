#include "engine/read/stream_reads.h"

#include <algorithm>
#include <tuple>

#include "engine/base/base64.h"
#include "engine/read/page_chaos.h"

namespace dynapage {

namespace {
constexpr char kShardNotFound[] = "Requested resource not found: Shard does not exist";
constexpr char kIteratorVersion = 1;
constexpr size_t kIteratorPayloadSize = 1 + 4 + 8 + 8 + 4;  // version, stream id, position, issued at, check

Status StreamNotFound(const std::string& arn) {
  return Status::NotFound("Requested resource not found: Stream: " + arn + " not found");
}

// The stream of arn, unless it is unknown or a disabled stream past retention.
// True if arn has the shape of a stream ARN:
// "arn:<partition>:dynamodb:<region>:<account>:table/<table>/stream/<label>", every part non-empty.
bool IsStreamArn(std::string_view arn) {
  size_t colons[5];
  size_t from = 0;
  for (size_t& at : colons) {
    at = arn.find(':', from);
    if (at == std::string_view::npos || at == from) return false;
    from = at + 1;
  }
  if (arn.substr(0, colons[0]) != "arn" || arn.substr(colons[1] + 1, colons[2] - colons[1] - 1) != "dynamodb") {
    return false;
  }
  std::string_view resource = arn.substr(colons[4] + 1);
  size_t stream = resource.find("/stream/");
  return resource.compare(0, 6, "table/") == 0 && stream != std::string_view::npos && stream > 6 &&
         stream + 8 < resource.size();
}

// A StreamArn (or ExclusiveStartStreamArn) without the shape of one: ValidationException, where an ARN of the right
// shape naming no stream is ResourceNotFoundException.
Status CheckStreamArn(std::string_view arn) {
  if (!IsStreamArn(arn)) return Status::Validation("Invalid StreamArn");
  return Status::OK();
}

Status FindLiveStream(const Catalog& catalog, const RequestContext& ctx, const std::string& arn, StreamInfo* out) {
  DP_RETURN_IF_ERROR(CheckStreamArn(arn));
  if (!catalog.streams().FindByArn(arn, out) || out->expired(ctx.clock->NowMillis())) return StreamNotFound(arn);
  return Status::OK();
}

// Not a secret: it tells a mistyped or truncated iterator from a good one.
uint32_t IteratorCheck(std::string_view arn, std::string_view fields) {
  return static_cast<uint32_t>(Fnv1a(fields, Fnv1a(arn)));
}

std::string EncodeIterator(const StreamInfo& stream, uint64_t position, int64_t issued_ms) {
  std::string payload(1, kIteratorVersion);
  AppendBigEndian(stream.id, 4, &payload);
  AppendBigEndian(position, 8, &payload);
  AppendBigEndian(static_cast<uint64_t>(issued_ms), 8, &payload);
  AppendBigEndian(IteratorCheck(stream.arn, payload), 4, &payload);
  return stream.arn + "|1|" + Base64Encode(payload);
}

struct DecodedIterator {
  std::string_view arn;
  uint32_t stream_id = 0;
  uint64_t position = 0;
  int64_t issued_ms = 0;
};

bool DecodeIterator(std::string_view text, DecodedIterator* out) {
  size_t bar = text.rfind('|');
  if (bar == std::string_view::npos || bar < 2 || text.substr(bar - 2, 2) != "|1") return false;
  std::string payload;
  if (!Base64Decode(text.substr(bar + 1), &payload).ok() || payload.size() != kIteratorPayloadSize ||
      payload[0] != kIteratorVersion) {
    return false;
  }
  out->arn = text.substr(0, bar - 2);
  if (ReadBigEndian(std::string_view(payload).substr(21, 4)) !=
      IteratorCheck(out->arn, std::string_view(payload).substr(0, 21))) {
    return false;
  }
  out->stream_id = static_cast<uint32_t>(ReadBigEndian(std::string_view(payload).substr(1, 4)));
  out->position = ReadBigEndian(std::string_view(payload).substr(5, 8));
  out->issued_ms = static_cast<int64_t>(ReadBigEndian(std::string_view(payload).substr(13, 8)));
  return true;
}

// The first sequence number not yet trimmed at now_ms: records older than the retention period count as trimmed
// even before the write path deletes them. next_seq when every record is.
Status TrimHorizon(const Storage& storage, const StreamInfo& stream, int64_t now_ms, uint64_t* horizon) {
  auto it = storage.NewIterator(StreamRecordKey(stream.id, stream.trim_seq), StreamRecordPrefix(stream.id + 1));
  *horizon = stream.next_seq;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    int64_t written_ms = 0;
    std::string_view json;
    if (!DecodeStreamRecord(it->value(), &written_ms, &json)) return Status::Internal("corrupt stream record");
    if (written_ms + kStreamRetentionMillis >= now_ms) {
      *horizon = SequenceOfRecordKey(it->key());
      break;
    }
  }
  DP_RETURN_IF_ERROR(it->status());
  *horizon = std::max(*horizon, stream.trim_seq);
  return Status::OK();
}

// The label part of a stream ARN ("…/stream/<label>"), or "" when it has none.
std::string_view LabelOfArn(std::string_view arn) {
  size_t at = arn.rfind("/stream/");
  return at == std::string_view::npos ? std::string_view() : arn.substr(at + 8);
}

// ListStreams' order: newest label first, then ARN.
bool ListedBefore(std::string_view label_a, std::string_view arn_a, std::string_view label_b, std::string_view arn_b) {
  return std::tie(label_b, arn_a) < std::tie(label_a, arn_b);
}
}  // namespace

Status ListStreams(const Catalog& catalog, const RequestContext& ctx, const ListStreamsRequest& request,
                   ListStreamsResult* result) {
  const int64_t now = ctx.clock->NowMillis();
  if (request.exclusive_start_stream_arn) {
    // The start names a stream this server listed (it may have expired since: its position still holds).
    StreamInfo start;
    DP_RETURN_IF_ERROR(CheckStreamArn(*request.exclusive_start_stream_arn));
    if (!catalog.streams().FindByArn(*request.exclusive_start_stream_arn, &start)) {
      return StreamNotFound(*request.exclusive_start_stream_arn);
    }
  }
  std::vector<StreamInfo> all = catalog.streams().List();
  std::vector<StreamInfo> listed;
  for (StreamInfo& stream : all) {
    if (stream.expired(now)) continue;
    if (request.table_name && stream.table_name != *request.table_name) continue;
    if (request.exclusive_start_stream_arn) {
      const std::string& start = *request.exclusive_start_stream_arn;
      if (!ListedBefore(LabelOfArn(start), start, stream.label, stream.arn)) continue;
    }
    listed.push_back(std::move(stream));
  }
  std::sort(listed.begin(), listed.end(),
            [](const StreamInfo& a, const StreamInfo& b) { return ListedBefore(a.label, a.arn, b.label, b.arn); });
  size_t limit = static_cast<size_t>(std::min<int64_t>(request.limit, 100));
  if (listed.size() > limit) {
    listed.resize(limit);
    result->last_evaluated_stream_arn = listed.back().arn;
  }
  result->streams = std::move(listed);
  return Status::OK();
}

Status DescribeStream(const Catalog& catalog, const RequestContext& ctx, const DescribeStreamRequest& request,
                      DescribeStreamResult* result) {
  DP_RETURN_IF_ERROR(FindLiveStream(catalog, ctx, request.stream_arn, &result->stream));
  // One shard: a start after it (or after an unknown shard) leaves nothing, and it has no children.
  result->shard_listed = !request.exclusive_start_shard_id && !request.child_shards_of;
  return Status::OK();
}

Status GetShardIterator(const Catalog& catalog, const RequestContext& ctx, const GetShardIteratorRequest& request,
                        std::string* shard_iterator) {
  StreamInfo stream;
  DP_RETURN_IF_ERROR(FindLiveStream(catalog, ctx, request.stream_arn, &stream));
  if (request.shard_id != stream.shard_id) return Status::NotFound(kShardNotFound);
  const int64_t now = ctx.clock->NowMillis();
  uint64_t horizon = 0;
  DP_RETURN_IF_ERROR(TrimHorizon(catalog.storage(), stream, now, &horizon));
  uint64_t position = 0;
  switch (request.type) {
    case ShardIteratorType::kTrimHorizon:
      position = horizon;
      break;
    case ShardIteratorType::kLatest:
      position = stream.next_seq;
      break;
    case ShardIteratorType::kAtSequenceNumber:
    case ShardIteratorType::kAfterSequenceNumber: {
      if (!request.sequence_number) {
        return Status::Validation("SequenceNumber must be specified for ShardIteratorType " + request.type_name);
      }
      // Any number from the shard's first to its last (or its first, while it has none) is a position.
      uint64_t seq = 0;
      uint64_t last = stream.enabled() ? std::max(stream.next_seq - 1, stream.starting_seq) : stream.ending_seq();
      if (!ParseSequenceNumber(*request.sequence_number, &seq) || seq < stream.starting_seq || seq > last) {
        return Status::Validation("Invalid SequenceNumber for ShardIteratorType " + request.type_name + ": " +
                                  *request.sequence_number);
      }
      position = request.type == ShardIteratorType::kAtSequenceNumber ? seq : seq + 1;
      if (position < horizon) {
        return Status::Error(ErrorCode::kTrimmedDataAccess, "The data you are trying to access has been trimmed");
      }
      break;
    }
  }
  *shard_iterator = EncodeIterator(stream, position, now);
  return Status::OK();
}

Status GetRecords(const Catalog& catalog, const RequestContext& ctx, const std::string& shard_iterator, int64_t limit,
                  GetRecordsResult* result) {
  DecodedIterator it;
  if (!DecodeIterator(shard_iterator, &it)) return Status::Validation("Invalid ShardIterator");
  const int64_t now = ctx.clock->NowMillis();
  StreamInfo stream;
  if (!catalog.streams().Find(it.stream_id, &stream) || stream.arn != it.arn || stream.expired(now)) {
    return Status::NotFound(kShardNotFound);
  }
  if (now - it.issued_ms > kShardIteratorLifetimeMillis) {
    return Status::Error(ErrorCode::kExpiredIterator, "Shard iterator has expired");
  }
  uint64_t horizon = 0;
  DP_RETURN_IF_ERROR(TrimHorizon(catalog.storage(), stream, now, &horizon));
  if (it.position < horizon) {
    return Status::Error(ErrorCode::kTrimmedDataAccess, "The data you are trying to access has been trimmed");
  }
  result->records.clear();
  uint64_t position = it.position;
  size_t bytes = 0;
  const int64_t asked = limit;
  const GetRecordsCut cut = ChooseGetRecordsCut(ctx, &limit);
  auto records = catalog.storage().NewIterator(StreamRecordKey(stream.id, position), StreamRecordPrefix(stream.id + 1));
  for (records->SeekToFirst(); limit > 0 && records->Valid(); records->Next()) {
    int64_t written_ms = 0;
    std::string_view json;
    if (!DecodeStreamRecord(records->value(), &written_ms, &json)) return Status::Internal("corrupt stream record");
    // At least one record, however large; then no more than the limit or 1 MB.
    if (!result->records.empty() && bytes + json.size() > kMaxGetRecordsBytes) break;
    result->records.emplace_back(json);
    bytes += json.size();
    position = SequenceOfRecordKey(records->key()) + 1;
    if (static_cast<int64_t>(result->records.size()) >= limit) break;
  }
  DP_RETURN_IF_ERROR(records->status());
  // Records are numbered without gaps: those after the position are the ones the next reads would get.
  const uint64_t left = stream.next_seq > position ? stream.next_seq - position : 0;
  // A closed shard read to its end has nothing more to give: no next iterator (under chaos, perhaps one more
  // empty read first, which consumers must take as well).
  if (!stream.enabled() && left == 0 && !(cut == GetRecordsCut::kIteratorOnLast && !result->records.empty())) {
    result->next_shard_iterator.reset();
  } else {
    result->next_shard_iterator = EncodeIterator(stream, position, now);
  }
  if (ctx.counters) {
    ctx.counters->items_returned += result->records.size();
    ctx.counters->records_after_iterator = result->next_shard_iterator ? left : 0;
    const bool cut_short = limit < asked && left > 0 && result->records.size() == static_cast<size_t>(limit);
    if (cut_short) ctx.counters->injected = limit == 0 ? "page chaos: empty page" : "page chaos: short page";
    if (!stream.enabled() && left == 0 && result->next_shard_iterator && !result->records.empty()) {
      ctx.counters->injected = "page chaos: iterator on the last records";
    }
  }
  return Status::OK();
}

}  // namespace dynapage
