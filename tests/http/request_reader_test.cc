// RequestReader (server/protocol/request_reader.h): a member is found by its exact name, the first of two of one
// name is the one read (as RapidJSON's FindMember finds it), and a null member counts as absent.

#include "server/protocol/request_reader.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <optional>
#include <string>

namespace dynapage {
namespace {

TEST(RequestReaderTest, FindsAMemberByItsExactName) {
  rapidjson::Document body;
  body.Parse(R"({"Limi":1,"Limit":25,"limit":3,"LimitX":4,"":5})");
  RequestReader reader(body);
  std::optional<int64_t> value;
  ASSERT_TRUE(reader.GetInteger("Limit", &value).ok());
  EXPECT_EQ(25, value.value_or(-1));
  ASSERT_TRUE(reader.GetInteger("", &value).ok());
  EXPECT_EQ(5, value.value_or(-1));
  EXPECT_FALSE(reader.Has("Lim"));
  EXPECT_FALSE(reader.Has("LIMIT"));
  EXPECT_FALSE(reader.Has("LimitXY"));
}

TEST(RequestReaderTest, ReadsTheFirstOfTwoMembersOfOneNameAndTakesNullForAbsent) {
  rapidjson::Document body;
  body.Parse(R"({"TableName":"first","TableName":"second","Select":null})");
  RequestReader reader(body);
  std::optional<std::string> name;
  ASSERT_TRUE(reader.GetString("TableName", &name).ok());
  EXPECT_EQ("first", name.value_or(""));
  EXPECT_FALSE(reader.Has("Select"));
  ASSERT_TRUE(reader.GetString("Select", &name).ok());
  EXPECT_FALSE(name.has_value());
  rapidjson::Document not_an_object;
  not_an_object.Parse("[1]");
  EXPECT_FALSE(RequestReader(not_an_object).Has("TableName"));
}

}  // namespace
}  // namespace dynapage
