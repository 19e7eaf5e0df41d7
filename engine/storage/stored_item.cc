#include "engine/storage/stored_item.h"

#include "engine/base/check.h"

namespace dynapage {

std::string EncodeStoredItem(const AttributeMap& item) { return EncodeStoredItem(item, ItemSize(item)); }

std::string EncodeStoredItem(const AttributeMap& item, uint64_t size) {
  DP_DCHECK(size == ItemSize(item));
  StoredItemEncoder encoder;
  return std::string(encoder.Encode(item, size));
}

void StoredItemEncoder::Begin(uint64_t item_size) {
  buffer_.Clear();
  uint32_t size = static_cast<uint32_t>(item_size);
  while (size >= 0x80) {
    buffer_.Put(static_cast<char>((size & 0x7F) | 0x80));
    size >>= 7;
  }
  buffer_.Put(static_cast<char>(size));
  writer_.Reset(buffer_);
}

std::string_view StoredItemEncoder::Encode(const AttributeMap& item, uint64_t item_size) {
  DP_DCHECK(item_size == ItemSize(item));
  Begin(item_size);
  WriteAttributeMap(item, &writer_);
  return std::string_view(buffer_.GetString(), buffer_.GetSize());
}

std::string_view StoredItemEncoder::Encode(const WireItem& item) {
  Begin(item.size());
  item.Write(&writer_);
  return std::string_view(buffer_.GetString(), buffer_.GetSize());
}

bool ParseStoredItem(std::string_view value, StoredItemView* out) {
  uint32_t size = 0;
  int shift = 0;
  size_t i = 0;
  for (; i < value.size() && shift <= 28; i++, shift += 7) {
    uint8_t byte = static_cast<uint8_t>(value[i]);
    size |= static_cast<uint32_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) {
      out->size = size;
      out->json = value.substr(i + 1);
      return true;
    }
  }
  return false;
}

}  // namespace dynapage
