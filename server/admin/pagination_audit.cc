#include "server/admin/pagination_audit.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "server/admin/admin_json.h"
#include "server/protocol/request_targets.h"

namespace dynapage {

namespace {

std::string CompactJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  value.Accept(w);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// A map of attributes with its members in name order: the same key however the client ordered it.
std::string CanonicalMap(const rapidjson::Value& map) {
  if (!map.IsObject()) return CompactJson(map);
  std::vector<std::pair<std::string_view, const rapidjson::Value*>> members;
  for (auto m = map.MemberBegin(); m != map.MemberEnd(); ++m) {
    members.emplace_back(std::string_view(m->name.GetString(), m->name.GetStringLength()), &m->value);
  }
  std::sort(members.begin(), members.end());
  std::string out = "{";
  for (const auto& [name, value] : members) {
    out.append(out.size() > 1 ? "," : "").append(name).append(":").append(CompactJson(*value));
  }
  return out + "}";
}

std::string Text(const rapidjson::Value& object, const char* member) { return std::string(TextMember(object, member)); }

const rapidjson::Value* Member(const rapidjson::Value& object, const char* member) {
  auto m = object.FindMember(member);
  return m == object.MemberEnd() || m->value.IsNull() ? nullptr : &m->value;
}

std::string Identity(std::string_view access_key, std::string_view operation, const std::string& table,
                     const std::string& index, const std::string& token) {
  std::string id;
  id.append(access_key).append(1, '\x1f').append(operation).append(1, '\x1f').append(table);
  id.append(1, '\x1f').append(index).append(1, '\x1f').append(token);
  return id;
}

// The token of one BatchWriteItem request: "P" and the item, or "D" and the key.
std::string WriteRequestToken(const rapidjson::Value& entry) {
  if (!entry.IsObject()) return "";
  if (const rapidjson::Value* put = Member(entry, "PutRequest")) {
    const rapidjson::Value* item = put->IsObject() ? Member(*put, "Item") : nullptr;
    return item ? "P" + CanonicalMap(*item) : "";
  }
  if (const rapidjson::Value* del = Member(entry, "DeleteRequest")) {
    const rapidjson::Value* key = del->IsObject() ? Member(*del, "Key") : nullptr;
    return key ? "D" + CanonicalMap(*key) : "";
  }
  return "";
}

// The members that continue a chain of pages: the token a request sends back, the one an answer hands out, and
// what counts a page's items.
struct ChainMembers {
  const char* start;
  const char* next;
  const char* count;
};

std::optional<ChainMembers> ChainMembersOf(std::string_view operation) {
  if (operation == "Query" || operation == "Scan")
    return ChainMembers{"ExclusiveStartKey", "LastEvaluatedKey", "Count"};
  if (operation == "ListTables") return ChainMembers{"ExclusiveStartTableName", "LastEvaluatedTableName", "TableNames"};
  if (operation == "ExecuteStatement") return ChainMembers{"NextToken", "NextToken", "Items"};
  return std::nullopt;
}

}  // namespace

void PaginationAudit::Follow(const std::string& id, Continuation* chain) {
  auto it = open_.find(id);
  if (it == open_.end()) return;
  chain->pages_read = it->second.pages_read;
  chain->items_read = it->second.items_read;
  counts_[it->second.scope].followed++;
  open_.erase(it);
}

void PaginationAudit::Issue(const std::string& id, Continuation continuation) {
  Counts& counts = counts_[continuation.scope];
  counts.issued++;
  if (open_.size() >= kMaxOpenContinuations && !open_.count(id)) {
    counts.not_kept++;
    return;
  }
  auto [it, added] = open_.try_emplace(id);
  uint64_t times = added ? 1 : it->second.times + 1;
  it->second = std::move(continuation);
  it->second.times = times;
}

void PaginationAudit::Observe(std::string_view operation, std::string_view access_key, std::string_view request_id,
                              const rapidjson::Value& request, const rapidjson::Value& response,
                              const IssuedContinuation& issued) {
  if (!request.IsObject() || !response.IsObject()) return;
  // Continuations are told apart by namespace first: two namespaces may hand out the same token.
  std::string scoped_key(issued.scope);
  scoped_key.append(1, '\x1e').append(access_key);
  auto id_of = [&scoped_key](std::string_view operation, const std::string& table, const std::string& index,
                             const std::string& token) {
    return dynapage::Identity(scoped_key, operation, table, index, token);
  };
  std::lock_guard<std::mutex> lock(mu_);
  if (operation == "GetRecords") {
    // A chain of shard iterators: each NextShardIterator is the token the reader sends back.
    const rapidjson::Value* start = Member(request, "ShardIterator");
    const rapidjson::Value* next = Member(response, "NextShardIterator");
    Continuation c;
    c.operation = std::string(operation);
    if (start && start->IsString()) {
      std::string_view iterator(start->GetString(), start->GetStringLength());
      c.table = std::string(TableOfStreamArn(iterator));
      Follow(id_of(operation, c.table, "", std::string(iterator)), &c);
    }
    if (!next || !next->IsString()) return;
    c.scope = std::string(issued.scope);
    c.access_key = std::string(access_key);
    c.request_id = std::string(request_id);
    c.pages_read++;
    const rapidjson::Value* records = Member(response, "Records");
    if (records && records->IsArray()) c.items_read += records->Size();
    c.token_json = CompactJson(*next);
    c.items_left = issued.records_after_iterator;
    c.caught_up = issued.records_after_iterator == 0;
    std::string token(next->GetString(), next->GetStringLength());
    std::string id = id_of(operation, c.table, "", token);
    Issue(id, std::move(c));
    return;
  }
  if (std::optional<ChainMembers> members = ChainMembersOf(operation)) {
    const bool list = operation == "ListTables";
    const bool statement = operation == "ExecuteStatement";
    Continuation c;
    c.operation = std::string(operation);
    c.table = statement ? issued.statement.table : list ? "" : Text(request, "TableName");
    c.index = statement ? issued.statement.index : list ? "" : Text(request, "IndexName");
    const rapidjson::Value* start = Member(request, members->start);
    if (start) Follow(id_of(operation, c.table, c.index, CanonicalMap(*start)), &c);
    const rapidjson::Value* next = Member(response, members->next);
    if (!next) return;
    c.key_condition = Text(request, "KeyConditionExpression");
    if (c.key_condition.empty() && Member(request, "KeyConditions")) c.key_condition = "KeyConditions";
    c.filter = Text(request, "FilterExpression");
    if (c.filter.empty() && Member(request, operation == "Query" ? "QueryFilter" : "ScanFilter")) {
      c.filter = operation == "Query" ? "QueryFilter" : "ScanFilter";
    }
    if (const rapidjson::Value* segment = Member(request, "Segment")) {
      if (segment->IsInt64())
        c.filter.append(c.filter.empty() ? "" : "; ").append("Segment ").append(std::to_string(segment->GetInt64()));
    }
    if (statement) c.statement = Text(request, "Statement");
    c.scope = std::string(issued.scope);
    c.access_key = std::string(access_key);
    c.request_id = std::string(request_id);
    c.pages_read++;
    const rapidjson::Value* count = Member(response, members->count);
    if (count && count->IsUint64()) c.items_read += count->GetUint64();
    if (count && count->IsArray()) c.items_read += count->Size();
    c.token_json = CompactJson(*next);
    c.request_json = CompactJson(request);
    c.authorization = std::string(issued.authorization);
    std::string id = id_of(operation, c.table, c.index, CanonicalMap(*next));
    Issue(id, std::move(c));
    return;
  }
  bool write = operation == "BatchWriteItem";
  if (!write && operation != "BatchGetItem") return;
  // Each request the caller sends again follows its continuation; each one left unprocessed is a new one.
  const rapidjson::Value* items = Member(request, "RequestItems");
  std::map<std::string, Continuation> chains;  // pages read before, by table
  if (items && items->IsObject()) {
    for (auto t = items->MemberBegin(); t != items->MemberEnd(); ++t) {
      std::string table(t->name.GetString(), t->name.GetStringLength());
      Continuation& chain = chains[table];
      const rapidjson::Value* list = write ? &t->value : (t->value.IsObject() ? Member(t->value, "Keys") : nullptr);
      if (!list || !list->IsArray()) continue;
      for (const auto& entry : list->GetArray()) {
        std::string token = write ? WriteRequestToken(entry) : CanonicalMap(entry);
        Continuation followed;
        Follow(id_of(operation, table, "", token), &followed);
        chain.pages_read = std::max(chain.pages_read, followed.pages_read);
      }
    }
  }
  const rapidjson::Value* left = Member(response, write ? "UnprocessedItems" : "UnprocessedKeys");
  if (!left || !left->IsObject()) return;
  for (auto t = left->MemberBegin(); t != left->MemberEnd(); ++t) {
    std::string table(t->name.GetString(), t->name.GetStringLength());
    const rapidjson::Value* list = write ? &t->value : (t->value.IsObject() ? Member(t->value, "Keys") : nullptr);
    if (!list || !list->IsArray()) continue;
    for (const auto& entry : list->GetArray()) {
      Continuation c;
      c.operation = std::string(operation);
      c.table = table;
      c.scope = std::string(issued.scope);
      c.access_key = std::string(access_key);
      c.request_id = std::string(request_id);
      c.pages_read = chains[table].pages_read + 1;
      c.pages_left = 1;  // the one request, sent again
      c.items_left = 1;
      c.token_json = CompactJson(entry);
      std::string token = write ? WriteRequestToken(entry) : CanonicalMap(entry);
      Issue(id_of(operation, table, "", token), std::move(c));
    }
  }
}

void PaginationAudit::CountLeft(const ReplayRequest& replay, Continuation* c, uint64_t* budget) {
  std::optional<ChainMembers> members = ChainMembersOf(c->operation);
  if (!members) return;
  const char* start_member = members->start;
  const char* next_member = members->next;
  rapidjson::Document request;
  request.Parse(c->request_json.data(), c->request_json.size());
  rapidjson::Document token;
  token.Parse(c->token_json.data(), c->token_json.size());
  if (request.HasParseError() || !request.IsObject() || token.HasParseError()) return;
  request.RemoveMember(start_member);
  request.AddMember(rapidjson::StringRef(start_member), rapidjson::Value(token, request.GetAllocator()),
                    request.GetAllocator());
  uint64_t pages = 0, items = 0;
  while (true) {
    if (*budget == 0) return;
    --*budget;
    std::optional<std::string> body = replay(c->operation, c->authorization, CompactJson(request));
    if (!body) return;
    rapidjson::Document answer;
    answer.Parse(body->data(), body->size());
    if (answer.HasParseError() || !answer.IsObject()) return;
    pages++;
    const rapidjson::Value* count = Member(answer, members->count);
    if (count && count->IsUint64()) items += count->GetUint64();
    if (count && count->IsArray()) items += count->Size();
    const rapidjson::Value* next = Member(answer, next_member);
    if (!next) break;
    request[start_member].CopyFrom(*next, request.GetAllocator());
  }
  c->pages_left = pages;
  c->items_left = items;
}

PaginationAudit::Counts PaginationAudit::CountsOf(const std::string* scope) const {
  Counts sum;
  for (const auto& [name, counts] : counts_) {
    if (scope && name != *scope) continue;
    sum.issued += counts.issued;
    sum.followed += counts.followed;
    sum.not_kept += counts.not_kept;
  }
  return sum;
}

std::vector<PaginationAudit::Continuation> PaginationAudit::Abandoned(const ReplayRequest* replay,
                                                                      const std::string* scope) const {
  std::vector<Continuation> abandoned;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, c] : open_) {
      if (!c.caught_up && (!scope || c.scope == *scope)) abandoned.push_back(c);
    }
  }
  // Counted outside the lock: the replays are requests, and requests go on meanwhile.
  uint64_t budget = kMaxReplayedPages;
  for (Continuation& c : abandoned) {
    if (replay && !c.request_json.empty()) CountLeft(*replay, &c, &budget);
  }
  return abandoned;
}

