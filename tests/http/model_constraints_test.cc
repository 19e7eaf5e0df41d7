// The service model's constraints on members that no operation reads for itself (server/protocol/model_constraints.h,
// docs/behaviour.md §8.5 step 7): each row of the table answers DynamoDB's "N validation error(s) detected" message,
// together with the operation's own constraint errors.

#include <gtest/gtest.h>

#include <string>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kOne[] = "1 validation error detected: ";

std::string Table(const std::string& name, const std::string& extra) {
  return R"({"TableName":")" + name + R"(","BillingMode":"PAY_PER_REQUEST",)"
         R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
         R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}])" + extra + "}";
}

TEST(ModelConstraintsTest, CreateTableChecksTheMembersItIgnores) {
  TestServer server;
  HttpResult r = server.Call("CreateTable", Table("tab1", R"(,"SSESpecification":{"SSEType":"DES"})"));
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(std::string(kOne) + "Value 'DES' at 'sSESpecification.sSEType' failed to satisfy constraint: Member must "
                                "satisfy enum value set: [AES256, KMS]",
            r.Message());
  // Several at once, with the operation's own: one message, in the order found.
  r = server.Call("CreateTable", R"({"TableName":"tab2","BillingMode":"X","TableClass":"COLD",)"
                                 R"("GlobalTableSourceArn":"","AttributeDefinitions":[{"AttributeName":"pk",)"
                                 R"("AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
  EXPECT_EQ("3 validation errors detected: Value 'X' at 'billingMode' failed to satisfy constraint: Member must "
            "satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]; Value 'COLD' at 'tableClass' failed to satisfy "
            "constraint: Member must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]; Value '' at "
            "'globalTableSourceArn' failed to satisfy constraint: Member must have length greater than or equal to 1",
            r.Message());
  // Valid values of the same members are accepted (and ignored).
  r = server.Call("CreateTable", Table("tab3", R"(,"SSESpecification":{"Enabled":true,"SSEType":"KMS"},)"
                                             R"("TableClass":"STANDARD_INFREQUENT_ACCESS")"));
  EXPECT_EQ(200, r.status) << r.Describe();
  // Lengths count characters: an attribute definition's name of 255 two-byte characters is long enough to fail
  // only past 255.
  std::string name;
  for (int i = 0; i < 256; i++) name += "\xC3\xA9";
  r = server.Call("CreateTable", R"({"TableName":"tab4","BillingMode":"PAY_PER_REQUEST",)"
                                 R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
                                 R"({"AttributeName":")" + name + R"(","AttributeType":"S"}],)"
                                 R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
  EXPECT_EQ(std::string(kOne) + "Value '" + name + "' at 'attributeDefinitions.2.member.attributeName' failed to "
                                "satisfy constraint: Member must have length less than or equal to 255",
            r.Message());
  r = server.Call("CreateTable", R"({"TableName":"tab5","BillingMode":"PAY_PER_REQUEST",)"
                                 R"("AttributeDefinitions":[{"AttributeName":"","AttributeType":"S"}],)"
                                 R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
  EXPECT_EQ(std::string(kOne) + "Value '' at 'attributeDefinitions.1.member.attributeName' failed to satisfy "
                                "constraint: Member must have length greater than or equal to 1",
            r.Message());
}

TEST(ModelConstraintsTest, IndexProjectionsHoldAtMostTwentyNonKeyAttributes) {
  TestServer server;
  std::string names, echo;
  for (int i = 0; i < 21; i++) {
    names += std::string(i ? "," : "") + "\"n" + std::to_string(i) + "\"";
    echo += std::string(i ? ", " : "") + "n" + std::to_string(i);
  }
  const std::string index = R"({"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],)"
                            R"("Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":[)" + names + "]}}";
  auto refusal = [&](const std::string& path) {
    return std::string(kOne) + "Value '[" + echo + "]' at '" + path + ".projection.nonKeyAttributes' failed to " +
           "satisfy constraint: Member must have length less than or equal to 20";
  };
  HttpResult r = server.Call("CreateTable", R"({"TableName":"tab","BillingMode":"PAY_PER_REQUEST",)"
      R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
      R"({"AttributeName":"g","AttributeType":"S"}],)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"GlobalSecondaryIndexes":[)" + index + "]}");
  EXPECT_EQ(refusal("globalSecondaryIndexes.1.member"), r.Message());

  ASSERT_EQ(200, server.Call("CreateTable", Table("upd", "")).status);
  r = server.Call("UpdateTable", R"({"TableName":"upd",)"
                                 R"("AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],)"
                                 R"("GlobalSecondaryIndexUpdates":[{"Create":)" + index + "}]}");
  EXPECT_EQ(refusal("globalSecondaryIndexUpdates.1.member.create"), r.Message());
}

