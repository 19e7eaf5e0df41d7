// PartiQL through HTTP (docs/partiql.md): SELECT planned as a Query or a Scan, pages followed by NextToken, writes,
// BatchExecuteStatement and ExecuteTransaction.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/base/utf8.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

class PartiqlTest : public ::testing::Test {
 protected:
  explicit PartiqlTest(TestServerOptions options = TestServerOptions()) : server_(options) {}

  void SetUp() override { ASSERT_EQ(200, server_.CreateTable("tab", "pk", "S", "sk", "N").status); }

  HttpResult Execute(const std::string& statement, const std::string& extra = "") {
    return server_.Call("ExecuteStatement", "{\"Statement\":" + Quoted(statement) + extra + "}");
  }

  void Ok(const std::string& statement, const std::string& extra = "") {
    HttpResult r = Execute(statement, extra);
    ASSERT_EQ(200, r.status) << statement << ": " << r.Describe();
  }

  // Partition p gets items sk = 0..count-1 with v = sk and a padding of pad bytes.
  void Fill(const std::string& p, int count, size_t pad = 0) {
    for (int i = 0; i < count; i++) {
      Ok("INSERT INTO tab VALUE {'pk': '" + p + "', 'sk': " + std::to_string(i) + ", 'v': " + std::to_string(i) +
         ", 'pad': '" + std::string(pad, 'x') + "'}");
    }
  }

  // Follows NextToken to the end; returns every item's "pk/sk" and counts the pages and empty pages.
  std::vector<std::string> ReadAll(const std::string& statement, const std::string& extra, int* pages = nullptr,
                                   int* empty_pages = nullptr, size_t* largest_page = nullptr) {
    std::vector<std::string> keys;
    std::string token;
    int page_count = 0, empty = 0;
    if (largest_page) *largest_page = 0;
    for (;;) {
      std::string more = extra;
      if (!token.empty()) more += ",\"NextToken\":" + Quoted(token);
      HttpResult r = Execute(statement, more);
      EXPECT_EQ(200, r.status) << r.Describe();
      if (r.status != 200) break;
      page_count++;
      const auto& items = r.json["Items"].GetArray();
      if (items.Empty()) empty++;
      if (largest_page) *largest_page = std::max<size_t>(*largest_page, items.Size());
      for (const auto& item : items) {
        keys.push_back(std::string(item["pk"]["S"].GetString()) + "/" + item["sk"]["N"].GetString());
      }
      if (!r.Has("NextToken")) break;
      token = r.json["NextToken"].GetString();
      EXPECT_LT(page_count, 10000);
      if (page_count >= 10000) break;
    }
    if (pages) *pages = page_count;
    if (empty_pages) *empty_pages = empty;
    return keys;
  }

  double Capacity(const std::string& statement) {
    HttpResult r = Execute(statement, ",\"ReturnConsumedCapacity\":\"TOTAL\"");
    EXPECT_EQ(200, r.status) << r.Describe();
    return r.json["ConsumedCapacity"]["CapacityUnits"].GetDouble();
  }

  TestServer server_;
};

void ExpectEachOnce(const std::vector<std::string>& keys, size_t expected) {
  std::set<std::string> unique(keys.begin(), keys.end());
  EXPECT_EQ(unique.size(), keys.size()) << "an item came twice";
  EXPECT_EQ(expected, keys.size());
}

TEST_F(PartiqlTest, SelectPinningThePartitionKeyReadsOnlyThatPartition) {
  Fill("small", 1);
  Fill("big", 40, 3000);  // 40 items of ~3 KB: a Scan would read ~120 KB
  // One partition of one small item read: half a unit (eventually consistent).
  EXPECT_EQ(0.5, Capacity("SELECT * FROM tab WHERE pk = 'small'"));
  EXPECT_EQ(0.5, Capacity("SELECT * FROM tab WHERE pk = 'small' AND v = 3"));
  EXPECT_EQ(1.0, Capacity("SELECT * FROM tab WHERE pk IN ['small', 'nothing']"));
  EXPECT_EQ(1.0, Capacity("SELECT * FROM tab WHERE pk = 'small' OR pk = 'nothing'"));
  // A branch that does not pin the key makes it a Scan of the whole table.
  EXPECT_LT(10.0, Capacity("SELECT * FROM tab WHERE pk = 'small' OR v = 3"));
  EXPECT_LT(10.0, Capacity("SELECT * FROM tab WHERE sk = 0"));
}

TEST_F(PartiqlTest, SortKeyPredicatesNarrowTheQueryRange) {
  Fill("a", 30);
  // Limit counts items inside the key range: the five items of the range come back in one page without a token.
  HttpResult r = Execute("SELECT * FROM tab WHERE pk = 'a' AND sk BETWEEN 10 AND 14", ",\"Limit\":10");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(5u, r.json["Items"].Size());
  EXPECT_FALSE(r.Has("NextToken"));
  r = Execute("SELECT * FROM tab WHERE pk = 'a' AND sk >= 28", ",\"Limit\":5");
  EXPECT_EQ(2u, r.json["Items"].Size());
  EXPECT_FALSE(r.Has("NextToken"));
}

