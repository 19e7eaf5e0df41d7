// Model-based pagination over a multi-attribute GSI (issue 25, docs/multi-attribute-keys.md): random items with
// heavy ties on every key attribute (and some lacking a component), random partitions, RANGE prefixes and last
// conditions in random textual order (or as legacy KeyConditions), random Limit, direction and filter, with a page
// size limit of a few KB, and page chaos for half the seeds. Every page is followed through LastEvaluatedKey; the items
// read must be exactly the model's, in the model's order: the RANGE tuple (each component by its type), then the table
// key. Scans, sequential and parallel, must cover every indexed item exactly once.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tests/http/index_test_util.h"

namespace dynapage {
namespace {

using Strings = std::vector<std::string>;

// The value sets: few, so that every component ties often. N as (milli, wire text), B as (bytes, base64).
const std::vector<std::string> kH1 = {"x", "y"};
const std::vector<std::pair<long, std::string>> kH2 = {{1000, "1"}, {2000, "2.0"}};
const std::vector<std::pair<long, std::string>> kR1 = {{-1500, "-1.5"}, {0, "0"}, {10000, "1E1"}};
const std::vector<std::string> kR2 = {"a", "ab", "b"};
const std::vector<std::pair<std::string, std::string>> kR3 = {
    {std::string("\x00", 1), "AA=="}, {std::string("\x01\x00", 2), "AQA="}, {"\x01", "AQ=="}};
// Prefixes for begins_with: on r2 and on r3.
const std::vector<std::string> kR2Prefixes = {"a", "ab", "b", "c"};
const std::vector<std::pair<std::string, std::string>> kR3Prefixes = {
    {"\x01", "AQ=="}, {std::string("\x00", 1), "AA=="}, {std::string("\x01\x00", 2), "AQA="}};

// Component indexes into the value sets; -1: absent.
struct Item {
  std::string pk;
  int sk = 0;  // 0..9, sent as the S "0".."9" (a string sort key lets page chaos end pages between entries)
  int h1 = -1, h2 = -1, r1 = -1, r2 = -1, r3 = -1;
  int f = 0;
  size_t padding = 0;
  bool Indexed() const { return h1 >= 0 && h2 >= 0 && r1 >= 0 && r2 >= 0 && r3 >= 0; }
  std::string Id() const { return pk + "/" + std::to_string(sk); }
};

// The index order: r1 by number, r2 and r3 by bytes, then pk by bytes and sk by number.
bool IndexLess(const Item& a, const Item& b) {
  auto key = [](const Item& i) { return std::make_tuple(kR1[i.r1].first, kR2[i.r2], kR3[i.r3].first, i.pk, i.sk); };
  return key(a) < key(b);
}

enum class Op { kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };

struct ModelQuery {
  int h1 = 0, h2 = 0;
  int prefix = 0;            // how many RANGE components are constrained (0..3)
  std::vector<int> equal;    // values of the first prefix-1 components
  Op op = Op::kEq;           // on component prefix-1
  int lower = 0, upper = 0;  // value indexes (begins_with: a prefix index)
  bool forward = true;
  int limit = 0;                    // 0: none
  std::optional<int> filter_below;  // FilterExpression f < value
  bool legacy = false;
};

// -1, 0, 1 comparing component c of item (by value index v) with value index w of the same component.
int CompareComponent(int c, int v, int w) {
  if (c == 0) return kR1[v].first < kR1[w].first ? -1 : kR1[v].first > kR1[w].first;
  if (c == 1) return kR2[v].compare(kR2[w]) < 0 ? -1 : kR2[v] != kR2[w];
  return kR3[v].first < kR3[w].first ? -1 : kR3[v].first != kR3[w].first;
}

int ComponentOf(const Item& i, int c) { return c == 0 ? i.r1 : c == 1 ? i.r2 : i.r3; }

bool Matches(const ModelQuery& q, const Item& i) {
  if (!i.Indexed() || i.h1 != q.h1 || i.h2 != q.h2) return false;
  for (size_t c = 0; c < q.equal.size(); c++) {
    if (CompareComponent(static_cast<int>(c), ComponentOf(i, static_cast<int>(c)), q.equal[c]) != 0) return false;
  }
  if (q.prefix > 0) {
    int c = q.prefix - 1;
    int v = ComponentOf(i, c);
    switch (q.op) {
      case Op::kEq:
        if (CompareComponent(c, v, q.lower) != 0) return false;
        break;
      case Op::kLt:
        if (CompareComponent(c, v, q.lower) >= 0) return false;
        break;
      case Op::kLe:
        if (CompareComponent(c, v, q.lower) > 0) return false;
        break;
      case Op::kGt:
        if (CompareComponent(c, v, q.lower) <= 0) return false;
        break;
      case Op::kGe:
        if (CompareComponent(c, v, q.lower) < 0) return false;
        break;
      case Op::kBetween:
        if (CompareComponent(c, v, q.lower) < 0 || CompareComponent(c, v, q.upper) > 0) return false;
        break;
      case Op::kBeginsWith: {
        const std::string& value = c == 1 ? kR2[v] : kR3[v].first;
        const std::string& prefix = c == 1 ? kR2Prefixes[q.lower] : kR3Prefixes[q.lower].first;
        if (value.compare(0, prefix.size(), prefix) != 0) return false;
        break;
      }
    }
  }
  return !q.filter_below || i.f < *q.filter_below;
}

// The wire value JSON of value index v of RANGE component c ("r1", "r2", "r3"), or of a begins_with prefix.
std::string ComponentValue(int c, int v, bool prefix = false) {
  if (c == 0) return R"({"N":")" + kR1[v].second + R"("})";
  if (c == 1) return R"({"S":")" + (prefix ? kR2Prefixes[v] : kR2[v]) + R"("})";
  return R"({"B":")" + (prefix ? kR3Prefixes[v].second : kR3[v].second) + R"("})";
}

const char* kRangeNames[] = {"r1", "r2", "r3"};

std::string QueryBody(std::mt19937& rng, const ModelQuery& q) {
  std::string body = R"({"TableName":"model","IndexName":"gsi")";
  body += std::string(R"(,"ScanIndexForward":)") + (q.forward ? "true" : "false");
  if (q.limit) body += R"(,"Limit":)" + std::to_string(q.limit);
  std::vector<std::pair<std::string, std::string>> terms;  // expression text, legacy member
  std::string values = R"(":h1":{"S":")" + kH1[q.h1] + R"("},":h2":{"N":")" + kH2[q.h2].second + R"("})";
  auto legacy = [](const std::string& name, const char* op, const std::string& list) {
    return "\"" + name + R"(":{"ComparisonOperator":")" + op + R"(","AttributeValueList":[)" + list + "]}";
  };
  terms.push_back({"h1 = :h1", legacy("h1", "EQ", R"({"S":")" + kH1[q.h1] + R"("})")});
  terms.push_back({"h2 = :h2", legacy("h2", "EQ", R"({"N":")" + kH2[q.h2].second + R"("})")});
  for (size_t c = 0; c < q.equal.size(); c++) {
    std::string name = kRangeNames[c], placeholder = ":e" + std::to_string(c);
    std::string value = ComponentValue(static_cast<int>(c), q.equal[c]);
    values += ",\"" + placeholder + "\":" + value;
    terms.push_back({name + " = " + placeholder, legacy(name, "EQ", value)});
  }
  if (q.prefix > 0) {
    int c = q.prefix - 1;
    std::string name = kRangeNames[c];
    std::string lower = ComponentValue(c, q.lower, q.op == Op::kBeginsWith), upper;
    values += R"(,":lo":)" + lower;
    if (q.op == Op::kBetween) {
      upper = ComponentValue(c, q.upper);
      values += R"(,":hi":)" + upper;
    }
    static const char* kText[] = {"=", "<", "<=", ">", ">="};
    static const char* kLegacy[] = {"EQ", "LT", "LE", "GT", "GE"};
    if (q.op == Op::kBetween) {
      terms.push_back({name + " BETWEEN :lo AND :hi", legacy(name, "BETWEEN", lower + "," + upper)});
    } else if (q.op == Op::kBeginsWith) {
      terms.push_back({"begins_with(" + name + ", :lo)", legacy(name, "BEGINS_WITH", lower)});
    } else {
      int op = static_cast<int>(q.op);
      terms.push_back({name + " " + kText[op] + " :lo", legacy(name, kLegacy[op], lower)});
    }
  }
  std::shuffle(terms.begin(), terms.end(), rng);
  if (q.legacy) {
    body += R"(,"KeyConditions":{)";
    for (size_t i = 0; i < terms.size(); i++) body += (i ? "," : "") + terms[i].second;
    body += "}";
    if (q.filter_below) {
      body += R"(,"QueryFilter":{"f":{"ComparisonOperator":"LT","AttributeValueList":[{"N":")" +
              std::to_string(*q.filter_below) + R"("}]}})";
    }
    return body + "}";
  }
  std::string text;
  for (size_t i = 0; i < terms.size(); i++) {
    bool parenthesised = rng() % 3 == 0;
    text += std::string(i ? " AND " : "") + (parenthesised ? "(" : "") + terms[i].first + (parenthesised ? ")" : "");
  }
  body += R"(,"KeyConditionExpression":")" + text + "\"";
  if (q.filter_below) {
    body += R"(,"FilterExpression":"f < :f")";
    values += R"(,":f":{"N":")" + std::to_string(*q.filter_below) + R"("})";
  }
  return body + R"(,"ExpressionAttributeValues":{)" + values + "}}";
}

