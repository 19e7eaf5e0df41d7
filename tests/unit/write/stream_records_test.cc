// Stream records (engine/write/stream_records.h) and sequence numbers (engine/catalog/stream_catalog.h).

#include "engine/write/stream_records.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "engine/write/time_to_live.h"

namespace dynapage {
namespace {

AttributeMap Item(std::initializer_list<std::pair<const std::string, AttributeValue>> members) {
  return AttributeMap(members);
}

TEST(StreamRecordsTest, EventOfComparesWholeItems) {
  AttributeMap a = Item({{"id", AttributeValue::String("a")}, {"s", AttributeValue::Set(AttrType::kSS, {"x", "y"})}});
  AttributeMap same =
      Item({{"id", AttributeValue::String("a")}, {"s", AttributeValue::Set(AttrType::kSS, {"y", "x"})}});
  AttributeMap other = Item({{"id", AttributeValue::String("a")}});
  EXPECT_EQ(StreamEvent::kNone, EventOf(nullptr, nullptr));
  EXPECT_EQ(StreamEvent::kInsert, EventOf(nullptr, &a));
  EXPECT_EQ(StreamEvent::kRemove, EventOf(&a, nullptr));
  EXPECT_EQ(StreamEvent::kNone, EventOf(&a, &same));  // sets compare as sets
  EXPECT_EQ(StreamEvent::kModify, EventOf(&a, &other));
}

TEST(StreamRecordsTest, RecordJsonCarriesTheViewTypesImagesAndSize) {
  StreamInfo stream;
  stream.id = 7;
  stream.arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000";
  stream.view_type = "OLD_IMAGE";
  KeySchema key;
  key.hash = KeyAttribute{"id", AttrType::kS};
  AttributeMap old_item = Item({{"id", AttributeValue::String("Fred")}});
  AttributeMap new_item = Item({{"id", AttributeValue::String("Fred")}, {"name", AttributeValue::String("Fred")}});
  StreamChange change{StreamEvent::kModify, &old_item, &new_item, false};
  rapidjson::Document d;
  std::string json = StreamRecordJson(stream, key, 3, 1700000000999, "eu-west-1", change);
  d.Parse(json.c_str());
  ASSERT_TRUE(d.IsObject()) << json;
  EXPECT_STREQ("MODIFY", d["eventName"].GetString());
  EXPECT_STREQ("eu-west-1", d["awsRegion"].GetString());
  EXPECT_EQ(1700000000, d["dynamodb"]["ApproximateCreationDateTime"].GetInt64());
  EXPECT_STREQ("100000000000000000003", d["dynamodb"]["SequenceNumber"].GetString());
  EXPECT_TRUE(d["dynamodb"].HasMember("OldImage"));
  EXPECT_FALSE(d["dynamodb"].HasMember("NewImage"));
  EXPECT_EQ(6 + 6, d["dynamodb"]["SizeBytes"].GetInt64());
  EXPECT_FALSE(d.HasMember("userIdentity"));
  EXPECT_EQ(json, StreamRecordJson(stream, key, 3, 1700000000999, "eu-west-1", change));  // same id every run
  // 32 lowercase hex digits, the same as every earlier version made for this stream and sequence number.
  EXPECT_STREQ("e68df102e8ac4d23c2904ad35f9ea44c", d["eventID"].GetString());
}

TEST(StreamRecordsTest, SequenceNumbersRoundTrip) {
  EXPECT_EQ("100000000000000000001", FormatSequenceNumber(1));
  EXPECT_EQ("100000000000000000000", FormatSequenceNumber(0));
  EXPECT_EQ("100000000001234567890", FormatSequenceNumber(1234567890));
  EXPECT_EQ("118446744073709551615", FormatSequenceNumber(UINT64_MAX));
  uint64_t seq = 0;
  ASSERT_TRUE(ParseSequenceNumber("100000000000000000042", &seq));
  EXPECT_EQ(42u, seq);
  ASSERT_TRUE(ParseSequenceNumber("42", &seq));
  EXPECT_EQ(42u, seq);
  EXPECT_FALSE(ParseSequenceNumber("", &seq));
  EXPECT_FALSE(ParseSequenceNumber("12a", &seq));
  EXPECT_FALSE(ParseSequenceNumber("99999999999999999999999", &seq));
}

TEST(TimeToLiveRuleTest, OnlyRecentPastEpochSecondsExpire) {
  const int64_t now_ms = 1800000000000;
  auto item = [](AttributeValue v) { return Item({{"ttl", std::move(v)}}); };
  EXPECT_TRUE(HasExpired(item(AttributeValue::Number("1799999999")), "ttl", now_ms));
  EXPECT_TRUE(HasExpired(item(AttributeValue::Number("1799999999.5")), "ttl", now_ms));
  EXPECT_FALSE(HasExpired(item(AttributeValue::Number("1800000000")), "ttl", now_ms));  // not before now
  EXPECT_FALSE(HasExpired(item(AttributeValue::Number("1800000001")), "ttl", now_ms));
  EXPECT_FALSE(HasExpired(item(AttributeValue::Number("1642000000")), "ttl", now_ms));  // five years and more
  EXPECT_TRUE(HasExpired(item(AttributeValue::Number("1642320001")), "ttl", now_ms));
  EXPECT_FALSE(HasExpired(item(AttributeValue::String("1")), "ttl", now_ms));
  EXPECT_FALSE(HasExpired(item(AttributeValue::Number("1")), "other", now_ms));
}

}  // namespace
}  // namespace dynapage