TEST_F(PartiqlTest, EveryItemExactlyOnceAcrossPagesWithAndWithoutLimit) {
  Fill("a", 30);
  Fill("b", 25);
  Fill("c", 20);
  for (const std::string limit : {"", ",\"Limit\":7", ",\"Limit\":1"}) {
    SCOPED_TRACE(limit);
    ExpectEachOnce(ReadAll("SELECT * FROM tab", limit), 75);
    ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk = 'a'", limit), 30);
    ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk IN ['a', 'c', 'zz']", limit), 50);
    ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk = 'b' OR pk = 'c'", limit), 45);
    // The rest of the clause may name key attributes: a filter here, where Query's FilterExpression may not.
    ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk IN ['a', 'c'] AND sk >= 10", limit), 30);
  }
  int pages = 0;
  ReadAll("SELECT * FROM tab WHERE pk = 'a'", ",\"Limit\":7", &pages);
  EXPECT_EQ(5, pages);  // 7+7+7+7+2
}

TEST_F(PartiqlTest, LimitCountsEvaluatedItemsAcrossThePartitionsOfAPage) {
  Fill("x", 3);
  Fill("y", 3);
  HttpResult r = Execute("SELECT * FROM tab WHERE pk IN ['x', 'y']", ",\"Limit\":5");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(5u, r.json["Items"].Size());  // x's three, then two of y
  ASSERT_TRUE(r.Has("NextToken"));
  r = Execute("SELECT * FROM tab WHERE pk IN ['x', 'y']",
              ",\"Limit\":5,\"NextToken\":" + Quoted(r.json["NextToken"].GetString()));
  EXPECT_EQ(1u, r.json["Items"].Size());
  EXPECT_FALSE(r.Has("NextToken"));
}

// Partition p's items sk = from..to-1, as ReadAll names them.
std::vector<std::string> Keys(const std::string& p, int from, int to) {
  std::vector<std::string> keys;
  for (int i = from; i < to; i++) keys.push_back(p + "/" + std::to_string(i));
  return keys;
}

