// TagResource, UntagResource and ListTagsOfResource through HTTP.

#include <gtest/gtest.h>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

class TagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    HttpResult r = server_.CreateTable("items", "pk", "S");
    ASSERT_EQ(200, r.status);
    arn_ = r.json["TableDescription"]["TableArn"].GetString();
  }
  HttpResult Tag(const std::string& tags, const std::string& arn = "") {
    return server_.Call("TagResource",
                        R"({"ResourceArn":")" + (arn.empty() ? arn_ : arn) + R"(","Tags":)" + tags + "}");
  }
  HttpResult Untag(const std::string& keys) {
    return server_.Call("UntagResource", R"({"ResourceArn":")" + arn_ + R"(","TagKeys":)" + keys + "}");
  }
  std::string List(const std::string& arn = "") {
    HttpResult r = server_.Call("ListTagsOfResource", R"({"ResourceArn":")" + (arn.empty() ? arn_ : arn) + R"("})");
    return r.status == 200 ? r.body : r.ErrorName() + ": " + r.Message();
  }
  TestServer server_;
  std::string arn_;
};

TEST_F(TagsTest, TagListUntag) {
  EXPECT_EQ(R"({"Tags":[]})", List());
  HttpResult r = Tag(R"([{"Key":"team","Value":"a"},{"Key":"env","Value":"test"}])");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("", r.body);  // DynamoDB's TagResource answers an empty body
  EXPECT_EQ(Canonical(R"({"Tags":[{"Key":"env","Value":"test"},{"Key":"team","Value":"a"}]})"), List());
  ASSERT_EQ(200, Tag(R"([{"Key":"team","Value":"b"}])").status);  // overwrites
  r = Untag(R"(["env","absent"])");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"Tags":[{"Key":"team","Value":"b"}]})"), List());
}

TEST_F(TagsTest, Refusals) {
  const std::string unknown = "arn:aws:dynamodb:us-east-1:000000000000:table/nope";
  EXPECT_EQ("ResourceNotFoundException: Requested resource not found: ResourcArn: " + unknown + " not found",
            List(unknown));
  HttpResult r = Tag(R"([{"Key":"k","Value":"v"}])", unknown);
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("ValidationException: Invalid TableArn: Invalid ResourceArn provided as input "
            "arn:aws:dynamodb:us-east-1:000000000000:index/x",
            List("arn:aws:dynamodb:us-east-1:000000000000:index/x"));
  EXPECT_EQ("Invalid TableArn", server_.Call("ListTagsOfResource", "{}").Message());
  // The ARN is checked before the tags, the tags before the table.
  EXPECT_EQ("Invalid TableArn: Invalid ResourceArn provided as input x", Tag("[]", "x").Message());
  EXPECT_EQ("Atleast one Tag needs to be provided as Input.", Tag("[]", unknown).Message());
  EXPECT_EQ("Atleast one Tag needs to be provided as Input.", Tag("[]").Message());
  EXPECT_EQ("Atleast one Tag Key needs to be provided as Input.", Untag("[]").Message());
  EXPECT_EQ("1 validation error detected: Value null at 'tags.1.member.value' failed to satisfy constraint: Member "
            "must not be null",
            Tag(R"([{"Key":"k"}])").Message());
  EXPECT_EQ(R"({"Tags":[]})", List());
}

TEST_F(TagsTest, TagsBelongToTheTableNotItsName) {
  ASSERT_EQ(200, Tag(R"([{"Key":"k","Value":"v"}])").status);
  ASSERT_EQ(200, server_.Call("DeleteTable", R"({"TableName":"items"})").status);
  EXPECT_EQ("ResourceNotFoundException: Requested resource not found: ResourcArn: " + arn_ + " not found", List());
}

}  // namespace
}  // namespace dynapage