ModelQuery RandomQuery(std::mt19937& rng) {
  auto below = [&](size_t n) { return static_cast<int>(rng() % n); };
  ModelQuery q;
  q.h1 = below(kH1.size());
  q.h2 = below(kH2.size());
  q.prefix = below(4);
  for (int c = 0; c + 1 < q.prefix; c++)
    q.equal.push_back(below(c == 0 ? kR1.size() : c == 1 ? kR2.size() : kR3.size()));
  if (q.prefix > 0) {
    int c = q.prefix - 1;
    size_t size = c == 0 ? kR1.size() : c == 1 ? kR2.size() : kR3.size();
    q.op = static_cast<Op>(below(c == 0 ? 6 : 7));  // begins_with only on S and B
    if (q.op == Op::kBeginsWith) {
      q.lower = below(c == 1 ? kR2Prefixes.size() : kR3Prefixes.size());
    } else {
      q.lower = below(size);
      q.upper = below(size);
      if (q.op == Op::kBetween && CompareComponent(c, q.lower, q.upper) > 0) std::swap(q.lower, q.upper);
    }
  }
  q.forward = rng() % 2 == 0;
  q.limit = rng() % 3 == 0 ? 0 : 1 + below(6);
  if (rng() % 4 == 0) q.filter_below = below(100);
  q.legacy = rng() % 5 == 0;
  return q;
}

