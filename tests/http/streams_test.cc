// DynamoDB Streams through HTTP (docs/streams-and-ttl.md): enabling and disabling, the records every write path
// makes, the Streams API and its errors, identifiers, and streams surviving a restart.

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "tests/http/streams_test_util.h"

namespace dynapage {
namespace {

using Strings = std::vector<std::string>;
const char kInvalid[] = "One or more parameter values were invalid: ";

std::string CreateBody(const std::string& table, const std::string& stream_spec, const std::string& hash = "id",
                       const std::string& range = "") {
  std::string defs = R"({"AttributeName":")" + hash + R"(","AttributeType":"S"})";
  std::string key = R"({"AttributeName":")" + hash + R"(","KeyType":"HASH"})";
  if (!range.empty()) {
    defs += R"(,{"AttributeName":")" + range + R"(","AttributeType":"S"})";
    key += R"(,{"AttributeName":")" + range + R"(","KeyType":"RANGE"})";
  }
  std::string body = R"({"TableName":")" + table + R"(","AttributeDefinitions":[)" + defs + R"(],"KeySchema":[)" +
                     key + R"(],"BillingMode":"PAY_PER_REQUEST")";
  if (!stream_spec.empty()) body += R"(,"StreamSpecification":)" + stream_spec;
  return body + "}";
}

std::string Spec(const std::string& view_type) {
  return R"({"StreamEnabled":true,"StreamViewType":")" + view_type + R"("})";
}

class StreamsTest : public ::testing::Test {
 protected:
  // A table "tab" (hash key id, S) with a stream of this view type; its stream ARN.
  std::string CreateWithStream(const std::string& view_type = "NEW_AND_OLD_IMAGES", const std::string& table = "tab") {
    HttpResult r = server_.Call("CreateTable", CreateBody(table, Spec(view_type)));
    EXPECT_EQ(200, r.status) << r.Describe();
    return LatestStreamArn(server_, table);
  }
  void Ok(const std::string& operation, const std::string& body) {
    HttpResult r = server_.Call(operation, body);
    ASSERT_EQ(200, r.status) << operation << ": " << r.Describe();
  }
  HttpResult UpdateStream(const std::string& spec, const std::string& table = "tab") {
    return server_.Call("UpdateTable", R"({"TableName":")" + table + R"(","StreamSpecification":)" + spec + "}");
  }

  TestServer server_;
};

TEST_F(StreamsTest, CreateTableStreamSpecification) {
  HttpResult r = server_.Call("CreateTable", CreateBody("t_on", Spec("KEYS_ONLY")));
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& created = r.json["TableDescription"];
  EXPECT_EQ(Canonical(R"({"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"})"),
            JsonText(created["StreamSpecification"]));
  std::string label = created["LatestStreamLabel"].GetString();
  EXPECT_TRUE(std::regex_match(label, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})"))) << label;
  EXPECT_EQ("arn:aws:dynamodb:us-east-1:000000000000:table/t_on/stream/" + label,
            created["LatestStreamArn"].GetString());
  EXPECT_EQ(created["LatestStreamArn"].GetString(), LatestStreamArn(server_, "t_on"));

  r = server_.Call("CreateTable", CreateBody("t_off", R"({"StreamEnabled":false})"));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_FALSE(r.json["TableDescription"].HasMember("StreamSpecification"));
  EXPECT_FALSE(r.json["TableDescription"].HasMember("LatestStreamArn"));

  struct Case {
    std::string spec, message;
  } refused[] = {
      {R"({"StreamEnabled":false,"StreamViewType":"NEW_IMAGE"})",
       std::string(kInvalid) + "Table is being created with a stream disabled, UpdateViewType should not be specified"},
      {R"({"StreamEnabled":true})",
       std::string(kInvalid) + "Table is being created with a stream enabled, UpdateViewType is required"},
      {R"({"StreamViewType":"NEW_IMAGE"})",
       "1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: "
       "Member must not be null"},
      {"{}",
       "1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: "
       "Member must not be null"},
      {R"({"StreamEnabled":true,"StreamViewType":"new_image"})",
       "1 validation error detected: Value 'new_image' at 'streamSpecification.streamViewType' failed to satisfy "
       "constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, NEW_IMAGE]"},
  };
  for (const Case& c : refused) {
    r = server_.Call("CreateTable", CreateBody("t_bad", c.spec));
    EXPECT_EQ("ValidationException", r.ErrorName()) << c.spec;
    EXPECT_EQ(c.message, r.Message()) << c.spec;
    EXPECT_EQ("ResourceNotFoundException", server_.Call("DescribeTable", R"({"TableName":"t_bad"})").ErrorName());
  }
}

TEST_F(StreamsTest, UpdateTableEnableDisableCycle) {
  ASSERT_EQ(200, server_.Call("CreateTable", CreateBody("tab", "")).status);
  HttpResult r = UpdateStream(R"({"StreamEnabled":false})");
  EXPECT_EQ("Table has no stream to disable: TableName: tab", r.Message());
  r = UpdateStream(R"({"StreamEnabled":true})");
  EXPECT_EQ(std::string(kInvalid) + "If stream is being enabled then UpdateViewType is required", r.Message());
  r = UpdateStream(R"({"StreamEnabled":false,"StreamViewType":"KEYS_ONLY"})");
  EXPECT_EQ(std::string(kInvalid) + "If stream is being disabled, then UpdateViewType must not be specified",
            r.Message());
  r = server_.Call("UpdateTable", R"({"TableName":"tab","BillingMode":"PROVISIONED","ProvisionedThroughput":)"
                                  R"({"ReadCapacityUnits":1,"WriteCapacityUnits":1},"StreamSpecification":)" +
                                      Spec("KEYS_ONLY") + "}");
  EXPECT_EQ("You cannot modify stream status while updating table IOPS", r.Message());

  r = UpdateStream(Spec("NEW_IMAGE"));
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"})"),
            JsonText(r.json["TableDescription"]["StreamSpecification"]));
  const std::string first = r.json["TableDescription"]["LatestStreamArn"].GetString();
  for (const char* view : {"NEW_IMAGE", "KEYS_ONLY"}) {
    r = UpdateStream(Spec(view));
    EXPECT_EQ("ValidationException", r.ErrorName());
    EXPECT_EQ("Table already has an enabled stream: TableName: tab", r.Message());
  }
  r = UpdateStream(R"({"StreamEnabled":false})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_FALSE(r.json["TableDescription"].HasMember("StreamSpecification"));
  EXPECT_EQ(first, r.json["TableDescription"]["LatestStreamArn"].GetString());
  EXPECT_EQ("Table has no stream to disable: TableName: tab", UpdateStream(R"({"StreamEnabled":false})").Message());

  server_.clock().Advance(5);  // labels have millisecond precision
  ASSERT_EQ(200, UpdateStream(Spec("OLD_IMAGE")).status);
  const std::string second = LatestStreamArn(server_, "tab");
  EXPECT_NE(first, second);
  r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + first + R"("})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("DISABLED", std::string(r.json["StreamDescription"]["StreamStatus"].GetString()));
  EXPECT_EQ("NEW_IMAGE", std::string(r.json["StreamDescription"]["StreamViewType"].GetString()));
  r = CallStreams(server_, "ListStreams", R"({"TableName":"tab"})");
  ASSERT_EQ(2u, r.json["Streams"].Size()) << r.Describe();
  EXPECT_EQ(second, r.json["Streams"][0]["StreamArn"].GetString());  // newest first
  EXPECT_EQ(first, r.json["Streams"][1]["StreamArn"].GetString());
}