std::vector<std::string> Concat(std::vector<std::vector<std::string>> parts) {
  std::vector<std::string> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

TEST_F(PartiqlTest, SeveralPartitionsComeInPagesOfAtMostTenItems) {
  Fill("a", 30);
  Fill("b", 25);
  Fill("c", 20);
  Fill("d", 5);
  const std::vector<std::string> written_order = Concat({Keys("c", 0, 20), Keys("a", 0, 30), Keys("b", 0, 25)});
  int pages = 0;
  size_t largest = 0;
  for (const std::string limit : {"", ",\"Limit\":25", ",\"Limit\":10"}) {
    SCOPED_TRACE(limit);
    // The partitions in written order, each in sort-key order, every item once, at most 10 items a page.
    EXPECT_EQ(written_order,
              ReadAll("SELECT * FROM tab WHERE pk IN ['c', 'a', 'b']", limit, &pages, nullptr, &largest));
    EXPECT_EQ(10u, largest);
    EXPECT_LE(8, pages);
    EXPECT_EQ(written_order,
              ReadAll("SELECT * FROM tab WHERE pk = 'c' OR pk = 'a' OR pk = 'b'", limit, nullptr, nullptr, &largest));
    EXPECT_EQ(10u, largest);
  }
  // A smaller Limit cuts smaller pages.
  EXPECT_EQ(written_order,
            ReadAll("SELECT * FROM tab WHERE pk IN ['c', 'a', 'b']", ",\"Limit\":7", &pages, nullptr, &largest));
  EXPECT_EQ(7u, largest);
  EXPECT_LE(11, pages);
  // The 10 are evaluated items: the filter runs after them, so a page returns fewer.
  EXPECT_EQ(Concat({Keys("c", 15, 20), Keys("a", 15, 30), Keys("b", 15, 25)}),
            ReadAll("SELECT * FROM tab WHERE pk IN ['c', 'a', 'b'] AND v >= 15", "", &pages, nullptr, &largest));
  EXPECT_LE(8, pages);
  EXPECT_GE(10u, largest);
  // One partition is a Query like any other: Limit and the page size alone cut it.
  ReadAll("SELECT * FROM tab WHERE pk IN ['a']", "", &pages, nullptr, &largest);
  EXPECT_EQ(1, pages);
  EXPECT_EQ(30u, largest);
}

TEST_F(PartiqlTest, InListsAtMostFiftyPartitionKeyValues) {
  Fill("p7", 1);
  auto in = [](int values) {
    std::string list;
    for (int i = 0; i < values; i++) list += (i ? ", 'p" : "'p") + std::to_string(i) + "'";
    return "[" + list + "]";
  };
  ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk IN " + in(50), ""), 1);
  HttpResult r = Execute("SELECT * FROM tab WHERE pk IN " + in(51));
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("The IN operator is provided with too many operands; number of operands: 51", r.Message());
  r = Execute("SELECT * FROM tab WHERE v = 1 OR pk IN " + in(51));  // a Scan, but still 51 key values
  EXPECT_EQ("The IN operator is provided with too many operands; number of operands: 51", r.Message());
  // Another attribute may list up to 100.
  std::string hundred = "[0";
  for (int i = 1; i < 100; i++) hundred += ", " + std::to_string(i);
  EXPECT_EQ(200, Execute("SELECT * FROM tab WHERE pk = 'p7' AND v IN " + hundred + "]").status);
  EXPECT_EQ("The IN operator is provided with too many operands; number of operands: 101",
            Execute("SELECT * FROM tab WHERE pk = 'p7' AND v IN " + hundred + ", 100]").Message());
}

TEST_F(PartiqlTest, OrderByKeysAndResultOrder) {
  Fill("a", 12);
  std::vector<std::string> asc = ReadAll("SELECT * FROM tab WHERE pk = 'a' ORDER BY sk", ",\"Limit\":5");
  ASSERT_EQ(12u, asc.size());
  EXPECT_EQ("a/0", asc.front());
  EXPECT_EQ("a/2", asc[2]);  // numbers in numeric order, not text order
  EXPECT_EQ("a/11", asc.back());
  std::vector<std::string> desc = ReadAll("SELECT * FROM tab WHERE pk = 'a' ORDER BY sk DESC", ",\"Limit\":5");
  ASSERT_EQ(12u, desc.size());
  EXPECT_EQ("a/11", desc.front());
  EXPECT_EQ("a/0", desc.back());
  EXPECT_EQ("Must have WHERE clause in the statement when using ORDER BY clause.",
            Execute("SELECT * FROM tab ORDER BY sk").Message());
  EXPECT_EQ("Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.",
            Execute("SELECT * FROM tab WHERE v = 1 ORDER BY sk").Message());
  EXPECT_EQ("Variable reference v in ORDER BY clause must be part of the primary key",
            Execute("SELECT * FROM tab WHERE pk = 'a' ORDER BY v").Message());
}

TEST_F(PartiqlTest, OrderByTheSortKeyOrdersAcrossPartitions) {
  const std::map<std::string, int> sizes = {{"a", 12}, {"b", 7}, {"c", 15}};
  for (const auto& [p, n] : sizes) Fill(p, n);
  Fill("d", 3);
  // The expected order: the sort key (descending when asked), then the partitions in the order given by rank.
  auto expected = [&](bool descending, const std::vector<std::string>& rank, int min_v) {
    std::vector<std::pair<int, int>> order;  // (sk, rank)
    for (size_t r = 0; r < rank.size(); r++) {
      for (int i = min_v; i < sizes.at(rank[r]); i++) order.push_back({descending ? -i : i, static_cast<int>(r)});
    }
    std::sort(order.begin(), order.end());
    std::vector<std::string> keys;
    for (const auto& [sk, r] : order) keys.push_back(rank[r] + "/" + std::to_string(descending ? -sk : sk));
    return keys;
  };
  const std::string in = "SELECT * FROM tab WHERE pk IN ['b', 'c', 'a'] ";
  for (const std::string limit : {"", ",\"Limit\":4", ",\"Limit\":1"}) {
    SCOPED_TRACE(limit);
    size_t largest = 0;
    EXPECT_EQ(expected(false, {"b", "c", "a"}, 0), ReadAll(in + "ORDER BY sk", limit, nullptr, nullptr, &largest));
    EXPECT_GE(10u, largest);
    EXPECT_EQ(expected(true, {"b", "c", "a"}, 0), ReadAll(in + "ORDER BY sk DESC", limit));
    EXPECT_EQ(expected(false, {"c", "b", "a"}, 0), ReadAll(in + "ORDER BY sk, pk DESC", limit));
    EXPECT_EQ(expected(true, {"b", "c", "a"}, 6), ReadAll(in + "AND v >= 6 ORDER BY sk DESC", limit));
    EXPECT_EQ(expected(false, {"a", "b", "c"}, 0),
              ReadAll("SELECT * FROM tab WHERE pk = 'c' OR pk = 'a' OR pk = 'b' ORDER BY sk, pk", limit));
    // The partition key first: partition after partition, each in sort-key order.
    EXPECT_EQ(Concat({Keys("c", 0, 15), Keys("b", 0, 7), Keys("a", 0, 12)}), ReadAll(in + "ORDER BY pk DESC", limit));
  }
  // A projection without the keys is ordered all the same, and answers only what it names.
  HttpResult r = Execute("SELECT v FROM tab WHERE pk IN ['b', 'c', 'a'] ORDER BY sk DESC", ",\"Limit\":3");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_EQ(3u, r.json["Items"].Size());
  EXPECT_EQ(R"([{"v":{"N":"14"}},{"v":{"N":"13"}},{"v":{"N":"12"}}])", JsonText(r.json["Items"]));
}

TEST_F(PartiqlTest, OrderByAnIndexSortKeyWithTiesOrdersAcrossPartitions) {
  HttpResult r = server_.Call("CreateTable", R"({"TableName":"gtab","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"},
                              {"AttributeName":"n","AttributeType":"N"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "GlobalSecondaryIndexes":[{"IndexName":"byG","Projection":{"ProjectionType":"KEYS_ONLY"},
          "KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"n","KeyType":"RANGE"}]}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  for (int i = 0; i < 30; i++) {  // several entries of a partition share each n
    Ok("INSERT INTO gtab VALUE {'pk': 'p" + std::to_string(i) + "', 'g': '" + (i % 2 ? "y" : "x") +
       "', 'n': " + std::to_string(i % 5) + "}");
  }
  for (const bool descending : {false, true}) {
    SCOPED_TRACE(descending);
    const std::string statement =
        std::string("SELECT g, n, pk FROM \"gtab\".\"byG\" WHERE g IN ['y', 'x'] ORDER BY n") +
        (descending ? " DESC" : "");
    std::vector<std::pair<int, std::string>> order;  // (n, g) as answered
    std::set<std::string> keys;
    std::string token;
    for (int page = 0; page < 100; page++) {
      r = Execute(statement, ",\"Limit\":3" + (token.empty() ? "" : ",\"NextToken\":" + Quoted(token)));
      ASSERT_EQ(200, r.status) << r.Describe();
      for (const auto& item : r.json["Items"].GetArray()) {
        order.push_back({std::stoi(item["n"]["N"].GetString()), item["g"]["S"].GetString()});
        EXPECT_TRUE(keys.insert(item["pk"]["S"].GetString()).second) << "an entry came twice";
      }
      if (!r.Has("NextToken")) break;
      token = r.json["NextToken"].GetString();
    }
    EXPECT_EQ(30u, keys.size());
    // n in the order asked; among equal n, the partitions in written order: y, then x.
    for (size_t i = 1; i < order.size(); i++) {
      auto rank = [&](const std::pair<int, std::string>& e) {
        return std::make_pair(descending ? -e.first : e.first, e.second == "y" ? 0 : 1);
      };
      EXPECT_LE(rank(order[i - 1]), rank(order[i])) << i;
    }
  }
}

TEST_F(PartiqlTest, AFilterThatEmptiesPagesStillCarriesNextToken) {
  Fill("a", 40);
  int pages = 0, empty = 0;
  std::vector<std::string> keys =
      ReadAll("SELECT * FROM tab WHERE pk = 'a' AND v >= 35", ",\"Limit\":5", &pages, &empty);
  // The filter runs after Limit: pages of 5 evaluated items, the first seven with nothing to return; the eighth
  // stops at Limit without looking ahead, so a ninth, empty, page ends the read.
  EXPECT_EQ(5u, keys.size());
  EXPECT_EQ(9, pages);
  EXPECT_EQ(8, empty);
  keys = ReadAll("SELECT * FROM tab WHERE v = 39", ",\"Limit\":10", &pages, &empty);  // a Scan
  EXPECT_EQ(1u, keys.size());
  EXPECT_LE(3, empty);
}

TEST_F(PartiqlTest, NextTokenIsBoundToTheStatementAndItsParameters) {
  Fill("a", 10);
  HttpResult first = Execute("SELECT * FROM tab WHERE pk = ?", ",\"Parameters\":[{\"S\":\"a\"}],\"Limit\":3");
  ASSERT_TRUE(first.Has("NextToken")) << first.Describe();
  std::string token = ",\"NextToken\":" + Quoted(first.json["NextToken"].GetString());
  HttpResult same = Execute("SELECT * FROM tab WHERE pk = ?", ",\"Parameters\":[{\"S\":\"a\"}],\"Limit\":3" + token);
  EXPECT_EQ(200, same.status) << same.Describe();
  HttpResult other = Execute("SELECT * FROM tab WHERE pk = ?", ",\"Parameters\":[{\"S\":\"b\"}]" + token);
  EXPECT_EQ("ValidationException", other.ErrorName());
  EXPECT_EQ("NextToken does not match request", other.Message());
  other = Execute("SELECT * FROM tab", token);
  EXPECT_EQ("NextToken does not match request", other.Message());
  EXPECT_EQ("Invalid NextToken", Execute("SELECT * FROM tab", ",\"NextToken\":\"bm9wZQ==\"").Message());
}

class PartiqlSmallPageTest : public PartiqlTest {
 protected:
  static TestServerOptions SmallPages() {
    TestServerOptions o;
    o.max_page_bytes = 2000;
    return o;
  }
  PartiqlSmallPageTest() : PartiqlTest(SmallPages()) {}
};

TEST_F(PartiqlSmallPageTest, PagesStopAtMaxPageBytes) {
  Fill("a", 20, 300);
  Fill("b", 20, 300);
  int pages = 0;
  ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk IN ['a', 'b']", "", &pages), 40);
  EXPECT_LE(6, pages);  // ~330 bytes an item, 2,000 bytes a page
  ExpectEachOnce(ReadAll("SELECT * FROM tab", "", &pages), 40);
  EXPECT_LE(6, pages);
  ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk = 'b'", ",\"Limit\":4", &pages), 20);
  // A merged ORDER BY stops at the page size too, in order.
  std::vector<std::string> merged = ReadAll("SELECT * FROM tab WHERE pk IN ['a', 'b'] ORDER BY sk DESC", "", &pages);
  ASSERT_EQ(40u, merged.size());
  EXPECT_LE(6, pages);
  for (int i = 0; i < 20; i++) {
    EXPECT_EQ("a/" + std::to_string(19 - i), merged[2 * i]);
    EXPECT_EQ("b/" + std::to_string(19 - i), merged[2 * i + 1]);
  }
}

class PartiqlPageChaosTest : public PartiqlTest {
 protected:
  static TestServerOptions Chaos() {
    TestServerOptions o;
    o.bench.page_chaos_seed = 7;  // --page-chaos 7: pages cut at other legal points (docs/testing-pagination.md)
    return o;
  }
  PartiqlPageChaosTest() : PartiqlTest(Chaos()) {}
};

TEST_F(PartiqlPageChaosTest, NextTokenPagesStayExactlyOnceUnderPageChaos) {
  Fill("a", 30);
  Fill("b", 25);
  int pages = 0;
  for (const std::string limit : {"", ",\"Limit\":9"}) {
    SCOPED_TRACE(limit);
    ExpectEachOnce(ReadAll("SELECT * FROM tab", limit, &pages), 55);
    EXPECT_LT(3, pages);  // cut short where a page would have held everything
    ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk = 'a'", limit), 30);
    ExpectEachOnce(ReadAll("SELECT * FROM tab WHERE pk IN ['b', 'a'] AND v < 20", limit), 40);
  }
}

TEST_F(PartiqlTest, ProjectionNamesEachPathAfterItsLastStep) {
  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 1, 'm': {'k': {'z': 'deep'}}, 'tags': ['x', 'y'], 'n': 5}");
  HttpResult r = Execute("SELECT n, m.k.z, tags[1], nothing FROM tab WHERE pk = 'a'");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"n":{"N":"5"},"tags[1]":{"S":"y"},"z":{"S":"deep"}}])"), JsonText(r.json["Items"]));
  r = Execute("SELECT nothing FROM tab WHERE pk = 'a'");
  EXPECT_EQ("[{}]", JsonText(r.json["Items"]));
}

