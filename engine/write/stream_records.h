// Stream records: the change record DynamoDB Streams keeps for one item write (docs/streams-and-ttl.md).
//
// The write path decides the event from the item before and after the write: INSERT when there was no item,
// REMOVE when there is none left, MODIFY when they differ, and no record at all when they are equal (a put of the
// same item, an update that sets the same values, a delete of a missing item, a transaction's ConditionCheck).
// The record carries the images its stream's view type asks for, and SizeBytes is the DynamoDB item size of Keys
// plus those images. Its JSON is stored as GetRecords returns it.

#ifndef DYNAPAGE_ENGINE_WRITE_STREAM_RECORDS_H_
#define DYNAPAGE_ENGINE_WRITE_STREAM_RECORDS_H_

#include <cstdint>
#include <string>

#include "engine/catalog/stream_catalog.h"
#include "engine/model/attribute_value.h"
#include "engine/model/key_schema.h"

namespace dynapage {

enum class StreamEvent { kNone, kInsert, kModify, kRemove };

// What a write did to an item; either may be null (absent).
StreamEvent EventOf(const AttributeMap* old_item, const AttributeMap* new_item);

struct StreamChange {
  StreamEvent event = StreamEvent::kNone;
  const AttributeMap* old_item = nullptr;  // REQUIRES: set for kModify and kRemove
  const AttributeMap* new_item = nullptr;  // REQUIRES: set for kInsert and kModify
  bool by_ttl = false;                     // a TTL deletion: userIdentity names the service
};

// The record's JSON: eventID, eventName, eventVersion "1.1", eventSource "aws:dynamodb", awsRegion, and dynamodb
// {ApproximateCreationDateTime (whole seconds of now_ms), Keys, NewImage/OldImage, SequenceNumber, SizeBytes,
// StreamViewType}, plus userIdentity for a TTL deletion. REQUIRES: change.event is not kNone.
std::string StreamRecordJson(const StreamInfo& stream, const KeySchema& key, uint64_t seq, int64_t now_ms,
                             const std::string& region, const StreamChange& change);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_STREAM_RECORDS_H_
