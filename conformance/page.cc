#include "conformance/page.h"

namespace conformance {

namespace {

int IntMember(const Response& r, const char* name) {
  const rapidjson::Value* v = Member(r.json, name);
  return v && v->IsInt() ? v->GetInt() : -1;
}

}  // namespace

::testing::AssertionResult WellFormedPage(const Response& r, ItemsMember items) {
  if (!r.ok()) return ::testing::AssertionFailure() << "request failed: " << r.Describe();
  if (!r.json.IsObject()) return ::testing::AssertionFailure() << "body is not a JSON object: " << r.Describe();
  int count = Count(r), scanned = ScannedCount(r);
  if (count < 0 || scanned < 0) {
    return ::testing::AssertionFailure() << "Count and ScannedCount must be integers: " << r.Describe();
  }
  if (count > scanned) {
    return ::testing::AssertionFailure() << "Count " << count << " > ScannedCount " << scanned;
  }
  const rapidjson::Value* list = Member(r.json, "Items");
  if (items == ItemsMember::kAbsent) {
    if (list) return ::testing::AssertionFailure() << "Select=COUNT response has an Items member: " << r.Describe();
  } else {
    if (!list || !list->IsArray()) {
      return ::testing::AssertionFailure() << "Items must be an array (even when empty): " << r.Describe();
    }
    if (static_cast<int>(list->Size()) != count) {
      return ::testing::AssertionFailure() << "Count " << count << " but " << list->Size() << " Items";
    }
  }
  if (const rapidjson::Value* lek = Member(r.json, "LastEvaluatedKey")) {
    if (!lek->IsObject() || lek->MemberCount() == 0) {
      return ::testing::AssertionFailure() << "LastEvaluatedKey present but not a non-empty object (omit it "
                                              "instead): "
                                           << r.Describe();
    }
  }
  return ::testing::AssertionSuccess();
}

int Count(const Response& r) { return IntMember(r, "Count"); }
int ScannedCount(const Response& r) { return IntMember(r, "ScannedCount"); }

bool HasLek(const Response& r) { return Member(r.json, "LastEvaluatedKey") != nullptr; }

std::string LekJson(const Response& r) {
  const rapidjson::Value* lek = Member(r.json, "LastEvaluatedKey");
  return lek ? ToJson(*lek) : "";
}

std::vector<std::string> LekNames(const Response& r) {
  const rapidjson::Value* lek = Member(r.json, "LastEvaluatedKey");
  return lek ? MemberNames(*lek) : std::vector<std::string>{};
}

std::string LekAttr(const Response& r, const char* name) {
  const rapidjson::Value* lek = Member(r.json, "LastEvaluatedKey");
  return lek ? AttrText(*lek, name) : "";
}

std::vector<std::string> Column(const Response& r, const char* name) {
  std::vector<std::string> out;
  const rapidjson::Value* list = Member(r.json, "Items");
  if (!list || !list->IsArray()) return out;
  for (const auto& item : list->GetArray()) out.push_back(AttrText(item, name));
  return out;
}

std::vector<std::string> PagedRead::Column(const char* name) const {
  std::vector<std::string> out;
  for (const auto& page : pages) {
    for (auto& v : conformance::Column(page, name)) out.push_back(std::move(v));
  }
  return out;
}

int PagedRead::TotalCount() const {
  int total = 0;
  for (const auto& page : pages) total += std::max(0, Count(page));
  return total;
}

PagedRead ReadAllPages(Client& client, const std::string& operation, const Json& request, int max_pages,
                       ItemsMember items) {
  PagedRead out;
  Json next = request;
  for (int i = 0; i < max_pages; ++i) {
    Response r = client.Call(operation, next);
    ::testing::AssertionResult shape = WellFormedPage(r, items);
    if (!shape) {
      out.failure = "page " + std::to_string(i + 1) + ": " + shape.message();
      out.pages.push_back(std::move(r));
      return out;
    }
    const rapidjson::Value* lek = Member(r.json, "LastEvaluatedKey");
    if (!lek) {
      out.pages.push_back(std::move(r));
      return out;
    }
    next.SetValue("ExclusiveStartKey", *lek);
    out.pages.push_back(std::move(r));
  }
  out.failure = "still a LastEvaluatedKey after " + std::to_string(max_pages) + " pages";
  return out;
}

}  // namespace conformance
