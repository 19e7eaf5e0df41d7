#include "tests/http/index_test_util.h"

namespace dynapage {

HttpResult CreateIndexedTable(TestServer& server, const std::string& name) {
  return server.Call("CreateTable", R"({"TableName":")" + name + R"(","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
        {"AttributeName":"lsk","AttributeType":"S"},{"AttributeName":"gpk","AttributeType":"S"},
        {"AttributeName":"gsk","AttributeType":"N"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
      "LocalSecondaryIndexes":[{"IndexName":"by_lsk",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"lsk","KeyType":"RANGE"}],
        "Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],
      "GlobalSecondaryIndexes":[
        {"IndexName":"by_gpk","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"},{"AttributeName":"gsk","KeyType":"RANGE"}],
         "Projection":{"ProjectionType":"ALL"}},
        {"IndexName":"gpk_keys","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}],
         "Projection":{"ProjectionType":"KEYS_ONLY"}}]})");
}

HttpResult CallFrom(TestServer& server, const std::string& op, const std::string& body, const std::string& start_key) {
  if (start_key.empty()) return server.Call(op, body);
  std::string with_key = body;
  with_key.erase(with_key.find_last_of('}'));
  return server.Call(op, with_key + R"(,"ExclusiveStartKey":)" + start_key + "}");
}

std::vector<HttpResult> ReadAllPages(TestServer& server, const std::string& op, const std::string& body,
                                     const std::string& start_key) {
  std::vector<HttpResult> pages;
  std::string next_key = start_key;
  for (int i = 0; i < 10000; i++) {
    pages.push_back(CallFrom(server, op, body, next_key));
    const HttpResult& page = pages.back();
    if (page.status != 200) break;
    next_key = LastKey(page);
    if (next_key.empty()) break;
  }
  return pages;
}

std::vector<std::string> Values(const HttpResult& page, const char* attribute) {
  std::vector<std::string> out;
  if (!page.Has("Items")) return out;
  for (const auto& item : page.json["Items"].GetArray()) {
    if (!item.HasMember(attribute)) {
      out.push_back("-");
      continue;
    }
    const auto& value = item[attribute];
    out.push_back(value.MemberBegin()->value.IsString() ? value.MemberBegin()->value.GetString() : JsonText(value));
  }
  return out;
}

std::vector<std::string> Values(const std::vector<HttpResult>& pages, const char* attribute) {
  std::vector<std::string> out;
  for (const auto& page : pages) {
    std::vector<std::string> values = Values(page, attribute);
    out.insert(out.end(), values.begin(), values.end());
  }
  return out;
}

std::string LastKey(const HttpResult& page) {
  return page.Has("LastEvaluatedKey") ? JsonText(page.json["LastEvaluatedKey"]) : "";
}

std::string DescribedIndex(TestServer& server, const std::string& table, const std::string& index_name) {
  HttpResult r = server.Call("DescribeTable", R"({"TableName":")" + table + R"("})");
  if (!r.Has("Table")) return "";
  for (const char* member : {"LocalSecondaryIndexes", "GlobalSecondaryIndexes"}) {
    if (!r.json["Table"].HasMember(member)) continue;
    for (const auto& index : r.json["Table"][member].GetArray()) {
      if (index["IndexName"].GetString() == index_name) return JsonText(index);
    }
  }
  return "";
}

}  // namespace dynapage