TEST_F(PartiqlTest, ParametersAndLiterals) {
  Ok("INSERT INTO tab VALUE {'pk': ?, 'sk': ?, 'b': ?, 'n': -1.5e2}",
     R"(,"Parameters":[{"S":"p"},{"N":"1"},{"B":"AAE="}])");
  HttpResult r = Execute("SELECT * FROM tab WHERE pk = 'p' AND sk = 1");
  EXPECT_EQ(Canonical(R"([{"b":{"B":"AAE="},"n":{"N":"-150"},"pk":{"S":"p"},"sk":{"N":"1"}}])"),
            JsonText(r.json["Items"]));
  EXPECT_EQ("Number of parameters in request and statement don't match.",
            Execute("SELECT * FROM tab WHERE pk = ?").Message());
  EXPECT_EQ("Number of parameters in request and statement don't match.",
            Execute("SELECT * FROM tab WHERE pk = ?", R"(,"Parameters":[{"S":"a"},{"S":"b"}])").Message());
  r = Execute("SELECT * FROM tab", R"(,"Limit":0)");
  EXPECT_EQ(
      "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value "
      "greater than or equal to 1",
      r.Message());
}

TEST_F(PartiqlTest, InsertRefusesADuplicateKey) {
  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 1, 'v': 'first'}");
  HttpResult r = Execute("INSERT INTO tab VALUE {'pk': 'a', 'sk': 1, 'v': 'second'}");
  EXPECT_EQ(400, r.status);
  EXPECT_EQ("DuplicateItemException", r.ErrorName());
  EXPECT_EQ("Duplicate primary key exists in table", r.Message());
  r = Execute("SELECT v FROM tab WHERE pk = 'a' AND sk = 1");
  EXPECT_EQ(Canonical(R"([{"v":{"S":"first"}}])"), JsonText(r.json["Items"]));
  EXPECT_EQ("Key attribute should be present in the item: Key sk",
            Execute("INSERT INTO tab VALUE {'pk': 'a'}").Message());
  EXPECT_EQ("Key attribute's data type should match its data type in table's schema: Key sk",
            Execute("INSERT INTO tab VALUE {'pk': 'a', 'sk': 'x'}").Message());
  EXPECT_EQ("ResourceNotFoundException", Execute("INSERT INTO nope VALUE {'pk': 'a'}").ErrorName());
}