TEST_F(StreamsTest, DeletedTableKeepsItsStreamDisabledAndReadable) {
  std::string first = CreateWithStream("KEYS_ONLY");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"a"}}})");
  Ok("DeleteTable", R"({"TableName":"tab"})");
  HttpResult r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + first + R"("})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("DISABLED", std::string(r.json["StreamDescription"]["StreamStatus"].GetString()));
  EXPECT_EQ("tab", std::string(r.json["StreamDescription"]["TableName"].GetString()));
  EXPECT_EQ(Strings({"INSERT a"}), Events(ReadAll(server_, first)));

  server_.clock().Advance(5);
  std::string second = CreateWithStream("KEYS_ONLY");
  EXPECT_NE(first, second);
  r = CallStreams(server_, "ListStreams", R"({"TableName":"tab"})");
  EXPECT_EQ(2u, r.json["Streams"].Size()) << r.Describe();
  EXPECT_TRUE(ReadAll(server_, second).empty());

  // Gone 24 hours after it was disabled.
  server_.clock().Advance(kStreamRetentionMillis + 1000);
  r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + first + R"("})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found: Stream: " + first + " not found", r.Message());
  EXPECT_EQ(1u, CallStreams(server_, "ListStreams", "{}").json["Streams"].Size());
  EXPECT_EQ(0, Sweep(server_));  // and its records go too
  EXPECT_EQ(1u, CallStreams(server_, "ListStreams", "{}").json["Streams"].Size());
}

