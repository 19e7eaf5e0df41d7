// Errors that one shared check finds and different operations word differently (docs/behaviour.md §3.2, §8.7):
// one test per wording rule, each through the operation that applies it.

#include <gtest/gtest.h>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

class ErrorWordingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S", "sk", "S").status);
    HttpResult r = server_.Call(
        "CreateTable",
        R"({"TableName":"gix","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk",)"
        R"("AttributeType":"S"},{"AttributeName":"gk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk",)"
        R"("KeyType":"HASH"}],"GlobalSecondaryIndexes":[{"IndexName":"by_gk","KeySchema":[{"AttributeName":"gk",)"
        R"("KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]})");
    ASSERT_EQ(200, r.status) << r.Describe();
  }
  TestServer server_;
};

TEST_F(ErrorWordingTest, PutItemPutsAnEmptySetInTheEnvelope) {
  HttpResult r = server_.Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"a"},"sk":{"S":"b"},"s":{"SS":[]}}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("1 validation error detected: One or more parameter values were invalid: An string set  may not be empty",
            r.Message());
}

TEST_F(ErrorWordingTest, UpdateItemDoesNotPutAnEmptySetInTheEnvelope) {
  HttpResult r = server_.Call(
      "UpdateItem", R"({"TableName":"tab","Key":{"pk":{"S":"a"},"sk":{"S":"b"}},"UpdateExpression":"SET s = :v",)"
                    R"("ExpressionAttributeValues":{":v":{"SS":[]}}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("One or more parameter values were invalid: An string set  may not be empty", r.Message());
}

TEST_F(ErrorWordingTest, QueryPrefixesAShapeErrorOfTheStartKey) {
  HttpResult r = server_.Call("Query",
                              R"({"TableName":"tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":)"
                              R"({":p":{"S":"a"}},"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{}}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("The provided starting key is invalid: Supplied AttributeValue is empty, must contain exactly one of the "
            "supported datatypes",
            r.Message());
}

TEST_F(ErrorWordingTest, ScanKeepsTheNumberSetWordingOfTheStartKey) {
  HttpResult r = server_.Call("Scan", R"({"TableName":"tab","ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"NS":[]}}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("One or more parameter values were invalid: An number set  may not be empty", r.Message());
}

TEST_F(ErrorWordingTest, UpdateItemWordsAnEmptyIndexKeyItsOwnWay) {
  HttpResult r = server_.Call("UpdateItem",
                              R"({"TableName":"gix","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET gk = :v",)"
                              R"("ExpressionAttributeValues":{":v":{"S":""}}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("One or more parameter values are not valid. The update expression attempted to update a secondary index "
            "key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty "
            "string value.",
            r.Message());
}

TEST_F(ErrorWordingTest, PutItemWordsAnEmptyIndexKeyAsTheCheckDoes) {
  HttpResult r = server_.Call("PutItem", R"({"TableName":"gix","Item":{"pk":{"S":"a"},"gk":{"S":""}}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("One or more parameter values are not valid. A value specified for a secondary index key is not "
            "supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: "
            "by_gk, IndexKey: gk",
            r.Message());
}

}  // namespace
}  // namespace dynapage
