// Item keys: the key values found once for BatchWriteItem give the checks and the storage key that the lookups
// by name give.

#include "engine/storage/item_key.h"

#include <gtest/gtest.h>

#include <string>

namespace dynapage {
namespace {

TableDefinition Table() {
  TableDefinition t;
  t.name = "t";
  t.keyspace = 7;
  t.key.hash = {"pk", AttrType::kS};
  t.key.range = KeyAttribute{"sk", AttrType::kN};
  IndexDefinition index;
  index.name = "by_bucket";
  index.key.hash = {"bucket", AttrType::kN};
  index.keyspace = 8;
  t.indexes.push_back(index);
  return t;
}

AttributeMap Item(AttributeValue pk, AttributeValue sk) {
  return {{"pk", std::move(pk)}, {"sk", std::move(sk)}, {"payload", AttributeValue::String("x")}};
}

TEST(FindTableKeyAttributes, FindsBothKeysWithTheirTypes) {
  TableDefinition t = Table();
  AttributeMap item = Item(AttributeValue::String("a"), AttributeValue::Number("1"));
  TableKeyValues keys;
  ASSERT_TRUE(FindTableKeyAttributes(t.key, item, &keys));
  EXPECT_EQ(&item.at("pk"), keys.partition);
  EXPECT_EQ(&item.at("sk"), keys.sort);
  EXPECT_EQ(TableItemKey(t, item), TableItemKey(t, keys));
}

TEST(FindTableKeyAttributes, MissingOrMistypedKeyIsNotFound) {
  TableDefinition t = Table();
  TableKeyValues keys;
  AttributeMap no_sort = {{"pk", AttributeValue::String("a")}};
  EXPECT_FALSE(FindTableKeyAttributes(t.key, no_sort, &keys));
  AttributeMap string_sort = Item(AttributeValue::String("a"), AttributeValue::String("1"));
  EXPECT_FALSE(FindTableKeyAttributes(t.key, string_sort, &keys));
  AttributeMap number_partition = Item(AttributeValue::Number("1"), AttributeValue::Number("1"));
  EXPECT_FALSE(FindTableKeyAttributes(t.key, number_partition, &keys));
}

TEST(FindTableKeyAttributes, HashOnlyTableHasNoSortKey) {
  TableDefinition t = Table();
  t.key.range.reset();
  AttributeMap item = {{"pk", AttributeValue::String("a")}};
  TableKeyValues keys;
  ASSERT_TRUE(FindTableKeyAttributes(t.key, item, &keys));
  EXPECT_EQ(nullptr, keys.sort);
  EXPECT_EQ(TableItemKey(t, item), TableItemKey(t, keys));
}

// Parses text in place, as the server parses a request, into a WireItem; its strings live in *buffer.
void ParseWireItem(const std::string& text, std::string* buffer, rapidjson::Document* doc, WireItem* item) {
  *buffer = text;
  doc->ParseInsitu(&(*buffer)[0]);
  ASSERT_FALSE(doc->HasParseError()) << text;
  ASSERT_TRUE(WireItem::FromJson(*doc, item)) << text;
}

// A WireItem's key values are the ones the item's AttributeMap gives, copied out of it.
TEST(FindTableKeyAttributes, WireItemGivesTheKeysOfItsAttributeMap) {
  TableDefinition t = Table();
  std::string buffer;
  rapidjson::Document doc;
  WireItem wire;
  ParseWireItem(R"({"payload":{"S":"x"},"sk":{"N":"01.50"},"pk":{"S":"a"}})", &buffer, &doc, &wire);
  AttributeValue copies[2];
  TableKeyValues keys;
  ASSERT_TRUE(FindTableKeyAttributes(t.key, wire, copies, &keys));
  EXPECT_EQ(&copies[0], keys.partition);
  EXPECT_EQ(&copies[1], keys.sort);
  EXPECT_EQ(AttributeValue::String("a"), *keys.partition);
  EXPECT_EQ(AttributeValue::Number("1.5"), *keys.sort);
  EXPECT_EQ(TableItemKey(t, wire.ToAttributeMap()), TableItemKey(t, keys));
  EXPECT_TRUE(ValidateTableKeyValues(t.key, keys).ok());

  t.key.range.reset();
  ASSERT_TRUE(FindTableKeyAttributes(t.key, wire, copies, &keys));
  EXPECT_EQ(nullptr, keys.sort);
  EXPECT_EQ(TableItemKey(t, wire.ToAttributeMap()), TableItemKey(t, keys));
}

TEST(FindTableKeyAttributes, WireItemMissingOrMistypedKeyIsNotFound) {
  TableDefinition t = Table();
  for (const char* text : {R"({"pk":{"S":"a"}})", R"({"pk":{"S":"a"},"sk":{"S":"1"}})",
                           R"({"pk":{"N":"1"},"sk":{"N":"1"}})", R"({"sk":{"N":"1"}})"}) {
    std::string buffer;
    rapidjson::Document doc;
    WireItem wire;
    ParseWireItem(text, &buffer, &doc, &wire);
    AttributeValue copies[2];
    TableKeyValues keys;
    EXPECT_FALSE(FindTableKeyAttributes(t.key, wire, copies, &keys)) << text;
  }
}

// ValidateTableKeyValues is the table-key part of ValidateItemKeyValues: empty values and sizes.
TEST(ValidateTableKeyValues, EmptyAndOversizedKeyValues) {
  TableDefinition t = Table();
  AttributeValue empty = AttributeValue::String(""), long_partition = AttributeValue::String(std::string(2049, 'a'));
  AttributeValue one = AttributeValue::Number("1");
  EXPECT_NE(std::string::npos, ValidateTableKeyValues(t.key, {&empty, &one}).message().find("empty string"));
  EXPECT_NE(std::string::npos, ValidateTableKeyValues(t.key, {&long_partition, &one}).message().find("hashkey"));
  t.key.range = KeyAttribute{"sk", AttrType::kS};
  AttributeValue big_sort = AttributeValue::String(std::string(1025, 'b')), a = AttributeValue::String("a");
  EXPECT_NE(std::string::npos, ValidateTableKeyValues(t.key, {&a, &big_sort}).message().find("range keys"));
  EXPECT_TRUE(ValidateTableKeyValues(t.key, {&a, &a}).ok());
}

// Once the table keys are present with their types, ValidateItemKeyValues reports what ValidateItemKeys does.
TEST(ValidateItemKeyValues, SameErrorsAsValidateItemKeys) {
  TableDefinition t = Table();
  std::vector<AttributeMap> items = {
      Item(AttributeValue::String("a"), AttributeValue::Number("1")),
      Item(AttributeValue::String(""), AttributeValue::Number("1")),
      Item(AttributeValue::String(std::string(2049, 'a')), AttributeValue::Number("1")),
      Item(AttributeValue::String(std::string(2049, 'a')), AttributeValue::Number("1")),
  };
  items[3]["bucket"] = AttributeValue::String("not a number");
  AttributeMap bad_index = Item(AttributeValue::String("a"), AttributeValue::Number("1"));
  bad_index["bucket"] = AttributeValue::String("not a number");
  items.push_back(bad_index);
  for (const AttributeMap& item : items) {
    TableKeyValues keys;
    ASSERT_TRUE(FindTableKeyAttributes(t.key, item, &keys));
    Status expected = ValidateItemKeys(t, item);
    Status actual = ValidateItemKeyValues(t, item, keys);
    EXPECT_EQ(expected.code(), actual.code());
    EXPECT_EQ(expected.message(), actual.message());
  }
  EXPECT_TRUE(ValidateItemKeys(t, items[0]).ok());
  EXPECT_NE(std::string::npos, ValidateItemKeys(t, items[1]).message().find("empty string"));
  EXPECT_NE(std::string::npos, ValidateItemKeys(t, items[3]).message().find("hashkey"));
  EXPECT_NE(std::string::npos, ValidateItemKeys(t, bad_index).message().find("IndexName: by_bucket"));
}

}  // namespace
}  // namespace dynapage
