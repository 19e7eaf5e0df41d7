#include "server/admin/logged_continuation.h"

#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace dynapage {

namespace {

struct ContinuationMembers {
  std::string_view operation;
  const char* sent;         // the request's member
  std::string_view answer;  // the answer's member, as written: "\"Name\":"
  bool keyed;               // a key (an object): present only when the counters say so
};

constexpr ContinuationMembers kMembers[] = {
    {"Query", "ExclusiveStartKey", "\"LastEvaluatedKey\":", true},
    {"Scan", "ExclusiveStartKey", "\"LastEvaluatedKey\":", true},
    {"ExecuteStatement", "NextToken", "\"NextToken\":\"", false},
    {"GetRecords", "ShardIterator", "\"NextShardIterator\":\"", false},
    {"ListTables", "ExclusiveStartTableName", "\"LastEvaluatedTableName\":\"", false},
};

// The JSON value that starts at text[at], as written there; "" if it is not one.
std::string ValueAt(const std::string& text, size_t at) {
  rapidjson::StringStream stream(text.c_str() + at);
  rapidjson::BaseReaderHandler<> ignore;
  rapidjson::Reader reader;
  if (reader.Parse<rapidjson::kParseStopWhenDoneFlag>(stream, ignore).IsError()) return "";
  return text.substr(at, stream.Tell());
}

}  // namespace

LoggedContinuation ContinuationOf(std::string_view operation, const rapidjson::Value& request,
                                  const std::string& answer_body, bool handed_out) {
  LoggedContinuation out;
  for (const ContinuationMembers& members : kMembers) {
    if (members.operation != operation) continue;
    auto sent = request.IsObject() ? request.FindMember(members.sent) : rapidjson::Value::ConstMemberIterator();
    if (request.IsObject() && sent != request.MemberEnd()) {
      rapidjson::StringBuffer buffer;
      rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
      sent->value.Accept(w);
      out.start.assign(buffer.GetString(), buffer.GetSize());
    }
    if (members.keyed && !handed_out) break;
    size_t at = answer_body.rfind(members.answer.data(), std::string::npos, members.answer.size());
    if (at == std::string::npos) break;
    // A token's pattern ends with its opening quote, which is where its value starts.
    size_t value = at + members.answer.size() - (members.keyed ? 0 : 1);
    out.next = ValueAt(answer_body, value);
    break;
  }
  return out;
}

}  // namespace dynapage