// The write sequence of the conformance checklist: only the writes that change something make records.
TEST_F(StreamsTest, SingleAndBatchWritesMakeRecordsOnlyForChanges) {
  std::string arn = CreateWithStream();
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"A"}}})");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"A"}}})");
  Ok("BatchWriteItem", R"({"RequestItems":{"tab":[{"PutRequest":{"Item":{"id":{"S":"A"}}}},)"
                       R"({"PutRequest":{"Item":{"id":{"S":"B"}}}}]}})");
  Ok("BatchWriteItem", R"({"RequestItems":{"tab":[{"DeleteRequest":{"Key":{"id":{"S":"B"}}}},)"
                       R"({"PutRequest":{"Item":{"id":{"S":"A"},"name":{"S":"Fred"}}}}]}})");
  Ok("UpdateItem", R"({"TableName":"tab","Key":{"id":{"S":"A"}},"UpdateExpression":"SET #n = :v",)"
                   R"("ExpressionAttributeNames":{"#n":"name"},"ExpressionAttributeValues":{":v":{"S":"Fred"}}})");
  Ok("DeleteItem", R"({"TableName":"tab","Key":{"id":{"S":"C"}}})");
  HttpResult r = server_.Call("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"A"}},)"
                                         R"x("ConditionExpression":"attribute_not_exists(id)"})x");
  EXPECT_EQ("ConditionalCheckFailedException", r.ErrorName());

  std::vector<StreamRecordText> records = ReadAll(server_, arn);
  ASSERT_EQ(Strings({"INSERT A", "INSERT B", "REMOVE B", "MODIFY A"}), Events(records));
  EXPECT_EQ(Canonical(R"({"id":{"S":"A"}})"), records[0].new_image);
  EXPECT_EQ("", records[0].old_image);
  EXPECT_EQ(3 + 3, records[0].size_bytes);  // Keys and NewImage: "id" and "A"
  EXPECT_EQ(Canonical(R"({"id":{"S":"B"}})"), records[2].old_image);
  EXPECT_EQ("", records[2].new_image);
  EXPECT_EQ(Canonical(R"({"id":{"S":"A"},"name":{"S":"Fred"}})"), records[3].new_image);
  EXPECT_EQ(Canonical(R"({"id":{"S":"A"}})"), records[3].old_image);
  EXPECT_EQ(3 + 11 + 3, records[3].size_bytes);
  // Sequence numbers: 21 digits, rising by one; records shaped as GetRecords returns them.
  for (size_t i = 0; i < records.size(); i++) {
    EXPECT_EQ(21u, records[i].sequence_number.size());
    if (i) {
      EXPECT_EQ(1, std::stoll(records[i].sequence_number.substr(10)) -
                       std::stoll(records[i - 1].sequence_number.substr(10)));
    }
  }
  rapidjson::Document record;
  record.Parse(records[0].json.c_str());
  EXPECT_EQ("1.1", std::string(record["eventVersion"].GetString()));
  EXPECT_EQ("aws:dynamodb", std::string(record["eventSource"].GetString()));
  EXPECT_EQ("us-east-1", std::string(record["awsRegion"].GetString()));
  EXPECT_EQ("NEW_AND_OLD_IMAGES", std::string(record["dynamodb"]["StreamViewType"].GetString()));
  EXPECT_TRUE(std::regex_match(std::string(record["eventID"].GetString()), std::regex("[0-9a-f]{32}")));
  EXPECT_NEAR(static_cast<double>(server_.clock().NowMillis() / 1000),
              record["dynamodb"]["ApproximateCreationDateTime"].GetDouble(), 5);
  EXPECT_FALSE(record.HasMember("userIdentity"));
}

TEST_F(StreamsTest, UpdateItemEvents) {
  std::string arn = CreateWithStream();
  // Creates the item; sets the same value again; removes an absent attribute; changes it.
  for (std::string update : {"SET v = :one", "SET v = :one", "REMOVE w", "ADD v :one"}) {
    std::string values =
        update.find(":one") == std::string::npos ? "" : R"(,"ExpressionAttributeValues":{":one":{"N":"1"}})";
    Ok("UpdateItem",
       R"({"TableName":"tab","Key":{"id":{"S":"u"}},"UpdateExpression":")" + update + "\"" + values + "}");
  }
  std::vector<StreamRecordText> records = ReadAll(server_, arn);
  ASSERT_EQ(Strings({"INSERT u", "MODIFY u"}), Events(records));
  EXPECT_EQ(Canonical(R"({"id":{"S":"u"},"v":{"N":"2"}})"), records[1].new_image);
}

TEST_F(StreamsTest, TransactionsWriteRecordsInOrderAndCancelledOnesNone) {
  std::string arn = CreateWithStream();
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"keep"},"v":{"N":"1"}}})");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"gone"}}})");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"other"}}})");
  Ok("TransactWriteItems", R"x({"TransactItems":[
      {"Put":{"TableName":"tab","Item":{"id":{"S":"new"}}}},
      {"Update":{"TableName":"tab","Key":{"id":{"S":"keep"}},"UpdateExpression":"SET v = :v",
                 "ExpressionAttributeValues":{":v":{"N":"1"}}}},
      {"ConditionCheck":{"TableName":"tab","Key":{"id":{"S":"other"}},
                         "ConditionExpression":"attribute_exists(id)"}},
      {"Delete":{"TableName":"tab","Key":{"id":{"S":"gone"}}}},
      {"Update":{"TableName":"tab","Key":{"id":{"S":"fresh"}},"UpdateExpression":"SET v = :v",
                 "ExpressionAttributeValues":{":v":{"N":"1"}}}}]})x");
  HttpResult r = server_.Call("TransactWriteItems", R"x({"TransactItems":[
      {"Put":{"TableName":"tab","Item":{"id":{"S":"never"}}}},
      {"ConditionCheck":{"TableName":"tab","Key":{"id":{"S":"keep"}},
                         "ConditionExpression":"attribute_not_exists(id)"}}
      ]})x");
  EXPECT_EQ("TransactionCanceledException", r.ErrorName());
  std::vector<StreamRecordText> records = ReadAll(server_, arn);
  EXPECT_EQ(Strings({"INSERT keep", "INSERT gone", "INSERT other", "INSERT new", "REMOVE gone", "INSERT fresh"}),
            Events(records));
}

