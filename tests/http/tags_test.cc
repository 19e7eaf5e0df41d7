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
  HttpResult r = Tag(R"([{"Key":"k","Value":"v"}])", unknown);
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("ValidationException: Invalid TableArn: Invalid ResourceArn provided as input "
            "arn:aws:dynamodb:us-east-1:000000000000:index/x",
            List("arn:aws:dynamodb:us-east-1:000000000000:index/x"));
  EXPECT_EQ("Invalid TableArn", server_.Call("ListTagsOfResource", "{}").Message());
  // The ARN is checked before the tags, the tags before the table.
  EXPECT_EQ("Invalid TableArn: Invalid ResourceArn provided as input a:b:c:d:e:f/g", Tag("[]", "a:b:c:d:e:f/g").Message());
  EXPECT_EQ("Atleast one Tag needs to be provided as Input.", Tag("[]", unknown).Message());
  EXPECT_EQ("Atleast one Tag needs to be provided as Input.", Tag("[]").Message());
  EXPECT_EQ("Atleast one Tag Key needs to be provided as Input.", Untag("[]").Message());
  EXPECT_EQ("1 validation error detected: Value null at 'tags.1.member.value' failed to satisfy constraint: Member "
            "must not be null",
            Tag(R"([{"Key":"k"}])").Message());
  EXPECT_EQ(R"({"Tags":[]})", List());
}

// A ResourceArn without the shape of an ARN (six ':'-separated parts, a '/' in the last) finds nothing IAM could
// authorize: AccessDeniedException, before any other member is checked, naming the caller's account and the operation.
TEST_F(TagsTest, AnythingButAnArnIsAccessDenied) {
  const std::string denied = "User: arn:aws:iam::000000000000:root is not authorized to perform: dynamodb:";
  for (const std::string arn : {"items", "x", "arn:aws:dynamodb:us-east-1:000000000000:table", "a:b:c:d:e/f",
                                "a:b:c:d:e:f/", ":b:c:d:e:f/g", "a:b:c::e:f/g"}) {
    HttpResult r = Tag("[]", arn);
    EXPECT_EQ(400, r.status) << arn;
    EXPECT_EQ("AccessDeniedException", r.ErrorName()) << arn;
    EXPECT_EQ(denied + "TagResource on resource: " + arn, r.Message()) << arn;
    EXPECT_EQ("AccessDeniedException: " + denied + "ListTagsOfResource on resource: " + arn, List(arn)) << arn;
    r = server_.Call("UntagResource", R"({"ResourceArn":")" + arn + R"("})");
    EXPECT_EQ(denied + "UntagResource on resource: " + arn, r.Message()) << arn;
  }
  HttpResult r = Tag("[]", "x");
  EXPECT_EQ(std::string(R"({"__type":"com.amazon.coral.service#AccessDeniedException","Message":")") + denied +
                R"(TagResource on resource: x"})",
            r.body);
  // An empty one is the length constraint's (ModelConstraintsTest).
  EXPECT_EQ("ValidationException", server_.Call("TagResource", R"({"ResourceArn":"","Tags":[]})").ErrorName());
  // ARN-shaped, however odd: the other checks answer.
  for (const std::string arn : {"a:b:c:d:e:f/g", "a:b:c:d:e:f:g/h/i", "a/b:c:d:e:f:g/h"}) {
    EXPECT_EQ("Invalid TableArn: Invalid ResourceArn provided as input " + arn, Tag("[]", arn).Message()) << arn;
  }
  // A 12-digit access key is its own account.
  HttpRequest request;
  request.headers = DynamoHeaders("ListTagsOfResource");
  request.headers.erase("Authorization");
  request.headers.emplace("Authorization",
                          "AWS4-HMAC-SHA256 Credential=123456789012/20260101/us-east-1/dynamodb/aws4_request, "
                          "SignedHeaders=host, Signature=0");
  request.body = R"({"ResourceArn":"x"})";
  HttpResult own = server_.Send(request);
  EXPECT_EQ("User: arn:aws:iam::123456789012:root is not authorized to perform: dynamodb:ListTagsOfResource on "
            "resource: x",
            own.Message());
}

TEST_F(TagsTest, TagsBelongToTheTableNotItsName) {
  ASSERT_EQ(200, Tag(R"([{"Key":"k","Value":"v"}])").status);
  ASSERT_EQ(200, server_.Call("DeleteTable", R"({"TableName":"items"})").status);
  EXPECT_EQ(
      "AccessDeniedException: User: arn:aws:iam::000000000000:root is not authorized to perform: "
      "dynamodb:ListTagsOfResource on resource: " +
          arn_,
      List());
}

// ListTagsOfResource of a well-formed table ARN that names no table: IAM finds nothing to authorize against.
TEST_F(TagsTest, ListingTheTagsOfAMissingTableIsAccessDenied) {
  const std::string unknown = "arn:aws:dynamodb:us-east-1:000000000000:table/nope";
  EXPECT_EQ(
      "AccessDeniedException: User: arn:aws:iam::000000000000:root is not authorized to perform: "
      "dynamodb:ListTagsOfResource on resource: " +
          unknown,
      List(unknown));
}

// An ARN of another service is not a table ARN: ValidationException, not AccessDeniedException.
TEST_F(TagsTest, AnotherServicesArnIsNotATableArn) {
  for (const std::string arn : {"arn:aws:s3:::bucket", "arn:aws:sns:us-east-1:000000000000:topic"}) {
    HttpResult r = Tag(R"([{"Key":"k","Value":"v"}])", arn);
    EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
    EXPECT_EQ("Invalid TableArn: Invalid ResourceArn provided as input " + arn, r.Message());
  }
}

}  // namespace
}  // namespace dynapage
