// StoredItem: varint32 DynamoDB size | canonical item JSON.

#include "engine/storage/stored_item.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/model/attribute_value_json.h"

namespace dynapage {
namespace {

AttributeMap ItemWithString(size_t n) {
  return {{"pk", AttributeValue::String("k")}, {"data", AttributeValue::String(std::string(n, 'x'))}};
}

TEST(StoredItem, RoundTripsSizeAndJson) {
  // Sizes around the 1-, 2- and 3-byte varint boundaries, and the 400 KB limit.
  for (size_t n : {0u, 100u, 121u, 122u, 16000u, 16377u, 16378u, 409593u}) {
    AttributeMap item = ItemWithString(n);
    std::string stored = EncodeStoredItem(item);
    StoredItemView view;
    ASSERT_TRUE(ParseStoredItem(stored, &view)) << n;
    EXPECT_EQ(ItemSize(item), view.size) << n;
    EXPECT_EQ(EncodeAttributeMap(item), std::string(view.json)) << n;
    AttributeMap decoded;
    ASSERT_TRUE(DecodeStoredAttributeMap(view.json, &decoded));
    EXPECT_EQ(item, decoded);
  }
}

TEST(StoredItem, SizeIsTheDynamoSizeNotTheJsonLength) {
  AttributeMap item = {{"n", AttributeValue::Number("12.3456")}};
  StoredItemView view;
  ASSERT_TRUE(ParseStoredItem(EncodeStoredItem(item), &view));
  EXPECT_EQ(5u, view.size);
}

// One encoder for a sequence of items (a batch) gives each item's value alone, big after small and back.
TEST(StoredItem, EncoderReusedForManyItems) {
  StoredItemEncoder encoder;
  for (size_t n : {10u, 16378u, 0u, 300u, 5u}) {
    AttributeMap item = ItemWithString(n);
    EXPECT_EQ(EncodeStoredItem(item), std::string(encoder.Encode(item, ItemSize(item)))) << n;
  }
  AttributeMap item = {{"n", AttributeValue::Number("1")}, {"l", AttributeValue::List({AttributeValue::Null()})}};
  std::string_view stored = encoder.Encode(item, ItemSize(item));
  StoredItemView view;
  ASSERT_TRUE(ParseStoredItem(stored, &view));
  EXPECT_EQ(R"({"l":{"L":[{"NULL":true}]},"n":{"N":"1"}})", std::string(view.json));
}

TEST(StoredItem, CorruptValuesAreRejected) {
  StoredItemView view;
  EXPECT_FALSE(ParseStoredItem("", &view));
  EXPECT_FALSE(ParseStoredItem("\x80", &view));
  EXPECT_FALSE(ParseStoredItem("\xff\xff\xff\xff\xff\xff", &view));
}

}  // namespace
}  // namespace dynapage
