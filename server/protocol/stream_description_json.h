// The JSON of DynamoDB Streams' answers about a stream (docs/streams-and-ttl.md): its summary, as ListStreams lists
// it, and its description, as DescribeStream answers. Members are written in DynamoDB's order.
//
// Not here: the stream a table names in its TableDescription (LatestStreamArn, LatestStreamLabel;
// table_description_json.h), and the stored forms of streams and table definitions (engine/catalog/stream_catalog.cc,
// engine/model/table_definition.cc), which are file formats with names of their own.

#ifndef DYNAPAGE_SERVER_PROTOCOL_STREAM_DESCRIPTION_JSON_H_
#define DYNAPAGE_SERVER_PROTOCOL_STREAM_DESCRIPTION_JSON_H_

#include "engine/catalog/stream_catalog.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

// {"StreamArn": …, "TableName": …, "StreamLabel": …}
void WriteStreamSummary(const StreamInfo& stream, JsonWriter* w);

// The StreamDescription object: ARN, label, status (ENABLED, or DISABLED once disabled), view type, creation time,
// table name, key schema, and "Shards" holding the one shard when shard_listed (with its ending sequence number
// once the stream is disabled), else empty.
void WriteStreamDescription(const StreamInfo& stream, bool shard_listed, JsonWriter* w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_STREAM_DESCRIPTION_JSON_H_