TEST_F(PartiqlTest, UpdateIsNotAnUpsert) {
  HttpResult r = Execute("UPDATE tab SET v = 1 WHERE pk = 'a' AND sk = 1");
  EXPECT_EQ("ConditionalCheckFailedException", r.ErrorName());
  EXPECT_EQ("The conditional request failed", r.Message());
  EXPECT_EQ("[]", JsonText(Execute("SELECT * FROM tab").json["Items"]));

  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 1, 'v': 1, 'l': [1], 'gone': 'x', 'm': {'k': 'v'}}");
  r = Execute(
      "UPDATE tab SET v = v + 2 SET l = list_append(l, [2]), m.k = 'w' REMOVE gone WHERE pk = 'a' AND sk = 1 "
      "RETURNING ALL NEW *");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"l":{"L":[{"N":"1"},{"N":"2"}]},"m":{"M":{"k":{"S":"w"}}},"pk":{"S":"a"},"sk":{"N":"1"},
                          "v":{"N":"3"}}])"),
            JsonText(r.json["Items"]));
  r = Execute("UPDATE tab SET m.k = 'z' WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED OLD *");
  EXPECT_EQ(Canonical(R"([{"m":{"M":{"k":{"S":"w"}}}}])"), JsonText(r.json["Items"]));
  r = Execute("UPDATE tab SET fresh = 1 WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED OLD *");
  EXPECT_EQ("[]", JsonText(r.json["Items"]));
  // The rest of the WHERE clause is a condition on the item.
  r = Execute("UPDATE tab SET v = 100 WHERE pk = 'a' AND sk = 1 AND v > 50",
              R"(,"ReturnValuesOnConditionCheckFailure":"ALL_OLD")");
  EXPECT_EQ("ConditionalCheckFailedException", r.ErrorName());
  EXPECT_EQ(R"({"N":"3"})", JsonText(r.json["Item"]["v"]));
  EXPECT_EQ("Where clause does not contain a mandatory equality on all key attributes",
            Execute("UPDATE tab SET v = 1 WHERE pk = 'a'").Message());
  EXPECT_EQ("Where clause does not contain a mandatory equality on all key attributes",
            Execute("UPDATE tab SET v = 1 WHERE pk = 'a' AND sk IN [1, 2]").Message());
}

TEST_F(PartiqlTest, OverlappingUpdatePathsAreRefusedInPartiqlWording) {
  Fill("a", 1);
  // DynamoDB's PartiQL gives the reason alone, without UpdateExpression's "Invalid UpdateExpression: ".
  HttpResult r = Execute("UPDATE tab SET v = 1 REMOVE v WHERE pk = 'a' AND sk = 0");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(
      "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [v], "
      "path two: [v]",
      r.Message());
  r = Execute("UPDATE tab SET m.k = 1 SET m[0] = 2 WHERE pk = 'a' AND sk = 0");
  EXPECT_EQ(
      "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: "
      "[m, k], path two: [m, [0]]",
      r.Message());
}

