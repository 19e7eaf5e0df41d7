// Item keys: the key values found once for BatchWriteItem give the checks and the storage key that the lookups
// by name give.

#include "engine/item_key.h"

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
