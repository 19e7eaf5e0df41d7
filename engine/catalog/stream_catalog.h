// StreamCatalog: the DynamoDB streams of every table, enabled or disabled, and where their records are stored.
//
// A new stream is made each time a table's stream is enabled (CreateTable or UpdateTable), with its own ARN and
// label, and it outlives its table: once disabled (UpdateTable or DeleteTable) it stays listed and readable for
// the retention period (24 hours), and is then dropped. Each stream has one shard and one sequence counter
// (docs/streams-and-ttl.md). Streams are stored beside the tables, under keys of their own:
//
//   'x' | namespace (u32 BE) | id (u32 BE)   the stream's description (JSON)
//   'r' | id (u32 BE) | seq (u64 BE)         one change record: written at (epoch ms, u64 BE) | the record's JSON
//
// The id is a keyspace number from the store's counter (engine/catalog/keyspace_counter.h), so it is never
// reused, in any namespace. A record's JSON is exactly what
// GetRecords returns for it. The write path puts records into the same batch as the item change they describe.
//
// Like the Catalog, readers call Find*/List from any thread and get a copy; only the write path changes streams,
// under its writer lock: it puts the change into its batch (PutStream, DeleteStream), writes the batch, and then
// publishes the change here (SetStream, SetNextSequence, RemoveStream).

#ifndef DYNAPAGE_ENGINE_CATALOG_STREAM_CATALOG_H_
#define DYNAPAGE_ENGINE_CATALOG_STREAM_CATALOG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/storage/storage.h"

namespace dynapage {

// How long records, and disabled streams, are kept (DynamoDB: 24 hours), by the request's clock.
constexpr int64_t kStreamRetentionMillis = 24LL * 3600 * 1000;

struct StreamInfo {
  uint32_t id = 0;
  std::string arn;
  std::string label;  // UTC time of the enable, "2024-11-18T14:36:44.149"
  std::string table_name;
  std::string view_type;  // KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES
  std::string hash_key;   // the table's key attribute names (range_key empty for a hash-only table)
  std::string range_key;
  std::string shard_id;  // the one shard's id: "shardId-<creation ms, 20 digits>-<8 hex>"
  int64_t created_ms = 0;
  int64_t disabled_ms = 0;    // 0 while enabled
  uint64_t starting_seq = 1;  // the sequence number of the shard's first record
  uint64_t trim_seq = 1;      // records before this one were deleted (retention)
  uint64_t next_seq = 1;      // the number the next record gets

  bool enabled() const { return disabled_ms == 0; }
  // The shard's last sequence number once it is closed; its starting number when it never had a record.
  uint64_t ending_seq() const { return next_seq > starting_seq ? next_seq - 1 : starting_seq; }
  // True once a disabled stream has outlived the retention period: it is then gone for every API.
  bool expired(int64_t now_ms) const { return !enabled() && disabled_ms + kStreamRetentionMillis < now_ms; }
};

// Sequence numbers as clients see them: "1" and the counter in 20 digits, 21 characters that sort as numbers do
// (boto3 requires at least 21).
std::string FormatSequenceNumber(uint64_t seq);
// Parses a sequence number of that form or any decimal up to 2^64-1; false otherwise.
bool ParseSequenceNumber(std::string_view text, uint64_t* seq);

// Big-endian fixed-width integers, as stream keys and shard iterators hold them.
void AppendBigEndian(uint64_t value, int bytes, std::string* out);
uint64_t ReadBigEndian(std::string_view bytes);
// FNV-1a of bytes, continuing from hash: the same on every run (shard ids, event ids, iterator checks).
constexpr uint64_t kFnvOffset = 0xCBF29CE484222325ULL;
uint64_t Fnv1a(std::string_view bytes, uint64_t hash = kFnvOffset);

std::string StreamRecordPrefix(uint32_t stream_id);
std::string StreamRecordKey(uint32_t stream_id, uint64_t seq);
// The sequence number of a record key. REQUIRES: key is a StreamRecordKey.
uint64_t SequenceOfRecordKey(std::string_view key);
// A record's stored value, and back (false if corrupt).
std::string EncodeStreamRecord(int64_t written_ms, std::string_view record_json);
bool DecodeStreamRecord(std::string_view value, int64_t* written_ms, std::string_view* record_json);
// A stream's stored description, and back (false if corrupt).
std::string SerializeStreamInfo(const StreamInfo& stream);
bool ParseStreamInfo(std::string_view json, StreamInfo* stream);

class StreamCatalog {
 public:
  // The streams of namespace namespace_id.
  explicit StreamCatalog(uint32_t namespace_id) : namespace_id_(namespace_id) {}
  StreamCatalog(const StreamCatalog&) = delete;
  StreamCatalog& operator=(const StreamCatalog&) = delete;

  // Reads the streams stored by earlier runs, and each one's next sequence number from its records.
  Status Load(const Storage& storage);

  // False when there is no such stream (dropped ones included).
  bool Find(uint32_t id, StreamInfo* out) const;
  bool FindByArn(std::string_view arn, StreamInfo* out) const;
  // Every stream, in no particular order.
  std::vector<StreamInfo> List() const;
  // True if some stream of this table name has this label.
  bool LabelTaken(const std::string& table_name, const std::string& label) const;

  // --- For the write path, under its writer lock.
  void PutStream(const StreamInfo& stream, Storage::Batch* batch) const;
  void DeleteStream(uint32_t id, Storage::Batch* batch) const;
  void SetStream(const StreamInfo& stream);
  void SetNextSequence(uint32_t id, uint64_t next_seq);
  void RemoveStream(uint32_t id);

 private:
  uint32_t namespace_id_;
  mutable std::shared_mutex mu_;
  std::map<uint32_t, StreamInfo> streams_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_CATALOG_STREAM_CATALOG_H_