TEST_F(PartiqlTest, ArithmeticWithAConstantThatIsNoNumberIsAnOperandOfTheWrongType) {
  Fill("a", 1);
  // DynamoDB's PartiQL words a constant that is no number as an attribute that is none, found when applied:
  // not the UpdateExpression's "Invalid UpdateExpression: Incorrect operand type ...".
  const std::string kWrongType = "An operand in the update expression has an incorrect data type";
  for (const std::string& statement : {std::string("UPDATE tab SET v = v + 'x' WHERE pk = 'a' AND sk = 0"),
                                       std::string("UPDATE tab SET v = [1] - v WHERE pk = 'a' AND sk = 0"),
                                       std::string("UPDATE tab SET v = pad + 1 WHERE pk = 'a' AND sk = 0")}) {
    HttpResult r = Execute(statement);
    EXPECT_EQ("ValidationException", r.ErrorName()) << statement;
    EXPECT_EQ(kWrongType, r.Message()) << statement;
  }
  HttpResult r = Execute("UPDATE tab SET v = v + ? WHERE pk = 'a' AND sk = 0", R"(,"Parameters":[{"S":"x"}])");
  EXPECT_EQ(kWrongType, r.Message());
  Ok("UPDATE tab SET v = v + ? WHERE pk = 'a' AND sk = 0", R"(,"Parameters":[{"N":"2"}])");
  Ok("UPDATE tab SET v = 5 - v WHERE pk = 'a' AND sk = 0");
  EXPECT_EQ(Canonical(R"([{"v":{"N":"3"}}])"), JsonText(Execute("SELECT v FROM tab WHERE pk = 'a'").json["Items"]));
}

TEST_F(PartiqlTest, DeleteOfAMissingItemIsNoError) {
  HttpResult r = Execute("DELETE FROM tab WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("[]", JsonText(r.json["Items"]));
  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 1, 'v': 1}");
  r = Execute("DELETE FROM tab WHERE pk = 'a' AND sk = 1 AND v = 2");
  EXPECT_EQ("ConditionalCheckFailedException", r.ErrorName());
  r = Execute("DELETE FROM tab WHERE pk = 'a' AND sk = 1 AND v = 1 RETURNING ALL OLD *");
  EXPECT_EQ(Canonical(R"([{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"N":"1"}}])"), JsonText(r.json["Items"]));
  EXPECT_EQ("[]", JsonText(Execute("SELECT * FROM tab").json["Items"]));
}

TEST_F(PartiqlTest, WritesMaintainIndexesAndIndexesCanBeRead) {
  HttpResult r = server_.Call("CreateTable", R"({"TableName":"gtab","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"c","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "GlobalSecondaryIndexes":[{"IndexName":"byC","KeySchema":[{"AttributeName":"c","KeyType":"HASH"}],
                                 "Projection":{"ProjectionType":"KEYS_ONLY"}}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  Ok("INSERT INTO gtab VALUE {'pk': 'a', 'c': 'red', 'x': 1}");
  Ok("INSERT INTO gtab VALUE {'pk': 'b', 'c': 'red', 'x': 2}");
  r = Execute("SELECT * FROM \"gtab\".\"byC\" WHERE c = 'red'");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(2u, r.json["Items"].Size());
  Ok("UPDATE gtab SET c = 'blue' WHERE pk = 'a'");
  Ok("DELETE FROM gtab WHERE pk = 'b'");
  EXPECT_EQ(0u, Execute("SELECT * FROM \"gtab\".\"byC\" WHERE c = 'red'").json["Items"].Size());
  EXPECT_EQ(1u, Execute("SELECT pk FROM \"gtab\".\"byC\" WHERE c = 'blue'").json["Items"].Size());
  EXPECT_EQ("One or more parameter values were invalid: Global secondary index byC does not project [x]",
            Execute("SELECT x FROM \"gtab\".\"byC\"").Message());
  EXPECT_EQ("The table does not have the specified index", Execute("SELECT * FROM \"gtab\".\"nope\"").Message());
  // Filtering on what the index does not hold: refused on a keyed read, nothing matched on a scan of it.
  EXPECT_EQ(
      "One or more parameter values were invalid: Secondary index byC does not project one or more filter "
      "attributes: [x]",
      Execute("SELECT * FROM \"gtab\".\"byC\" WHERE c = 'blue' AND x = 1").Message());
  r = Execute("SELECT * FROM \"gtab\".\"byC\" WHERE c = 'blue' OR x = 1");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(1u, r.json["Items"].Size());  // the blue entry; x is not in any entry
  EXPECT_EQ("Strongly consistent read is not supported on Global Secondary Indexes",
            Execute("SELECT * FROM \"gtab\".\"byC\"", R"(,"ConsistentRead":true)").Message());
  EXPECT_EQ("ResourceNotFoundException", Execute("SELECT * FROM \"nope\".\"byC\"").ErrorName());
}