std::string PaginationAudit::ReportJson(const ReplayRequest* replay, const std::string* scope) const {
  std::vector<Continuation> abandoned = Abandoned(replay, scope);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  {
    std::lock_guard<std::mutex> lock(mu_);
    Counts counts = CountsOf(scope);
    w.Key("issued");
    w.Uint64(counts.issued);
    w.Key("followed");
    w.Uint64(counts.followed);
    w.Key("not_kept");
    w.Uint64(counts.not_kept);
  }
  w.Key("abandoned");
  w.StartArray();
  for (const Continuation& c : abandoned) {
    w.StartObject();
    WriteOptionalText(&w, "operation", c.operation);
    WriteOptionalText(&w, "table", c.table);
    WriteOptionalText(&w, "index", c.index);
    WriteOptionalText(&w, "key_condition", c.key_condition);
    WriteOptionalText(&w, "filter", c.filter);
    WriteOptionalText(&w, "statement", c.statement);
    WriteOptionalText(&w, "access_key", c.access_key);
    WriteOptionalText(&w, "request_id", c.request_id);
    w.Key("pages_read");
    w.Uint64(c.pages_read);
    w.Key("items_read");
    w.Uint64(c.items_read);
    WriteOptionalCount(&w, "pages_left", c.pages_left);
    WriteOptionalCount(&w, "items_left", c.items_left);
    w.Key("times");
    w.Uint64(c.times);
    w.Key("continuation");
    rapidjson::Type type =
        c.token_json.empty() || c.token_json[0] != '"' ? rapidjson::kObjectType : rapidjson::kStringType;
    w.RawValue(c.token_json.data(), c.token_json.size(), type);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string PaginationAudit::Summary(const ReplayRequest* replay) const {
  std::vector<Continuation> abandoned = Abandoned(replay, nullptr);
  std::string out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Counts counts = CountsOf(nullptr);
    out = "pagination audit: " + std::to_string(counts.issued) + " continuations issued, " +
          std::to_string(counts.followed) + " followed, " + std::to_string(abandoned.size()) + " abandoned\n";
  }
  // A batch's requests left unprocessed and never sent again: one line per operation and table, not per request.
  std::map<std::pair<std::string, std::string>, std::pair<uint64_t, std::string>> batches;  // count, first token
  for (const Continuation& c : abandoned) {
    if (c.operation == "BatchWriteItem" || c.operation == "BatchGetItem") {
      auto& [count, first] = batches[{c.operation, c.table}];
      if (count++ == 0) first = c.token_json;
      continue;
    }
    std::string left = c.items_left ? std::to_string(*c.items_left) + " item(s)" : "";
    if (c.pages_left) left = std::to_string(*c.pages_left) + " page(s), " + left;
    if (left.empty()) left = "an unknown number of pages and items";
    if (c.operation == "GetRecords") {
      left = c.items_left ? std::to_string(*c.items_left) + " record(s)" : "an unknown number of records";
    }
    out += "  abandoned: " + c.operation + (c.table.empty() ? "" : " " + c.table) +
           (c.index.empty() ? "" : " index " + c.index) +
           (c.key_condition.empty() ? "" : " key condition \"" + c.key_condition + "\"") +
           (c.filter.empty() ? "" : " filter \"" + c.filter + "\"") +
           (c.statement.empty() ? "" : " statement \"" + c.statement + "\"") + " after " +
           std::to_string(c.pages_read) + " page(s), " + std::to_string(c.items_read) +
           (c.operation == "GetRecords" ? " record(s)" : " item(s)") + "; " + left + " left at " + c.token_json +
           (c.times > 1 ? " (" + std::to_string(c.times) + " times)" : "") + "\n";
  }
  for (const auto& [where, what] : batches) {
    out += "  abandoned: " + where.first + " " + where.second + ": " + std::to_string(what.first) +
           " unprocessed request(s) never sent again, the first " + what.second + "\n";
  }
  return out;
}

std::map<std::string, size_t> PaginationAudit::AbandonedByOperation() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::string, size_t> counts;
  for (const auto& [id, c] : open_) {
    if (!c.caught_up) counts[c.operation]++;
  }
  return counts;
}

size_t PaginationAudit::abandoned() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t count = 0;
  for (const auto& [id, c] : open_) count += c.caught_up ? 0 : 1;
  return count;
}

void PaginationAudit::Clear(const std::string* scope) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!scope) {
    open_.clear();
    counts_.clear();
    return;
  }
  for (auto it = open_.begin(); it != open_.end();) it = it->second.scope == *scope ? open_.erase(it) : std::next(it);
  counts_.erase(*scope);
}

}  // namespace dynapage