class MultiAttributeKeyModelTest : public ::testing::TestWithParam<uint32_t> {
 protected:
  // Pages of at most 3000 bytes; with even seeds page chaos too (pages cut at other legal points,
  // docs/testing-pagination.md), which must not change what a client that follows LastEvaluatedKey reads.
  static TestServerOptions SmallPages(uint32_t seed) {
    TestServerOptions options;
    options.max_page_bytes = 3000;
    if (seed % 2 == 0) options.bench.page_chaos_seed = seed;
    return options;
  }
  MultiAttributeKeyModelTest() : server_(SmallPages(GetParam())) {}

  void SetUp() override {
    HttpResult r = server_.Call("CreateTable", R"({"TableName":"model","BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},
          {"AttributeName":"h1","AttributeType":"S"},{"AttributeName":"h2","AttributeType":"N"},
          {"AttributeName":"r1","AttributeType":"N"},{"AttributeName":"r2","AttributeType":"S"},
          {"AttributeName":"r3","AttributeType":"B"}],
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
        "GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"h1","KeyType":"HASH"},
          {"AttributeName":"h2","KeyType":"HASH"},{"AttributeName":"r1","KeyType":"RANGE"},
          {"AttributeName":"r2","KeyType":"RANGE"},{"AttributeName":"r3","KeyType":"RANGE"}],
          "Projection":{"ProjectionType":"ALL"}}]})");
    ASSERT_EQ(200, r.status) << r.Describe();
    std::mt19937 rng(GetParam());
    std::set<std::string> ids;
    auto below = [&](size_t n) { return static_cast<int>(rng() % n); };
    auto maybe = [&](size_t n) { return rng() % 14 == 0 ? -1 : below(n); };  // a component absent now and then
    while (items_.size() < 260) {
      Item i;
      i.pk = "p" + std::to_string(below(40));
      i.sk = below(10);
      if (!ids.insert(i.Id()).second) continue;
      i.h1 = maybe(kH1.size());
      i.h2 = maybe(kH2.size());
      i.r1 = maybe(kR1.size());
      i.r2 = maybe(kR2.size());
      i.r3 = maybe(kR3.size());
      i.f = below(100);
      i.padding = rng() % 4 == 0 ? 1000 + below(800) : below(200);
      std::string item = R"({"pk":{"S":")" + i.pk + R"("},"sk":{"S":")" + std::to_string(i.sk) + R"("},"f":{"N":")" +
                         std::to_string(i.f) + R"("},"d":{"S":")" + std::string(i.padding + 1, 'd') + R"("})";
      if (i.h1 >= 0) item += R"(,"h1":{"S":")" + kH1[i.h1] + R"("})";
      if (i.h2 >= 0) item += R"(,"h2":{"N":")" + kH2[i.h2].second + R"("})";
      if (i.r1 >= 0) item += R"(,"r1":)" + ComponentValue(0, i.r1);
      if (i.r2 >= 0) item += R"(,"r2":)" + ComponentValue(1, i.r2);
      if (i.r3 >= 0) item += R"(,"r3":)" + ComponentValue(2, i.r3);
      HttpResult put = server_.Call("PutItem", R"({"TableName":"model","Item":)" + item + "}}");
      ASSERT_EQ(200, put.status) << put.Describe();
      items_.push_back(i);
    }
  }

  // The ids of the items of every page, checking each page's shape on the way; "" in *error when all is well.
  Strings ReadIds(const std::string& op, const std::string& body, int limit, std::string* error) {
    std::vector<HttpResult> pages = ReadAllPages(server_, op, body);
    Strings ids;
    for (const HttpResult& page : pages) {
      if (page.status != 200) {
        *error = "page failed: " + page.Describe();
        return ids;
      }
      if (limit && page.json["ScannedCount"].GetInt() > limit) *error = "more than Limit: " + page.Describe();
      if (page.json["ScannedCount"].GetInt() == 0 && page.Has("LastEvaluatedKey")) evaluated_nothing_++;
      if (page.Has("LastEvaluatedKey") && page.json["LastEvaluatedKey"].MemberCount() != 7) {
        *error = "LastEvaluatedKey without every key attribute: " + LastKey(page);
      }
    }
    Strings pks = Values(pages, "pk"), sks = Values(pages, "sk");
    for (size_t i = 0; i < pks.size(); i++) ids.push_back(pks[i] + "/" + sks[i]);
    return ids;
  }

  TestServer server_;
  std::vector<Item> items_;
  int evaluated_nothing_ = 0;  // pages that evaluated no entry yet returned a LastEvaluatedKey: page chaos only
};