TEST(ModelConstraintsTest, UpdateTableChecksTheMembersItIgnores) {
  TestServer server;
  ASSERT_EQ(200, server.Call("CreateTable", Table("upd", "")).status);
  HttpResult r = server.Call("UpdateTable", R"({"TableName":"upd","BillingMode":"PAY_PER_REQUEST",)"
                                            R"("MultiRegionConsistency":"SOMETIMES","TableClass":"HOT"})");
  EXPECT_EQ("2 validation errors detected: Value 'HOT' at 'tableClass' failed to satisfy constraint: Member must "
            "satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]; Value 'SOMETIMES' at "
            "'multiRegionConsistency' failed to satisfy constraint: Member must satisfy enum value set: [EVENTUAL, "
            "STRONG]",
            r.Message());
  r = server.Call("UpdateTable", R"({"TableName":"upd","SSESpecification":{"SSEType":"ROT13"}})");
  EXPECT_EQ(std::string(kOne) + "Value 'ROT13' at 'sSESpecification.sSEType' failed to satisfy constraint: Member "
                                "must satisfy enum value set: [AES256, KMS]",
            r.Message());
}

TEST(ModelConstraintsTest, ResourceArnsAreOneTo1283Characters) {
  TestServer server;
  const std::string too_long = "arn:aws:dynamodb:us-east-1:000000000000:table/" + std::string(1283, 'x');
  const std::string rule = "Member must have length less than or equal to 1283";
  for (const char* op : {"ListTagsOfResource", "TagResource", "UntagResource"}) {
    std::string extra = std::string(op) == "TagResource"     ? R"(,"Tags":[{"Key":"k","Value":"v"}])"
                        : std::string(op) == "UntagResource" ? R"(,"TagKeys":["k"])"
                                                             : "";
    HttpResult r = server.Call(op, R"({"ResourceArn":")" + too_long + "\"" + extra + "}");
    EXPECT_EQ(std::string(kOne) + "Value '" + too_long + "' at 'resourceArn' failed to satisfy constraint: " + rule,
              r.Message())
        << op;
    r = server.Call(op, R"({"ResourceArn":"")" + extra + "}");
    EXPECT_EQ(std::string(kOne) + "Value '' at 'resourceArn' failed to satisfy constraint: Member must have length "
                                  "greater than or equal to 1",
              r.Message())
        << op;
  }
}

TEST(ModelConstraintsTest, ScanSegmentIsBelowAMillion) {
  TestServer server;
  ASSERT_EQ(200, server.Call("CreateTable", Table("scn", "")).status);
  HttpResult r = server.Call("Scan", R"({"TableName":"scn","Segment":1000000,"TotalSegments":1000000})");
  EXPECT_EQ(std::string(kOne) + "Value '1000000' at 'segment' failed to satisfy constraint: Member must have value "
                                "less than or equal to 999999",
            r.Message());
  EXPECT_EQ(200, server.Call("Scan", R"({"TableName":"scn","Segment":999999,"TotalSegments":1000000})").status);
}

}  // namespace
}  // namespace dynapage