TEST_F(PartiqlTest, BatchAnswersEachStatementOnItsOwn) {
  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 1, 'v': 1}");
  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 2, 'v': 1}");
  HttpResult r = server_.Call("BatchExecuteStatement", R"({"Statements":[
      {"Statement":"INSERT INTO tab VALUE {'pk': 'a', 'sk': 1}"},
      {"Statement":"INSERT INTO tab VALUE {'pk': 'b', 'sk': 1}"},
      {"Statement":"UPDATE tab SET v = 2 WHERE pk = 'c' AND sk = 1"},
      {"Statement":"DELETE FROM tab WHERE pk = ? AND sk = 2 RETURNING ALL OLD *","Parameters":[{"S":"a"}]},
      {"Statement":"SELEC nothing"}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  const auto& responses = r.json["Responses"];
  ASSERT_EQ(5u, responses.Size());
  EXPECT_EQ(Canonical(R"({"Error":{"Code":"DuplicateItem","Message":"Duplicate primary key exists in table"},
                          "TableName":"tab"})"),
            JsonText(responses[0]));
  EXPECT_EQ(R"({"TableName":"tab"})", JsonText(responses[1]));
  EXPECT_EQ("ConditionalCheckFailed", std::string(responses[2]["Error"]["Code"].GetString()));
  EXPECT_EQ(Canonical(R"({"TableName":"tab","Item":{"pk":{"S":"a"},"sk":{"N":"2"},"v":{"N":"1"}}})"),
            JsonText(responses[3]));
  EXPECT_EQ("ValidationError", std::string(responses[4]["Error"]["Code"].GetString()));
  EXPECT_FALSE(responses[4].HasMember("TableName"));

  r = server_.Call("BatchExecuteStatement", R"({"Statements":[
      {"Statement":"SELECT * FROM tab WHERE pk = 'b' AND sk = 1"},
      {"Statement":"SELECT v FROM tab WHERE pk = 'zz' AND sk = 1"},
      {"Statement":"SELECT * FROM tab WHERE pk = 'b'"}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"TableName":"tab","Item":{"pk":{"S":"b"},"sk":{"N":"1"}}})"),
            JsonText(r.json["Responses"][0]));
  EXPECT_EQ(R"({"TableName":"tab"})", JsonText(r.json["Responses"][1]));
  EXPECT_EQ("Select statements within BatchExecuteStatement must specify the primary key in the where clause.",
            std::string(r.json["Responses"][2]["Error"]["Message"].GetString()));

  EXPECT_EQ("Read and write requests together in the same batch is not supported.",
            server_
                .Call("BatchExecuteStatement", R"({"Statements":[
                {"Statement":"SELECT * FROM tab WHERE pk = 'b' AND sk = 1"},
                {"Statement":"DELETE FROM tab WHERE pk = 'b' AND sk = 1"}]})")
                .Message());
  EXPECT_EQ("Provided list of item keys contains duplicates", server_
                                                                  .Call("BatchExecuteStatement", R"({"Statements":[
                {"Statement":"INSERT INTO tab VALUE {'pk': 'q', 'sk': 1}"},
                {"Statement":"DELETE FROM tab WHERE pk = 'q' AND sk = 1"}]})")
                                                                  .Message());
}

TEST_F(PartiqlTest, BatchErrorsQuotingTheStatementAreValidUtf8) {
  // Found by the http_request fuzzer: a statement error listed in BatchExecuteStatement's 200 answer quoted one
  // byte of a two-byte character, and the answer was not UTF-8.
  HttpResult r = server_.Call("BatchExecuteStatement",
                              "{\"Statements\":[{\"Statement\":\"SELECT\xDA\x8C\xDF\xB9ROM tab WHERE pk = 'a'\"}]}");
  ASSERT_EQ(200, r.status) << r.Describe();
  ASSERT_TRUE(IsValidUtf8(r.body)) << r.body;
  EXPECT_EQ("Statement wasn't well formed, can't be processed: Unexpected character '\xDA\x8C' at 1:7",
            std::string(r.json["Responses"][0]["Error"]["Message"].GetString()));
}

