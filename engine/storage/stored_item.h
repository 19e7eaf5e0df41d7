// StoredItem: the RocksDB value of an item or an index entry.
//
//   value = varint32(item size by DynamoDB's rules) | canonical item JSON
//
// The size is kept so that the page loop can count 1 MB and capacity units without decoding the item, and the
// JSON is kept in exactly the form a response carries it, so that an unfiltered, unprojected page copies it
// straight from the iterator into the response.

#ifndef DYNAPAGE_ENGINE_STORAGE_STORED_ITEM_H_
#define DYNAPAGE_ENGINE_STORAGE_STORED_ITEM_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/model/attribute_value.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/wire_item.h"

namespace dynapage {

std::string EncodeStoredItem(const AttributeMap& item);
// The same, for a caller that has the size already. REQUIRES: size == ItemSize(item).
std::string EncodeStoredItem(const AttributeMap& item, uint64_t size);

// Encodes items one after another into one buffer it keeps: a batch of writes allocates it once, where
// EncodeStoredItem allocates a buffer, a writer stack and the result for each item.
class StoredItemEncoder {
 public:
  StoredItemEncoder() : writer_(buffer_) {}
  StoredItemEncoder(const StoredItemEncoder&) = delete;
  StoredItemEncoder& operator=(const StoredItemEncoder&) = delete;

  // The stored value of item, valid until the next call. REQUIRES: size == ItemSize(item).
  std::string_view Encode(const AttributeMap& item, uint64_t size);
  // The same for the item a WireItem holds.
  std::string_view Encode(const WireItem& item);

 private:
  // Starts the next value with its size header.
  void Begin(uint64_t item_size);

  rapidjson::StringBuffer buffer_;
  JsonWriter writer_;
};

struct StoredItemView {
  uint32_t size = 0;      // DynamoDB item size
  std::string_view json;  // the item as a JSON object
};

// Splits a stored value; false if it is corrupt.
bool ParseStoredItem(std::string_view value, StoredItemView* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_STORED_ITEM_H_
