// ListTables paging (docs/behaviour.md §9): names ascending, Limit 1..100, ExclusiveStartTableName need not exist, and
// LastEvaluatedTableName only when more names remain (a look-ahead: the opposite of Query/Scan, where Limit
// reached exactly still yields a key). Against AWS the account may hold other tables, so every expectation
// is derived from one unpaged listing taken in the case itself; the suite's three tables share a unique
// prefix so that they are adjacent in name order.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "conformance/environment.h"
#include "conformance/expectations.h"

namespace conformance {
namespace {

struct Listing {
  std::vector<std::string> names;
  bool has_last = false;
  std::string last;
  std::string failure;
};

Listing List(const std::string& exclusive_start, int limit) {
  Json req;
  if (!exclusive_start.empty()) req.Set("ExclusiveStartTableName", exclusive_start);
  if (limit > 0) req.Set("Limit", limit);
  Response r = TheClient().Call("ListTables", req);
  Listing out;
  if (!r.ok()) {
    out.failure = r.Describe();
    return out;
  }
  // A live region may answer a final, empty page without TableNames at all (§9).
  if (const rapidjson::Value* names = Member(r.json, "TableNames")) {
    if (!names->IsArray()) {
      out.failure = "TableNames is not an array: " + r.body;
      return out;
    }
    for (const auto& n : names->GetArray()) out.names.push_back(n.IsString() ? n.GetString() : "<not a string>");
  }
  if (const rapidjson::Value* last = Member(r.json, "LastEvaluatedTableName")) {
    out.has_last = true;
    out.last = last->IsString() ? last->GetString() : "<not a string>";
  }
  return out;
}

// Every table name, following LastEvaluatedTableName with the largest Limit.
std::vector<std::string> AllNames(std::string* failure) {
  std::vector<std::string> all;
  std::string start;
  for (int page = 0; page < 1000; ++page) {
    Listing l = List(start, 100);
    if (!l.failure.empty()) {
      *failure = l.failure;
      return all;
    }
    all.insert(all.end(), l.names.begin(), l.names.end());
    if (!l.has_last) return all;
    start = l.last;
  }
  *failure = "ListTables never ended";
  return all;
}

class ListTables : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    prefix_ = new std::string(Tables().UniqueName("lt"));
    for (int i = 0; i < 3; ++i) {
      std::string name = *prefix_ + "-" + std::to_string(i);
      if (!Tables().CreateNamed(name, TableSpec{{"pk", "S"}, std::nullopt, {}}, &error_)) return;
      names_.push_back(name);
    }
  }
  static void TearDownTestSuite() {
    for (const auto& name : names_) {
      std::string error;
      Tables().Delete(name, &error);
    }
    names_.clear();
    delete prefix_;
    prefix_ = nullptr;
  }
  void SetUp() override { ASSERT_EQ(names_.size(), 3u) << error_; }

  static std::string* prefix_;
  static std::vector<std::string> names_;
  static std::string error_;
};
std::string* ListTables::prefix_ = nullptr;
std::vector<std::string> ListTables::names_;
std::string ListTables::error_;

TEST_F(ListTables, NamesAreAscendingAndIncludeOurs) {
  std::string failure;
  std::vector<std::string> all = AllNames(&failure);
  ASSERT_EQ(failure, "");
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "a name listed twice";
  for (const auto& n : names_) EXPECT_NE(std::find(all.begin(), all.end(), n), all.end()) << n;
}

TEST_F(ListTables, PagesOfTwoVisitEveryNameOnce) {
  std::string failure;
  std::vector<std::string> all = AllNames(&failure);
  ASSERT_EQ(failure, "");
  std::vector<std::string> paged;
  std::string start;
  for (int page = 0; page < 1000; ++page) {
    Listing l = List(start, 2);
    ASSERT_EQ(l.failure, "");
    ASSERT_LE(l.names.size(), 2u);
    paged.insert(paged.end(), l.names.begin(), l.names.end());
    // Look-ahead: a LastEvaluatedTableName exactly when names remain after this page.
    const bool more = paged.size() < all.size();
    EXPECT_EQ(l.has_last, more) << "after " << paged.size() << " of " << all.size() << " names";
    if (!l.has_last) break;
    ASSERT_FALSE(l.names.empty()) << "a LastEvaluatedTableName on an empty page";
    EXPECT_EQ(l.last, l.names.back());
    start = l.last;
  }
  EXPECT_EQ(paged, all);
}

TEST_F(ListTables, StartNameNeedNotExist) {
  std::string failure;
  std::vector<std::string> all = AllNames(&failure);
  ASSERT_EQ(failure, "");
  // The bare prefix is no table's name, and sorts right before "<prefix>-0".
  Listing l = List(*prefix_, 3);
  ASSERT_EQ(l.failure, "");
  EXPECT_EQ(l.names, names_);
  const bool more = all.back() != names_.back();
  EXPECT_EQ(l.has_last, more) << "LastEvaluatedTableName must be present exactly when names follow";
}

TEST_F(ListTables, LimitEqualToTheRemainingNamesGivesNoLastName) {
  // DYN-T "should have no LastEvaluatedTableName if the limit is large enough": ask for exactly the last
  // two names of the account.
  std::string failure;
  std::vector<std::string> all = AllNames(&failure);
  ASSERT_EQ(failure, "");
  ASSERT_GE(all.size(), 3u);
  Listing l = List(all[all.size() - 3], 2);
  ASSERT_EQ(l.failure, "");
  EXPECT_EQ(l.names, (std::vector<std::string>{all[all.size() - 2], all.back()}));
  EXPECT_FALSE(l.has_last) << "got LastEvaluatedTableName " << l.last;
}

TEST_F(ListTables, LimitOutOfRange) {
  EXPECT_TRUE(IsValidation(TheClient().Call("ListTables", R"({"Limit":101})"),
                           "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
                           "Member must have value less than or equal to 100"));
  EXPECT_TRUE(IsValidation(TheClient().Call("ListTables", R"({"Limit":0})"),
                           "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                           "Member must have value greater than or equal to 1"));
}

}  // namespace
}  // namespace conformance