TEST_F(PartiqlTest, BatchChargesWritesThatFailedTheirConditionToTheTotalOnly) {
  Fill("a", 2);
  ASSERT_EQ(200, server_.CreateTable("other", "pk", "S").status);
  Ok("INSERT INTO other VALUE {'pk': 'x'}");
  std::string statements;
  for (const char* text : {
           "UPDATE tab SET v = 7 WHERE pk = 'a' AND sk = 0",
           "UPDATE tab SET v = 7 WHERE pk = 'a' AND sk = 99",       // no such item
           "INSERT INTO tab VALUE {'pk': 'a', 'sk': 1}",            // a duplicate
           "DELETE FROM tab WHERE pk = 'zz' AND sk = 1 AND v = 1",  // missing: no condition fails
           "INSERT INTO other VALUE {'pk': 'x'}",                   // all of other's fail
       }) {
    statements += std::string(statements.empty() ? "" : ",") + "{\"Statement\":" + Quoted(text) + "}";
  }
  HttpResult r = server_.Call("BatchExecuteStatement",
                              "{\"ReturnConsumedCapacity\":\"INDEXES\",\"Statements\":[" + statements + "]}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("ConditionalCheckFailed", std::string(r.json["Responses"][1]["Error"]["Code"].GetString()));
  EXPECT_EQ("DuplicateItem", std::string(r.json["Responses"][2]["Error"]["Code"].GetString()));
  EXPECT_EQ("DuplicateItem", std::string(r.json["Responses"][4]["Error"]["Code"].GetString()));
  ASSERT_EQ(1u, r.json["ConsumedCapacity"].Size()) << r.Describe();
  const auto& tab = r.json["ConsumedCapacity"][0];
  EXPECT_EQ("tab", std::string(tab["TableName"].GetString()));
  EXPECT_EQ(4.0, tab["CapacityUnits"].GetDouble());           // two writes done, two failed
  EXPECT_EQ(2.0, tab["Table"]["CapacityUnits"].GetDouble());  // the failed ones on no arm
}

TEST_F(PartiqlTest, TransactionIsAllOrNothingWithReasonsInStatementOrder) {
  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 1, 'v': 1}");
  Ok("INSERT INTO tab VALUE {'pk': 'a', 'sk': 2}");
  HttpResult r = server_.Call("ExecuteTransaction", R"({"TransactStatements":[
      {"Statement":"INSERT INTO tab VALUE {'pk': 'new', 'sk': 1}"},
      {"Statement":"UPDATE tab SET v = 5 WHERE pk = 'a' AND sk = 1 AND v = 99",
       "ReturnValuesOnConditionCheckFailure":"ALL_OLD"},
      {"Statement":"INSERT INTO tab VALUE {'pk': 'a', 'sk': 2}"}]})");
  EXPECT_EQ("TransactionCanceledException", r.ErrorName());
  EXPECT_EQ(
      "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
      "ConditionalCheckFailed, ValidationError]",
      r.Message());
  EXPECT_EQ(Canonical(R"([{"Code":"None"},
      {"Code":"ConditionalCheckFailed","Message":"The conditional request failed",
       "Item":{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"N":"1"}}},
      {"Code":"ValidationError","Message":"Duplicate primary key exists in table"}])"),
            JsonText(r.json["CancellationReasons"]));
  EXPECT_EQ(2u, Execute("SELECT * FROM tab").json["Items"].Size());  // nothing written

  // EXISTS is a condition check; the token makes the call idempotent.
  std::string ok = R"J({"ClientRequestToken":"tok-1","TransactStatements":[
      {"Statement":"EXISTS(SELECT * FROM tab WHERE pk = 'a' AND sk = 1 AND v = 1)"},
      {"Statement":"UPDATE tab SET v = v + 1 WHERE pk = 'b' AND sk = 1"},
      {"Statement":"INSERT INTO tab VALUE {'pk': 'b', 'sk': 2}"}]})J";
  r = server_.Call("ExecuteTransaction", ok);
  EXPECT_EQ("TransactionCanceledException", r.ErrorName());  // b/1 does not exist
  Ok("INSERT INTO tab VALUE {'pk': 'b', 'sk': 1, 'v': 10}");
  r = server_.Call("ExecuteTransaction", ok);
  ASSERT_EQ(200, r.status) << r.Describe();
  r = server_.Call("ExecuteTransaction", ok);  // replayed, not run again
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"([{"v":{"N":"11"}}])", JsonText(Execute("SELECT v FROM tab WHERE pk = 'b' AND sk = 1").json["Items"]));
  r = server_.Call("ExecuteTransaction", R"({"ClientRequestToken":"tok-1","TransactStatements":[
      {"Statement":"DELETE FROM tab WHERE pk = 'b' AND sk = 1"}]})");
  EXPECT_EQ("IdempotentParameterMismatchException", r.ErrorName());

  r = server_.Call("ExecuteTransaction", R"({"TransactStatements":[
      {"Statement":"SELECT * FROM tab WHERE pk = 'b' AND sk = 1"},
      {"Statement":"SELECT v FROM tab WHERE pk = 'zz' AND sk = 1"},
      {"Statement":"SELECT nothing FROM tab WHERE pk = 'a' AND sk = 1"}]})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"Item":{"pk":{"S":"b"},"sk":{"N":"1"},"v":{"N":"11"}}},{},{"Item":{}}])"),
            JsonText(r.json["Responses"]));
}

TEST_F(PartiqlTest, TransactionTokenIsAtMost36Characters) {
  const std::string statements =
      R"({"TransactStatements":[{"Statement":"INSERT INTO tab VALUE {'pk': 'a', 'sk': 1}"}])";
  HttpResult r =
      server_.Call("ExecuteTransaction", statements + R"(,"ClientRequestToken":")" + std::string(37, 't') + "\"}");
  EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("at 'clientRequestToken' failed to satisfy constraint: Member must "
                                                "have length less than or equal to 36"))
      << r.Describe();
  EXPECT_EQ("[]", JsonText(Execute("SELECT * FROM tab").json["Items"]));  // nothing written
  r = server_.Call("ExecuteTransaction", statements + R"(,"ClientRequestToken":")" + std::string(36, 't') + "\"}");
  EXPECT_EQ(200, r.status) << r.Describe();
}

TEST_F(PartiqlTest, TransactionRefusals) {
  auto tx = [&](const std::string& statements) {
    return server_.Call("ExecuteTransaction", "{\"TransactStatements\":[" + statements + "]}").Message();
  };
  EXPECT_EQ("ExecuteTransaction API does not support both read and write operations in the same request.",
            tx(R"({"Statement":"SELECT * FROM tab WHERE pk = 'a' AND sk = 1"},
                  {"Statement":"DELETE FROM tab WHERE pk = 'b' AND sk = 1"})"));
  EXPECT_EQ("Validation failed in TransactStatements[1]: RETURNING clause is not supported in ExecuteTransaction.",
            tx(R"({"Statement":"DELETE FROM tab WHERE pk = 'a' AND sk = 1"},
                  {"Statement":"DELETE FROM tab WHERE pk = 'b' AND sk = 1 RETURNING ALL OLD *"})"));
  EXPECT_EQ(
      "Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify "
      "the primary key in the where clause.",
      tx(R"({"Statement":"SELECT * FROM tab WHERE pk = 'a'"})"));
  EXPECT_EQ(
      "Validation failed in TransactStatements[0]: EXISTS() must contain a single item read with additional "
      "condition",
      tx(R"J({"Statement":"EXISTS(SELECT * FROM tab WHERE pk = 'a' AND sk = 1)"})J"));
  EXPECT_EQ("Transaction request cannot include multiple operations on one item",
            tx(R"({"Statement":"DELETE FROM tab WHERE pk = 'a' AND sk = 1"},
                  {"Statement":"UPDATE tab SET v = 1 WHERE pk = 'a' AND sk = 1"})"));
  EXPECT_EQ("EXISTS can only be used in ExecuteTransaction write requests.",
            Execute("EXISTS(SELECT * FROM tab WHERE pk = 'a' AND sk = 1 AND v = 1)").Message());
}

}  // namespace
}  // namespace dynapage