TEST_P(MultiAttributeKeyModelTest, QueriesReturnEveryMatchingItemOnceInTupleOrder) {
  std::mt19937 rng(GetParam() * 7919 + 1);
  int nonempty = 0, multi_page = 0;
  for (int n = 0; n < 80; n++) {
    ModelQuery q = RandomQuery(rng);
    std::vector<Item> expected;
    for (const Item& i : items_) {
      if (Matches(q, i)) expected.push_back(i);
    }
    std::sort(expected.begin(), expected.end(), IndexLess);
    if (!q.forward) std::reverse(expected.begin(), expected.end());
    Strings expected_ids;
    for (const Item& i : expected) expected_ids.push_back(i.Id());
    std::string body = QueryBody(rng, q), error;
    Strings ids = ReadIds("Query", body, q.limit, &error);
    ASSERT_EQ("", error) << body;
    ASSERT_EQ(expected_ids, ids) << "seed " << GetParam() << " query " << n << ": " << body;
    nonempty += !expected.empty();
    multi_page += expected.size() > 3;
  }
  EXPECT_GT(nonempty, 20);
  EXPECT_GT(multi_page, 5);
}

TEST_P(MultiAttributeKeyModelTest, ScansCoverEveryIndexedItemOnceInTupleOrderPerPartition) {
  std::set<std::string> indexed;
  std::map<std::string, const Item*> by_id;
  for (const Item& i : items_) {
    by_id[i.Id()] = &i;
    if (i.Indexed()) indexed.insert(i.Id());
  }
  for (int limit : {0, 3}) {
    std::string error;
    Strings ids = ReadIds("Scan",
                          std::string(R"({"TableName":"model","IndexName":"gsi")") +
                              (limit ? R"(,"Limit":)" + std::to_string(limit) : "") + "}",
                          limit, &error);
    ASSERT_EQ("", error);
    ASSERT_EQ(indexed.size(), ids.size());
    EXPECT_EQ(indexed, std::set<std::string>(ids.begin(), ids.end()));
    // Each partition's items together, in tuple order.
    std::set<std::pair<int, int>> finished;
    for (size_t k = 0; k < ids.size(); k++) {
      const Item& item = *by_id[ids[k]];
      std::pair<int, int> partition(item.h1, item.h2);
      ASSERT_EQ(0u, finished.count(partition)) << "partition seen again at " << k;
      if (k + 1 == ids.size()) break;
      const Item& next = *by_id[ids[k + 1]];
      if (std::make_pair(next.h1, next.h2) != partition) {
        finished.insert(partition);
      } else {
        ASSERT_TRUE(IndexLess(item, next)) << ids[k] << " before " << ids[k + 1];
      }
    }
  }
  Strings all;
  for (int segment = 0; segment < 3; segment++) {
    std::string error;
    Strings ids = ReadIds("Scan",
                          R"({"TableName":"model","IndexName":"gsi","Limit":4,"TotalSegments":3,"Segment":)" +
                              std::to_string(segment) + "}",
                          4, &error);
    ASSERT_EQ("", error);
    all.insert(all.end(), ids.begin(), ids.end());
  }
  EXPECT_EQ(indexed.size(), all.size());
  EXPECT_EQ(indexed, std::set<std::string>(all.begin(), all.end()));
  if (GetParam() % 2 == 0) {
    EXPECT_GT(evaluated_nothing_, 0) << "page chaos was not applied";
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, MultiAttributeKeyModelTest, ::testing::Values(1u, 2u, 3u, 4u));

}  // namespace
}  // namespace dynapage
