// The error wording rules: which ErrorDetail a shared check attaches, and which wording each detail selects.

#include "engine/base/messages.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "engine/base/status.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {
namespace {

ErrorDetail DetailOfDecoding(const char* json) {
  rapidjson::Document d;
  d.Parse(json);
  AttributeValue value;
  Status s = DecodeAttributeValue(d, &value);
  EXPECT_FALSE(s.ok()) << json;
  return s.detail();
}

TEST(ErrorDetailTest, AttributeValueShapeErrorsCarryTheirDetail) {
  EXPECT_EQ(ErrorDetail::kEmptyAttributeValue, DetailOfDecoding(R"({})"));
  EXPECT_EQ(ErrorDetail::kMultipleTypes, DetailOfDecoding(R"({"S":"a","N":"1"})"));
  EXPECT_EQ(ErrorDetail::kNullNotTrue, DetailOfDecoding(R"({"NULL":false})"));
  EXPECT_EQ(ErrorDetail::kEmptyStringSet, DetailOfDecoding(R"({"SS":[]})"));
  EXPECT_EQ(ErrorDetail::kEmptyNumberSet, DetailOfDecoding(R"({"NS":[]})"));
  EXPECT_EQ(ErrorDetail::kEmptyBinarySet, DetailOfDecoding(R"({"BS":[]})"));
  EXPECT_EQ(ErrorDetail::kNone, DetailOfDecoding(R"({"N":"x"})"));
}

TEST(ErrorDetailTest, StartKeyPrefixIsChosenByDetailOnly) {
  EXPECT_TRUE(IsStartKeyShapeError(ErrorDetail::kEmptyAttributeValue));
  EXPECT_TRUE(IsStartKeyShapeError(ErrorDetail::kMultipleTypes));
  EXPECT_TRUE(IsStartKeyShapeError(ErrorDetail::kNullNotTrue));
  EXPECT_TRUE(IsStartKeyShapeError(ErrorDetail::kEmptyStringSet));
  EXPECT_TRUE(IsStartKeyShapeError(ErrorDetail::kEmptyBinarySet));
  // DynamoDB keeps an empty number set's plain wording in a start key.
  EXPECT_FALSE(IsStartKeyShapeError(ErrorDetail::kEmptyNumberSet));
  EXPECT_FALSE(IsStartKeyShapeError(ErrorDetail::kNone));
}

TEST(ErrorDetailTest, EnvelopeForEmptySetsOnly) {
  EXPECT_TRUE(IsEmptySetError(ErrorDetail::kEmptyStringSet));
  EXPECT_TRUE(IsEmptySetError(ErrorDetail::kEmptyNumberSet));
  EXPECT_TRUE(IsEmptySetError(ErrorDetail::kEmptyBinarySet));
  EXPECT_FALSE(IsEmptySetError(ErrorDetail::kEmptyAttributeValue));
  EXPECT_FALSE(IsEmptySetError(ErrorDetail::kNone));
}

TEST(ErrorDetailTest, TheSameTextWithoutDetailIsNotReworded) {
  // A message that merely contains the words of a shape error selects nothing.
  Status plain =
      Status::Validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  EXPECT_FALSE(IsStartKeyShapeError(plain.detail()));
}

TEST(ErrorDetailTest, WithMessagePrefixKeepsCodeAndDetail) {
  Status s = Status::Validation("An string set  may not be empty").WithDetail(ErrorDetail::kEmptyStringSet);
  Status prefixed = WithMessagePrefix(kValidationEnvelope, s);
  EXPECT_EQ(ErrorCode::kValidation, prefixed.code());
  EXPECT_EQ(ErrorDetail::kEmptyStringSet, prefixed.detail());
  EXPECT_EQ("1 validation error detected: An string set  may not be empty", prefixed.message());
}

TEST(TransactItemsLimitMessageTest, ListsTheRequestObjects) {
  EXPECT_EQ(
      "Value '[com.amazonaws.dynamodb.v20120810.TransactGetItem@10000001, "
      "com.amazonaws.dynamodb.v20120810.TransactGetItem@10000002]' at 'transactItems' failed to satisfy constraint: "
      "Member must have length less than or equal to 100",
      TransactItemsLimitMessage("TransactGetItem", 2));
}

}  // namespace
}  // namespace dynapage