// The images each view type carries (4.2), and SizeBytes as AWS computes it (4.6's vectors).
TEST_F(StreamsTest, ImagesByViewType) {
  struct Case {
    const char* view;
    Strings images;  // per event INSERT, MODIFY, REMOVE: "N" new image, "O" old image
    std::vector<int64_t> sizes;
  } cases[] = {
      {"KEYS_ONLY", {"", "", ""}, {6, 6, 6}},
      {"NEW_IMAGE", {"N", "N", ""}, {12, 20, 6}},
      {"OLD_IMAGE", {"", "O", "O"}, {6, 12, 20}},
      {"NEW_AND_OLD_IMAGES", {"N", "NO", "O"}, {12, 26, 20}},
  };
  int n = 0;
  for (const Case& c : cases) {
    std::string table = "tab" + std::to_string(n++);
    std::string arn = CreateWithStream(c.view, table);
    Ok("PutItem", R"({"TableName":")" + table + R"(","Item":{"id":{"S":"Fred"}}})");
    Ok("PutItem", R"({"TableName":")" + table + R"(","Item":{"id":{"S":"Fred"},"name":{"S":"Fred"}}})");
    Ok("DeleteItem", R"({"TableName":")" + table + R"(","Key":{"id":{"S":"Fred"}}})");
    std::vector<StreamRecordText> records = ReadAll(server_, arn);
    ASSERT_EQ(Strings({"INSERT Fred", "MODIFY Fred", "REMOVE Fred"}), Events(records)) << c.view;
    for (size_t i = 0; i < 3; i++) {
      std::string images = std::string(records[i].new_image.empty() ? "" : "N") +
                           (records[i].old_image.empty() ? "" : "O");
      EXPECT_EQ(c.images[i], images) << c.view << " " << records[i].event_name;
      EXPECT_EQ(c.sizes[i], records[i].size_bytes) << c.view << " " << records[i].event_name;
      EXPECT_EQ(Canonical(R"({"id":{"S":"Fred"}})"), records[i].keys);
    }
  }
}

TEST_F(StreamsTest, SizeBytesTestVectors) {
  struct Case {
    const char* view;
    const char* hash;
    const char* range;
    std::vector<std::string> items;  // put in turn; "-" + key deletes
    int64_t size;                    // of the last record
  } cases[] = {
      {"KEYS_ONLY", "Username", "", {R"({"Username":{"S":"Fred"}})"}, 12},
      {"KEYS_ONLY", "Username", "", {R"({"Username":{"S":"Alice"}})"}, 13},
      {"KEYS_ONLY", "ForumName", "Subject",
       {R"({"ForumName":{"S":"DynamoDB"},"Subject":{"S":"DynamoDB Thread 3"}})"}, 41},
      {"NEW_AND_OLD_IMAGES", "id", "", {R"({"id":{"S":"NewKey"}})"}, 16},
      {"NEW_AND_OLD_IMAGES", "id", "",
       {R"({"id":{"S":"NewKey"}})", R"({"id":{"S":"NewKey"},"attr1":{"S":"value1"},"attr2":{"S":"value2"}})"}, 46},
      {"NEW_AND_OLD_IMAGES", "id", "", {R"({"id":{"S":"NonExistentKey"},"attr1":{"S":"value1"}})"}, 43},
      {"NEW_AND_OLD_IMAGES", "id", "",
       {R"({"id":{"S":"NewKey"},"attr1":{"S":"value1"},"attr2":{"S":"value2"}})", R"(-{"id":{"S":"NewKey"}})"}, 38},
      {"NEW_AND_OLD_IMAGES", "id", "",
       {R"({"id":{"S":"my-item-id"},"attr1":{"S":"value1"},"attr2":{"S":"value2"}})",
        R"({"id":{"S":"my-item-id"},"attr1":{"S":"value2"},"attr2":{"S":"value3"}})"}, 80},
      {"NEW_AND_OLD_IMAGES", "id", "", {R"({"id":{"S":"id_value_1"},"numericFilter":{"N":"42"}})"}, 39},
      {"NEW_IMAGE", "my_partition_key", "", {R"({"my_partition_key":{"S":"hello world"}})"}, 54},
      {"NEW_IMAGE", "my_partition_key", "",
       {R"({"my_partition_key":{"S":"testId0"},"should_fail":{"BOOL":false}})"}, 58},
      {"NEW_IMAGE", "my_partition_key", "",
       {R"({"my_partition_key":{"S":"hello world"},"binary_key":{"B":"Zm9vYmFy"}})"}, 70},
  };
  int n = 0;
  for (const Case& c : cases) {
    std::string table = "vec" + std::to_string(n++);
    HttpResult r = server_.Call("CreateTable", CreateBody(table, Spec(c.view), c.hash, c.range));
    ASSERT_EQ(200, r.status) << r.Describe();
    for (const std::string& item : c.items) {
      if (item[0] == '-') {
        Ok("DeleteItem", R"({"TableName":")" + table + R"(","Key":)" + item.substr(1) + "}");
      } else {
        Ok("PutItem", R"({"TableName":")" + table + R"(","Item":)" + item + "}");
      }
    }
    std::vector<StreamRecordText> records = ReadAll(server_, LatestStreamArn(server_, table));
    ASSERT_EQ(c.items.size(), records.size());
    EXPECT_EQ(c.size, records.back().size_bytes) << c.items.back();
  }
}

