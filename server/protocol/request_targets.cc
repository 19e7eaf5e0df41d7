#include "server/protocol/request_targets.h"

#include "engine/base/check.h"

namespace dynapage {

std::string_view TextMember(const rapidjson::Value& object, const char* member) {
  if (!object.IsObject()) return {};
  auto m = object.FindMember(member);
  if (m == object.MemberEnd() || !m->value.IsString()) return {};
  return std::string_view(m->value.GetString(), m->value.GetStringLength());
}

std::string_view TableOfStreamArn(std::string_view arn) {
  size_t table = arn.find(":table/");
  if (table == std::string_view::npos) return {};
  arn = arn.substr(table + 7);
  size_t end = arn.find("/stream/");
  return end == std::string_view::npos ? std::string_view() : arn.substr(0, end);
}

void CollectRequestTargets(const rapidjson::Value& body, StatementTargetAdder add_statements, RequestTargets* targets) {
  DP_DCHECK(body.IsObject());
  std::vector<std::string>& tables = targets->tables;
  targets->index = std::string(TextMember(body, "IndexName"));
  std::string_view table = TextMember(body, "TableName");
  if (!table.empty()) tables.emplace_back(table);
  // DynamoDB Streams: the table of the stream, or of the stream of the shard iterator.
  for (const char* member : {"StreamArn", "ShardIterator"}) {
    std::string_view stream_table = TableOfStreamArn(TextMember(body, member));
    if (!stream_table.empty()) tables.emplace_back(stream_table);
  }
  auto items = body.FindMember("RequestItems");
  if (items != body.MemberEnd() && items->value.IsObject()) {
    for (auto t = items->value.MemberBegin(); t != items->value.MemberEnd(); ++t) {
      tables.emplace_back(t->name.GetString(), t->name.GetStringLength());
    }
  }
  auto transact = body.FindMember("TransactItems");
  if (transact != body.MemberEnd() && transact->value.IsArray()) {
    for (const auto& action : transact->value.GetArray()) {
      if (!action.IsObject() || action.MemberCount() == 0) continue;
      std::string_view name = TextMember(action.MemberBegin()->value, "TableName");
      if (!name.empty()) tables.emplace_back(name);
    }
  }
  if (add_statements) add_statements(body, targets);
  if (!targets->index.empty()) targets->indexes.push_back(targets->index);
}

}  // namespace dynapage
