#include "engine/expressions/projection.h"

#include <gtest/gtest.h>

#include "engine/model/attribute_value_format.h"

namespace dynapage {
namespace {

AttributeValue S(const std::string& s) { return AttributeValue::String(s); }

DocumentPath Path(std::initializer_list<PathElement> elements) { return DocumentPath(elements); }
PathElement F(const char* n) { return PathElement::Name(n); }
PathElement I(uint32_t i) { return PathElement::Index(i); }

std::string Show(const AttributeMap& m) { return FormatValueBody(AttributeValue::Map(m)); }

class ProjectionTest : public ::testing::Test {
 protected:
  ProjectionTest() {
    AttributeMap inner = {{"x", S("x1")}, {"y", S("y1")}};
    item_ = {
        {"a", AttributeValue::Map({{"b", S("ab")}, {"c", S("ac")}, {"d", AttributeValue::Map(inner)}})},
        {"l", AttributeValue::List({S("l0"), S("l1"), S("l2"), S("l3"), AttributeValue::Map(inner)})},
        {"s", S("top")},
        {"t", S("other")},
    };
  }
  AttributeMap item_;
};

TEST_F(ProjectionTest, TopLevelAttributes) {
  EXPECT_EQ("{M:{s={S:top}}}", Show(ProjectItem(item_, {Path({F("s")})})));
  EXPECT_EQ("{M:{s={S:top}, t={S:other}}}", Show(ProjectItem(item_, {Path({F("t")}), Path({F("s")})})));
  EXPECT_EQ("{M:{}}", Show(ProjectItem(item_, {})));
}

TEST_F(ProjectionTest, NestedMapMembersKeepTheirParents) {
  EXPECT_EQ("{M:{a={M:{b={S:ab}}}}}", Show(ProjectItem(item_, {Path({F("a"), F("b")})})));
  EXPECT_EQ("{M:{a={M:{b={S:ab}, d={M:{y={S:y1}}}}}}}",
            Show(ProjectItem(item_, {Path({F("a"), F("d"), F("y")}), Path({F("a"), F("b")})})));
}

TEST_F(ProjectionTest, ListIndexesSelectElementsInIndexOrder) {
  EXPECT_EQ("{M:{l={L:[{S:l1}, {S:l3}]}}}",
            Show(ProjectItem(item_, {Path({F("l"), I(3)}), Path({F("l"), I(1)})})));
  EXPECT_EQ("{M:{l={L:[{S:l0}, {M:{x={S:x1}}}]}}}",
            Show(ProjectItem(item_, {Path({F("l"), I(4), F("x")}), Path({F("l"), I(0)})})));
}

TEST_F(ProjectionTest, MissingPathsAreSkipped) {
  EXPECT_EQ("{M:{s={S:top}}}", Show(ProjectItem(item_, {Path({F("s")}), Path({F("nope")})})));
  // Nothing selected inside a or l: they are left out entirely.
  EXPECT_EQ("{M:{}}", Show(ProjectItem(item_, {Path({F("a"), F("zz")})})));
  EXPECT_EQ("{M:{}}", Show(ProjectItem(item_, {Path({F("l"), I(9)})})));
  EXPECT_EQ("{M:{l={L:[{S:l2}]}}}", Show(ProjectItem(item_, {Path({F("l"), I(2)}), Path({F("l"), I(7)})})));
  // Steps into the wrong type select nothing.
  EXPECT_EQ("{M:{}}", Show(ProjectItem(item_, {Path({F("a"), I(0)})})));
  EXPECT_EQ("{M:{}}", Show(ProjectItem(item_, {Path({F("l"), F("x")})})));
  EXPECT_EQ("{M:{}}", Show(ProjectItem(item_, {Path({F("s"), F("x")})})));
  EXPECT_EQ("{M:{}}", Show(ProjectItem(item_, {Path({F("a"), F("d"), F("y"), F("z")})})));
}

TEST_F(ProjectionTest, OverlappingPathsSelectTheUnion) {
  EXPECT_EQ("{M:{a={M:{b={S:ab}, c={S:ac}, d={M:{x={S:x1}, y={S:y1}}}}}}}",
            Show(ProjectItem(item_, {Path({F("a"), F("b")}), Path({F("a")})})));
}

TEST_F(ProjectionTest, CompiledProjectionIsReusable) {
  Projection p({Path({F("a"), F("c")}), Path({F("s")})});
  EXPECT_EQ("{M:{a={M:{c={S:ac}}}, s={S:top}}}", Show(p.Apply(item_)));
  AttributeMap other = {{"s", S("again")}, {"a", S("not a map")}};
  EXPECT_EQ("{M:{s={S:again}}}", Show(p.Apply(other)));
}

}  // namespace
}  // namespace dynapage