TEST_F(StreamsTest, IndexBackfillAndTablesWithoutStreamsWriteNoRecords) {
  std::string arn = CreateWithStream();
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"a"},"g":{"S":"x"}}})");
  Ok("UpdateTable", R"({"TableName":"tab","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],
      "GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"ALL"}}}]})");
  ASSERT_EQ(200, server_.Call("CreateTable", CreateBody("plain", "")).status);
  Ok("PutItem", R"({"TableName":"plain","Item":{"id":{"S":"p"}}})");
  EXPECT_EQ(Strings({"INSERT a"}), Events(ReadAll(server_, arn)));
  EXPECT_EQ(1u, CallStreams(server_, "ListStreams", "{}").json["Streams"].Size());
}

TEST_F(StreamsTest, IteratorPositions) {
  std::string arn = CreateWithStream("KEYS_ONLY");
  HttpResult r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + arn + R"("})");
  const std::string start =
      r.json["StreamDescription"]["Shards"][0]["SequenceNumberRange"]["StartingSequenceNumber"].GetString();
  EXPECT_FALSE(r.json["StreamDescription"]["Shards"][0]["SequenceNumberRange"].HasMember("EndingSequenceNumber"));
  // On the empty shard: AT its starting number reads what is written later; LATEST too; an empty read keeps going.
  std::string at_start = Iterator(server_, arn, "AT_SEQUENCE_NUMBER", start);
  std::string latest = Iterator(server_, arn, "LATEST");
  std::string next;
  EXPECT_TRUE(ReadOnce(server_, latest, &next).empty());
  ASSERT_FALSE(next.empty());
  EXPECT_EQ(0u, next.find(arn + "|1|"));
  for (std::string key : {"a", "b", "c"}) Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":")" + key + R"("}}})");
  EXPECT_EQ(Strings({"INSERT a", "INSERT b", "INSERT c"}), Events(ReadOnce(server_, at_start, &next)));
  EXPECT_EQ(Strings({"INSERT a", "INSERT b", "INSERT c"}), Events(ReadOnce(server_, latest, &next)));
  std::vector<StreamRecordText> all = ReadAll(server_, arn);
  ASSERT_EQ(3u, all.size());
  EXPECT_EQ(start, all[0].sequence_number);
  // LATEST now: only later writes.
  latest = Iterator(server_, arn, "LATEST");
  EXPECT_TRUE(ReadOnce(server_, latest, &next).empty());
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"d"}}})");
  EXPECT_EQ(Strings({"INSERT d"}), Events(ReadOnce(server_, next, &next)));
  // AT and AFTER the first and the last record.
  EXPECT_EQ(Strings({"INSERT a", "INSERT b", "INSERT c", "INSERT d"}),
            Events(ReadOnce(server_, Iterator(server_, arn, "AT_SEQUENCE_NUMBER", all[0].sequence_number), &next)));
  EXPECT_EQ(Strings({"INSERT b", "INSERT c", "INSERT d"}),
            Events(ReadOnce(server_, Iterator(server_, arn, "AFTER_SEQUENCE_NUMBER", all[0].sequence_number), &next)));
  EXPECT_EQ(Strings({"INSERT c", "INSERT d"}),
            Events(ReadOnce(server_, Iterator(server_, arn, "AT_SEQUENCE_NUMBER", all[2].sequence_number), &next)));
  std::string last = ReadAll(server_, arn).back().sequence_number;
  EXPECT_TRUE(ReadOnce(server_, Iterator(server_, arn, "AFTER_SEQUENCE_NUMBER", last), &next).empty());
  EXPECT_FALSE(next.empty());
  // Limit pages through the shard, each record once.
  std::string it = Iterator(server_, arn, "TRIM_HORIZON");
  Strings paged;
  for (int i = 0; i < 3; i++) {
    Strings page = Events(ReadOnce(server_, it, &it, 2));
    paged.insert(paged.end(), page.begin(), page.end());
  }
  EXPECT_EQ(Strings({"INSERT a", "INSERT b", "INSERT c", "INSERT d"}), paged);
}

