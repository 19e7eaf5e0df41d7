#include "engine/model/document_path.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

AttributeValue S(const std::string& s) { return AttributeValue::String(s); }

AttributeMap SampleItem() {
  AttributeMap inner;
  inner["c"] = S("deep");
  AttributeMap b;
  b["b"] = AttributeValue::List({S("l0"), S("l1"), AttributeValue::Map(inner)});
  AttributeMap item;
  item["a"] = AttributeValue::Map(b);
  item["s"] = S("top");
  return item;
}

TEST(DocumentPathTest, ResolvesTopLevelAttribute) {
  AttributeMap item = SampleItem();
  const AttributeValue* v = ResolvePath(item, {PathElement::Name("s")});
  ASSERT_NE(nullptr, v);
  EXPECT_EQ("top", v->scalar);
  // Aliases into the item rather than copying.
  EXPECT_EQ(&item["s"], v);
}

TEST(DocumentPathTest, ResolvesNestedMapsAndLists) {
  AttributeMap item = SampleItem();
  const AttributeValue* v = ResolvePath(
      item, {PathElement::Name("a"), PathElement::Name("b"), PathElement::Index(2), PathElement::Name("c")});
  ASSERT_NE(nullptr, v);
  EXPECT_EQ("deep", v->scalar);
  v = ResolvePath(item, {PathElement::Name("a"), PathElement::Name("b"), PathElement::Index(1)});
  ASSERT_NE(nullptr, v);
  EXPECT_EQ("l1", v->scalar);
}

TEST(DocumentPathTest, MissingStepsResolveToNull) {
  AttributeMap item = SampleItem();
  EXPECT_EQ(nullptr, ResolvePath(item, {PathElement::Name("missing")}));
  EXPECT_EQ(nullptr, ResolvePath(item, {PathElement::Name("a"), PathElement::Name("x")}));
  // Index past the end.
  EXPECT_EQ(nullptr, ResolvePath(item, {PathElement::Name("a"), PathElement::Name("b"), PathElement::Index(3)}));
  // Name applied to a list, index applied to a map, anything applied to a scalar.
  EXPECT_EQ(nullptr, ResolvePath(item, {PathElement::Name("a"), PathElement::Name("b"), PathElement::Name("0")}));
  EXPECT_EQ(nullptr, ResolvePath(item, {PathElement::Name("a"), PathElement::Index(0)}));
  EXPECT_EQ(nullptr, ResolvePath(item, {PathElement::Name("s"), PathElement::Name("x")}));
  EXPECT_EQ(nullptr, ResolvePath(item, {}));
  EXPECT_EQ(nullptr, ResolvePath(item, {PathElement::Index(0)}));
}

TEST(DocumentPathTest, FormatsLikeDynamoDBMessages) {
  EXPECT_EQ("[a]", FormatPath({PathElement::Name("a")}));
  EXPECT_EQ("[a, b]", FormatPath({PathElement::Name("a"), PathElement::Name("b")}));
  EXPECT_EQ("[a, b, [2], c]", FormatPath({PathElement::Name("a"), PathElement::Name("b"), PathElement::Index(2),
                                          PathElement::Name("c")}));
  EXPECT_EQ("[]", FormatPath({}));
}

TEST(DocumentPathTest, ComparesPaths) {
  DocumentPath a = {PathElement::Name("a")};
  DocumentPath ab = {PathElement::Name("a"), PathElement::Name("b")};
  DocumentPath ac = {PathElement::Name("a"), PathElement::Name("c")};
  DocumentPath a0 = {PathElement::Name("a"), PathElement::Index(0)};
  DocumentPath a1 = {PathElement::Name("a"), PathElement::Index(1)};
  EXPECT_EQ(PathRelation::kOverlap, ComparePaths(a, ab));
  EXPECT_EQ(PathRelation::kOverlap, ComparePaths(ab, a));
  EXPECT_EQ(PathRelation::kOverlap, ComparePaths(ab, ab));
  EXPECT_EQ(PathRelation::kDisjoint, ComparePaths(ab, ac));
  EXPECT_EQ(PathRelation::kDisjoint, ComparePaths(a0, a1));
  EXPECT_EQ(PathRelation::kConflict, ComparePaths(ab, a0));
  EXPECT_EQ(PathRelation::kDisjoint, ComparePaths({PathElement::Name("x")}, a0));
}

TEST(DocumentPathTest, ElementEquality) {
  EXPECT_EQ(PathElement::Name("a"), PathElement::Name("a"));
  EXPECT_NE(PathElement::Name("a"), PathElement::Name("b"));
  EXPECT_EQ(PathElement::Index(1), PathElement::Index(1));
  EXPECT_NE(PathElement::Index(1), PathElement::Index(2));
  EXPECT_NE(PathElement::Name("1"), PathElement::Index(1));
}

}  // namespace
}  // namespace dynapage
