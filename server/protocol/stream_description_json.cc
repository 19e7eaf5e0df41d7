#include "server/protocol/stream_description_json.h"

#include "server/protocol/table_description_json.h"

namespace dynapage {

void WriteStreamSummary(const StreamInfo& stream, JsonWriter* w) {
  w->StartObject();
  w->Key("StreamArn");
  w->String(stream.arn);
  w->Key("TableName");
  w->String(stream.table_name);
  w->Key("StreamLabel");
  w->String(stream.label);
  w->EndObject();
}

void WriteStreamDescription(const StreamInfo& s, bool shard_listed, JsonWriter* w) {
  w->StartObject();
  w->Key("StreamArn");
  w->String(s.arn);
  w->Key("StreamLabel");
  w->String(s.label);
  w->Key("StreamStatus");
  w->String(s.enabled() ? "ENABLED" : "DISABLED");
  w->Key("StreamViewType");
  w->String(s.view_type);
  w->Key("CreationRequestDateTime");
  w->Double(static_cast<double>(s.created_ms) / 1000.0);
  w->Key("TableName");
  w->String(s.table_name);
  w->Key("KeySchema");
  w->StartArray();
  WriteKeySchemaElement(s.hash_key, "HASH", w);
  if (!s.range_key.empty()) WriteKeySchemaElement(s.range_key, "RANGE", w);
  w->EndArray();
  w->Key("Shards");
  w->StartArray();
  if (shard_listed) {
    w->StartObject();
    w->Key("ShardId");
    w->String(s.shard_id);
    w->Key("SequenceNumberRange");
    w->StartObject();
    w->Key("StartingSequenceNumber");
    w->String(FormatSequenceNumber(s.starting_seq));
    // A closed shard (its stream disabled) shows where it ends.
    if (!s.enabled()) {
      w->Key("EndingSequenceNumber");
      w->String(FormatSequenceNumber(s.ending_seq()));
    }
    w->EndObject();
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

}  // namespace dynapage