TEST_F(StreamsTest, ApiErrors) {
  std::string arn = CreateWithStream("KEYS_ONLY");
  std::string shard = ShardIdOf(server_, arn);
  std::string unknown = "arn:aws:dynamodb:us-east-1:000000000000:table/tab/stream/2000-01-01T00:00:00.000";
  HttpResult r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + unknown + R"("})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found: Stream: " + unknown + " not found", r.Message());
  r = CallStreams(server_, "GetShardIterator", R"({"StreamArn":")" + arn +
                                                   R"(","ShardId":"shardId-00000000000000000001-00000000",)"
                                                   R"("ShardIteratorType":"LATEST"})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found: Shard does not exist", r.Message());
  r = CallStreams(server_, "GetShardIterator", R"({"StreamArn":")" + arn + R"(","ShardId":")" + shard +
                                                   R"(","ShardIteratorType":"AT_SEQUENCE_NUMBER"})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("SequenceNumber must be specified for ShardIteratorType AT_SEQUENCE_NUMBER", r.Message());
  r = CallStreams(server_, "GetShardIterator", R"({"StreamArn":")" + arn + R"(","ShardId":")" + shard +
                                                   R"(","ShardIteratorType":"NEWEST"})");
  EXPECT_EQ("1 validation error detected: Value 'NEWEST' at 'shardIteratorType' failed to satisfy constraint: "
            "Member must satisfy enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER]",
            r.Message());
  std::string it = Iterator(server_, arn, "TRIM_HORIZON");
  r = CallStreams(server_, "GetRecords", R"({"ShardIterator":")" + it + R"(","Limit":1001})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(
      "1 validation error detected: Value '1001' at 'limit' failed to satisfy constraint: Member must have "
      "value less than or equal to 1000",
      r.Message());
  r = CallStreams(server_, "GetRecords", R"({"ShardIterator":")" + it + R"(","Limit":0})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  r = CallStreams(server_, "GetRecords", R"({"ShardIterator":"garbage"})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("Invalid ShardIterator", r.Message());
  r = CallStreams(server_, "GetRecords", R"({"ShardIterator":")" + it.substr(0, it.size() - 4) + R"(AAA="})");
  EXPECT_EQ("Invalid ShardIterator", r.Message());
  r = CallStreams(server_, "UpdateTable", "{}");
  EXPECT_EQ("UnknownOperationException", r.ErrorName());

  // An iterator expires 15 minutes after it was issued.
  server_.clock().Advance(15 * 60 * 1000 - 1000);
  EXPECT_EQ(200, CallStreams(server_, "GetRecords", R"({"ShardIterator":")" + it + R"("})").status);
  server_.clock().Advance(2000);
  r = CallStreams(server_, "GetRecords", R"({"ShardIterator":")" + it + R"("})");
  EXPECT_EQ("ExpiredIteratorException", r.ErrorName());
  EXPECT_EQ("Shard iterator has expired", r.Message());
}

TEST_F(StreamsTest, RecordsPastRetentionAreTrimmed) {
  std::string arn = CreateWithStream("KEYS_ONLY");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"old"}}})");
  std::string first = ReadAll(server_, arn)[0].sequence_number;
  server_.clock().Advance(kStreamRetentionMillis - 10 * 60 * 1000);
  std::string it = Iterator(server_, arn, "TRIM_HORIZON");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"new"}}})");
  server_.clock().Advance(10 * 60 * 1000 + 1000);
  // The iterator is 10 minutes old (not expired) but points at a record now past retention.
  HttpResult r = CallStreams(server_, "GetRecords", R"({"ShardIterator":")" + it + R"("})");
  EXPECT_EQ("TrimmedDataAccessException", r.ErrorName()) << r.Describe();
  r = CallStreams(server_, "GetShardIterator", R"({"StreamArn":")" + arn + R"(","ShardId":")" +
                                                   ShardIdOf(server_, arn) +
                                                   R"(","ShardIteratorType":"AT_SEQUENCE_NUMBER","SequenceNumber":")" +
                                                   first + R"("})");
  EXPECT_EQ("TrimmedDataAccessException", r.ErrorName()) << r.Describe();
  EXPECT_EQ(Strings({"INSERT new"}), Events(ReadAll(server_, arn)));
  EXPECT_EQ(0, Sweep(server_));  // deletes the old record for good: the same answers
  EXPECT_EQ(Strings({"INSERT new"}), Events(ReadAll(server_, arn)));
}

TEST_F(StreamsTest, ClosedShardReadToItsEndHasNoNextIterator) {
  std::string arn = CreateWithStream("KEYS_ONLY");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"a"}}})");
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"b"}}})");
  std::string it = Iterator(server_, arn, "TRIM_HORIZON");
  ASSERT_EQ(200, UpdateStream(R"({"StreamEnabled":false})").status);
  Ok("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"after"}}})");  // no stream: no record
  HttpResult r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + arn + R"("})");
  const auto& range = r.json["StreamDescription"]["Shards"][0]["SequenceNumberRange"];
  std::vector<StreamRecordText> all = ReadAll(server_, arn);
  ASSERT_EQ(2u, all.size());
  EXPECT_EQ(all[1].sequence_number, std::string(range["EndingSequenceNumber"].GetString()));
  std::string next;
  EXPECT_EQ(Strings({"INSERT a"}), Events(ReadOnce(server_, it, &next, 1)));
  ASSERT_FALSE(next.empty());
  EXPECT_EQ(Strings({"INSERT b"}), Events(ReadOnce(server_, next, &next)));
  EXPECT_TRUE(next.empty());
  // A stream disabled before any record: its shard ends where it starts.
  std::string empty = CreateWithStream("KEYS_ONLY", "tab2");
  ASSERT_EQ(200, UpdateStream(R"({"StreamEnabled":false})", "tab2").status);
  EXPECT_TRUE(ReadOnce(server_, Iterator(server_, empty, "TRIM_HORIZON"), &next).empty());
  EXPECT_TRUE(next.empty());
}

