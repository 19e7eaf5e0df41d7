#include "engine/write/stream_records.h"

#include <rapidjson/stringbuffer.h>

#include "engine/base/check.h"
#include "engine/model/attribute_value_json.h"
#include "engine/storage/item_key.h"

namespace dynapage {

namespace {
uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// 32 lowercase hex characters, unique per (stream, sequence number) and the same on every run.
std::string EventId(const StreamInfo& stream, uint64_t seq) {
  uint64_t high = Mix(Fnv1a(stream.arn) ^ seq);
  uint64_t low = Mix(high ^ (static_cast<uint64_t>(stream.id) << 32 | (seq & 0xFFFFFFFF)));
  static const char kHex[] = "0123456789abcdef";
  std::string id(32, '0');
  for (int i = 15; i >= 0; i--, high >>= 4, low >>= 4) {
    id[i] = kHex[high & 0xF];
    id[16 + i] = kHex[low & 0xF];
  }
  return id;
}

// A record's bytes besides its attribute names and values (their JSON form is at most about twice their size).
constexpr size_t kFixedRecordBytes = 512;

const char* EventName(StreamEvent event) {
  switch (event) {
    case StreamEvent::kInsert: return "INSERT";
    case StreamEvent::kModify: return "MODIFY";
    case StreamEvent::kRemove: return "REMOVE";
    case StreamEvent::kNone: break;
  }
  return "";
}
}  // namespace

StreamEvent EventOf(const AttributeMap* old_item, const AttributeMap* new_item) {
  if (!old_item) return new_item ? StreamEvent::kInsert : StreamEvent::kNone;
  if (!new_item) return StreamEvent::kRemove;
  // Deep equality: numbers are canonical text, sets compare as sets.
  return *old_item == *new_item ? StreamEvent::kNone : StreamEvent::kModify;
}

std::string StreamRecordJson(const StreamInfo& stream, const KeySchema& key, uint64_t seq, int64_t now_ms,
                             const std::string& region, const StreamChange& change) {
  DP_DCHECK(change.event != StreamEvent::kNone);
  const bool new_wanted = stream.view_type == "NEW_IMAGE" || stream.view_type == "NEW_AND_OLD_IMAGES";
  const bool old_wanted = stream.view_type == "OLD_IMAGE" || stream.view_type == "NEW_AND_OLD_IMAGES";
  const AttributeMap* new_image = new_wanted && change.event != StreamEvent::kRemove ? change.new_item : nullptr;
  const AttributeMap* old_image = old_wanted && change.event != StreamEvent::kInsert ? change.old_item : nullptr;
  AttributeMap keys = KeyOf(key, change.new_item ? *change.new_item : *change.old_item);
  size_t size_bytes = ItemSize(keys) + (new_image ? ItemSize(*new_image) : 0) + (old_image ? ItemSize(*old_image) : 0);

  rapidjson::StringBuffer buffer;
  // The images and ~400 bytes of names and fixed values, in one allocation: grown step by step from RapidJSON's
  // 256 bytes, the buffer was copied several times a record.
  buffer.Reserve(kFixedRecordBytes + 2 * size_bytes);
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("awsRegion");
  w.String(region);
  w.Key("dynamodb");
  w.StartObject();
  w.Key("ApproximateCreationDateTime");
  w.Int64(now_ms / 1000);
  w.Key("Keys");
  WriteAttributeMap(keys, &w);
  if (new_image) {
    w.Key("NewImage");
    WriteAttributeMap(*new_image, &w);
  }
  if (old_image) {
    w.Key("OldImage");
    WriteAttributeMap(*old_image, &w);
  }
  w.Key("SequenceNumber");
  w.String(FormatSequenceNumber(seq));
  w.Key("SizeBytes");
  w.Uint64(size_bytes);
  w.Key("StreamViewType");
  w.String(stream.view_type);
  w.EndObject();
  w.Key("eventID");
  w.String(EventId(stream, seq));
  w.Key("eventName");
  w.String(EventName(change.event));
  w.Key("eventSource");
  w.String("aws:dynamodb");
  w.Key("eventVersion");
  w.String("1.1");
  if (change.by_ttl) {
    // PascalCase, as the Streams API's Identity shape names its members (the SDKs drop any other spelling).
    w.Key("userIdentity");
    w.StartObject();
    w.Key("PrincipalId");
    w.String("dynamodb.amazonaws.com");
    w.Key("Type");
    w.String("Service");
    w.EndObject();
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace dynapage
