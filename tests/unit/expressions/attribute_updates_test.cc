// AttributeUpdates: validation messages and the conversion into UpdateExpr actions.

#include "engine/expressions/attribute_updates.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

const char kInvalid[] = "One or more parameter values were invalid: ";

Status Convert(std::vector<AttributeUpdate> updates, UpdateExpr* out) { return ConvertAttributeUpdates(updates, out); }

TEST(AttributeUpdatesTest, EachActionBecomesItsClause) {
  UpdateExpr u;
  ASSERT_TRUE(Convert({{"p", "PUT", AttributeValue::String("x")},
                       {"d", "", AttributeValue::Number("1")},
                       {"r", "DELETE", std::nullopt},
                       {"s", "DELETE", AttributeValue::Set(AttrType::kSS, {"a"})},
                       {"n", "ADD", AttributeValue::Number("2")}},
                      &u)
                  .ok());
  ASSERT_EQ(2u, u.set_actions.size());  // PUT, and the default action (PUT)
  EXPECT_EQ("p", u.set_actions[0].path[0].name);
  EXPECT_EQ(AttributeValue::String("x"), u.set_actions[0].left.value);
  EXPECT_EQ("d", u.set_actions[1].path[0].name);
  ASSERT_EQ(1u, u.remove_actions.size());
  EXPECT_EQ("r", u.remove_actions[0][0].name);
  ASSERT_EQ(1u, u.delete_actions.size());
  EXPECT_EQ("s", u.delete_actions[0].path[0].name);
  ASSERT_EQ(1u, u.add_actions.size());
  EXPECT_EQ(AttributeValue::Number("2"), u.add_actions[0].value);
}

TEST(AttributeUpdatesTest, Misuse) {
  UpdateExpr u;
  EXPECT_EQ(std::string(kInvalid) + "Only DELETE action is allowed when no attribute value is specified",
            Convert({{"a", "PUT", std::nullopt}}, &u).message());
  EXPECT_EQ(std::string(kInvalid) + "Only DELETE action is allowed when no attribute value is specified",
            Convert({{"a", "ADD", std::nullopt}}, &u).message());
  EXPECT_EQ(std::string(kInvalid) + "ADD action is not supported for the type S",
            Convert({{"a", "ADD", AttributeValue::String("x")}}, &u).message());
  EXPECT_EQ(std::string(kInvalid) + "ADD action is not supported for the type M",
            Convert({{"a", "ADD", AttributeValue::Map({})}}, &u).message());
  EXPECT_EQ(std::string(kInvalid) + "DELETE action with value is not supported for the type N",
            Convert({{"a", "DELETE", AttributeValue::Number("1")}}, &u).message());
}

}  // namespace
}  // namespace dynapage