// A StreamArn without the shape of a stream ARN is a ValidationException; a well-formed one naming no stream is
// ResourceNotFoundException (ApiErrors), in every operation that takes one.
TEST_F(StreamsTest, AMalformedStreamArnIsAValidationError) {
  CreateWithStream("KEYS_ONLY");
  for (const std::string arn : {"nope", "arn:aws:dynamodb:us-east-1:000000000000:table/tab",
                                "arn:aws:s3:us-east-1:000000000000:table/tab/stream/2000-01-01T00:00:00.000"}) {
    HttpResult r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + arn + R"("})");
    EXPECT_EQ("ValidationException: Invalid StreamArn", r.ErrorName() + ": " + r.Message()) << arn;
    r = CallStreams(server_, "GetShardIterator",
                    R"({"StreamArn":")" + arn + R"(","ShardId":"s","ShardIteratorType":"LATEST"})");
    EXPECT_EQ("ValidationException: Invalid StreamArn", r.ErrorName() + ": " + r.Message()) << arn;
    r = CallStreams(server_, "ListStreams", R"({"ExclusiveStartStreamArn":")" + arn + R"("})");
    EXPECT_EQ("ValidationException: Invalid StreamArn", r.ErrorName() + ": " + r.Message()) << arn;
  }
}

// ListStreams' ExclusiveStartStreamArn must name a stream: one that names none is ResourceNotFoundException, as
// DescribeStream answers it, not a position among the streams.
TEST_F(StreamsTest, AStartStreamArnThatNamesNoStreamIsNotFound) {
  CreateWithStream("KEYS_ONLY");
  const std::string unknown = "arn:aws:dynamodb:us-east-1:000000000000:table/tab/stream/2000-01-01T00:00:00.000";
  HttpResult r = CallStreams(server_, "ListStreams", R"({"ExclusiveStartStreamArn":")" + unknown + R"("})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName()) << r.Describe();
  EXPECT_EQ("Requested resource not found: Stream: " + unknown + " not found", r.Message());
}

// ListStreams' Limit is at most 100: more is refused as a constraint, not clamped.
TEST_F(StreamsTest, ListStreamsRefusesALimitOver100) {
  HttpResult r = CallStreams(server_, "ListStreams", R"({"Limit":101})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(
      "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have "
      "value less than or equal to 100",
      r.Message());
  EXPECT_EQ(200, CallStreams(server_, "ListStreams", R"({"Limit":100})").status);
}

TEST_F(StreamsTest, ListAndDescribePagination) {
  for (int i = 0; i < 3; i++) {
    CreateWithStream("KEYS_ONLY", "tab" + std::to_string(i));
    server_.clock().Advance(10);
  }
  HttpResult r = CallStreams(server_, "ListStreams", R"({"Limit":2})");
  ASSERT_EQ(2u, r.json["Streams"].Size()) << r.Describe();
  EXPECT_EQ("tab2", std::string(r.json["Streams"][0]["TableName"].GetString()));
  ASSERT_TRUE(r.Has("LastEvaluatedStreamArn"));
  std::string last = r.json["LastEvaluatedStreamArn"].GetString();
  r = CallStreams(server_, "ListStreams", R"({"Limit":2,"ExclusiveStartStreamArn":")" + last + R"("})");
  ASSERT_EQ(1u, r.json["Streams"].Size()) << r.Describe();
  EXPECT_EQ("tab0", std::string(r.json["Streams"][0]["TableName"].GetString()));
  EXPECT_FALSE(r.Has("LastEvaluatedStreamArn"));
  EXPECT_EQ(Canonical(R"({"Streams":[]})"), CallStreams(server_, "ListStreams", R"({"TableName":"nope"})").body);

  std::string arn = LatestStreamArn(server_, "tab0");
  std::string shard = ShardIdOf(server_, arn);
  r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + arn + R"(","ExclusiveStartShardId":")" + shard +
                                                 R"("})");
  EXPECT_EQ(0u, r.json["StreamDescription"]["Shards"].Size()) << r.Describe();
  r = CallStreams(server_, "DescribeStream",
                  R"({"StreamArn":")" + arn + R"(","ShardFilter":{"Type":"CHILD_SHARDS","ShardId":")" + shard +
                      R"("}})");
  EXPECT_EQ(0u, r.json["StreamDescription"]["Shards"].Size()) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"AttributeName":"id","KeyType":"HASH"}])"),
            JsonText(r.json["StreamDescription"]["KeySchema"]));
}

