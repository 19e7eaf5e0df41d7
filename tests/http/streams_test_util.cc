#include "tests/http/streams_test_util.h"

#include <gtest/gtest.h>

namespace dynapage {

namespace {
std::string MemberText(const rapidjson::Value& object, const char* member) {
  return object.HasMember(member) ? JsonText(object[member]) : "";
}
}  // namespace

HttpResult CallStreams(TestServer& server, const std::string& operation, const std::string& body) {
  HttpRequest request;
  request.headers = DynamoHeaders(operation);
  request.headers.erase("X-Amz-Target");
  request.headers.emplace("X-Amz-Target", "DynamoDBStreams_20120810." + operation);
  request.body = body;
  return server.Send(request);
}

HttpResult CallAdmin(TestServer& server, const std::string& path, const std::string& body) {
  HttpRequest request;
  request.path = path;
  request.headers.emplace("Content-Type", "application/json");
  request.headers.emplace("Authorization", kTestAuthorization);  // the namespace of the test's requests
  request.body = body;
  return server.Send(request);
}

int64_t Sweep(TestServer& server) {
  HttpResult r = CallAdmin(server, "/_dynapage/ttl/sweep", "{}");
  if (r.status != 200 || !r.Has("ExpiredItems")) return -1;
  return r.json["ExpiredItems"].GetInt64();
}

std::string LatestStreamArn(TestServer& server, const std::string& table) {
  HttpResult r = server.Call("DescribeTable", R"({"TableName":")" + table + R"("})");
  if (r.status != 200 || !r.json["Table"].HasMember("LatestStreamArn")) return "";
  return r.json["Table"]["LatestStreamArn"].GetString();
}

std::string ShardIdOf(TestServer& server, const std::string& stream_arn) {
  HttpResult r = CallStreams(server, "DescribeStream", R"({"StreamArn":")" + stream_arn + R"("})");
  if (r.status != 200 || r.json["StreamDescription"]["Shards"].Empty()) {
    ADD_FAILURE() << "DescribeStream: " << r.Describe();
    return "";
  }
  return r.json["StreamDescription"]["Shards"][0]["ShardId"].GetString();
}

std::string Iterator(TestServer& server, const std::string& stream_arn, const std::string& type,
                     const std::string& sequence_number) {
  std::string body = R"({"StreamArn":")" + stream_arn + R"(","ShardId":")" + ShardIdOf(server, stream_arn) +
                     R"(","ShardIteratorType":")" + type + "\"";
  if (!sequence_number.empty()) body += R"(,"SequenceNumber":")" + sequence_number + "\"";
  HttpResult r = CallStreams(server, "GetShardIterator", body + "}");
  if (r.status != 200) {
    ADD_FAILURE() << "GetShardIterator: " << r.Describe();
    return "";
  }
  return r.json["ShardIterator"].GetString();
}

std::vector<StreamRecordText> ReadOnce(TestServer& server, const std::string& iterator, std::string* next,
                                       int limit) {
  std::string body = R"({"ShardIterator":")" + iterator + "\"";
  if (limit > 0) body += R"(,"Limit":)" + std::to_string(limit);
  HttpResult r = CallStreams(server, "GetRecords", body + "}");
  std::vector<StreamRecordText> records;
  next->clear();
  if (r.status != 200) {
    ADD_FAILURE() << "GetRecords: " << r.Describe();
    return records;
  }
  if (r.Has("NextShardIterator")) *next = r.json["NextShardIterator"].GetString();
  for (const auto& record : r.json["Records"].GetArray()) {
    const auto& d = record["dynamodb"];
    StreamRecordText t;
    t.event_name = record["eventName"].GetString();
    t.keys = MemberText(d, "Keys");
    t.new_image = MemberText(d, "NewImage");
    t.old_image = MemberText(d, "OldImage");
    t.sequence_number = d["SequenceNumber"].GetString();
    t.size_bytes = d["SizeBytes"].GetInt64();
    t.user_identity = MemberText(record, "userIdentity");
    t.json = JsonText(record);
    records.push_back(std::move(t));
  }
  return records;
}

std::vector<StreamRecordText> ReadAll(TestServer& server, const std::string& stream_arn) {
  std::vector<StreamRecordText> all;
  std::string iterator = Iterator(server, stream_arn, "TRIM_HORIZON");
  while (!iterator.empty()) {
    std::string next;
    std::vector<StreamRecordText> page = ReadOnce(server, iterator, &next);
    if (page.empty()) break;
    all.insert(all.end(), page.begin(), page.end());
    iterator = next;
  }
  return all;
}

std::vector<std::string> Events(const std::vector<StreamRecordText>& records) {
  std::vector<std::string> events;
  for (const auto& r : records) {
    rapidjson::Document keys;
    keys.Parse(r.keys.c_str());
    std::string key;
    for (auto m = keys.MemberBegin(); m != keys.MemberEnd(); ++m) {
      const auto& v = m->value.MemberBegin()->value;
      key += (key.empty() ? "" : ",") + std::string(v.GetString());
    }
    events.push_back(r.event_name + " " + key);
  }
  return events;
}

}  // namespace dynapage