// The members of a listed stream and of a stream's description, in DynamoDB's order.
TEST_F(StreamsTest, SummaryAndDescriptionMembers) {
  HttpResult created = server_.Call("CreateTable", CreateBody("tab", Spec("NEW_IMAGE"), "id", "sk"));
  ASSERT_EQ(200, created.status) << created.Describe();
  const std::string arn = created.json["TableDescription"]["LatestStreamArn"].GetString();
  const std::string label = created.json["TableDescription"]["LatestStreamLabel"].GetString();
  EXPECT_EQ(
      Canonical(R"({"Streams":[{"StreamArn":")" + arn + R"(","TableName":"tab","StreamLabel":")" + label + R"("}]})"),
      CallStreams(server_, "ListStreams", "{}").body);

  HttpResult r = CallStreams(server_, "DescribeStream", R"({"StreamArn":")" + arn + R"("})");
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& d = r.json["StreamDescription"];
  std::string members;
  for (auto m = d.MemberBegin(); m != d.MemberEnd(); ++m) members += std::string(m->name.GetString()) + " ";
  EXPECT_EQ("StreamArn StreamLabel StreamStatus StreamViewType CreationRequestDateTime TableName KeySchema Shards ",
            members);
  EXPECT_EQ(arn, d["StreamArn"].GetString());
  EXPECT_EQ(label, d["StreamLabel"].GetString());
  EXPECT_EQ("ENABLED", std::string(d["StreamStatus"].GetString()));
  EXPECT_EQ("NEW_IMAGE", std::string(d["StreamViewType"].GetString()));
  EXPECT_NEAR(created.json["TableDescription"]["CreationDateTime"].GetDouble(),
              d["CreationRequestDateTime"].GetDouble(), 1.0);
  EXPECT_EQ("tab", std::string(d["TableName"].GetString()));
  EXPECT_EQ(Canonical(R"([{"AttributeName":"id","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}])"),
            JsonText(d["KeySchema"]));
  ASSERT_EQ(1u, d["Shards"].Size());
  EXPECT_EQ(
      Canonical(R"({"ShardId":")" + ShardIdOf(server_, arn) +
                R"(","SequenceNumberRange":)"
                R"({"StartingSequenceNumber":")" +
                std::string(d["Shards"][0]["SequenceNumberRange"]["StartingSequenceNumber"].GetString()) + R"("}})"),
      JsonText(d["Shards"][0]));
}

// The forms boto3's validation and Flink's shard-id pattern require.
TEST_F(StreamsTest, IdentifierForms) {
  std::string arn = CreateWithStream("KEYS_ONLY", "abc");
  Ok("PutItem", R"({"TableName":"abc","Item":{"id":{"S":"a"}}})");
  std::string shard = ShardIdOf(server_, arn);
  EXPECT_GE(arn.size(), 37u);
  EXPECT_GE(shard.size(), 28u);
  EXPECT_LE(shard.size(), 65u);
  EXPECT_TRUE(std::regex_search(shard, std::regex(R"(^shardId-\d{20}-{0,1}\w{0,36})"))) << shard;
  std::string seq = ReadAll(server_, arn)[0].sequence_number;
  EXPECT_TRUE(std::regex_match(seq, std::regex(R"([1-9]\d{20,39})"))) << seq;
  EXPECT_LE(Iterator(server_, arn, "TRIM_HORIZON").size(), 2048u);
}

TEST_F(StreamsTest, RecordsCarryTheRequestsRegion) {
  TestServer server;
  // The region of a request is its credential scope's.
  auto call_in_eu_west_2 = [&](const std::string& operation, const std::string& body) {
    HttpRequest request;
    request.headers = DynamoHeaders(operation);
    request.headers.erase("Authorization");
    request.headers.emplace("Authorization",
                            "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-2/dynamodb/aws4_request, "
                            "SignedHeaders=host;x-amz-date, Signature=abc");
    request.body = body;
    return server.Send(request);
  };
  ASSERT_EQ(200, call_in_eu_west_2("CreateTable", CreateBody("tab", Spec("KEYS_ONLY"))).status);
  ASSERT_EQ(200, call_in_eu_west_2("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"a"}}})").status);
  std::string arn = LatestStreamArn(server, "tab");
  EXPECT_EQ(0u, arn.find("arn:aws:dynamodb:eu-west-2:"));
  EXPECT_NE(std::string::npos, ReadAll(server, arn)[0].json.find(R"("awsRegion":"eu-west-2")"));
}

TEST(StreamsPersistenceTest, StreamsAndRecordsSurviveARestart) {
  char dir[] = "/tmp/dynapage-streams-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(dir));
  TestServerOptions options;
  options.path = dir;
  std::string arn, old_arn;
  {
    TestServer server(options);
    ASSERT_EQ(200, server.Call("CreateTable", CreateBody("gone", Spec("KEYS_ONLY"))).status);
    old_arn = LatestStreamArn(server, "gone");
    ASSERT_EQ(200, server.Call("DeleteTable", R"({"TableName":"gone"})").status);
    ASSERT_EQ(200, server.Call("CreateTable", CreateBody("tab", Spec("KEYS_ONLY"))).status);
    arn = LatestStreamArn(server, "tab");
    ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"a"}}})").status);
    ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"b"}}})").status);
  }
  {
    TestServer server(options);
    EXPECT_EQ(arn, LatestStreamArn(server, "tab"));
    ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tab","Item":{"id":{"S":"c"}}})").status);
    std::vector<StreamRecordText> records = ReadAll(server, arn);
    EXPECT_EQ(Strings({"INSERT a", "INSERT b", "INSERT c"}), Events(records));
    ASSERT_EQ(3u, records.size());
    EXPECT_LT(records[1].sequence_number, records[2].sequence_number);  // the counter went on, not back
    HttpResult r = CallStreams(server, "DescribeStream", R"({"StreamArn":")" + old_arn + R"("})");
    EXPECT_EQ("DISABLED", std::string(r.json["StreamDescription"]["StreamStatus"].GetString())) << r.Describe();
    EXPECT_EQ(2u, CallStreams(server, "ListStreams", "{}").json["Streams"].Size());
  }
  std::system(("rm -rf " + std::string(dir)).c_str());
}

}  // namespace
}  // namespace dynapage
