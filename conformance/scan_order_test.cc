// Scan order and parallel scan (docs/behaviour.md §6). Live DynamoDB returns items in ascending
// MD5("Outliers" ‖ partition-key bytes) order, then by sort key, and a parallel scan's segment of an item is
// floor(H12 × TotalSegments / 4096) where H12 is the first 12 bits of that hash. The two key lists and the
// segment examples below are live observations (§6.1, §6.2); the MD5 rule reproduces all of them and is
// asserted for string keys, whose bytes are simply their UTF-8.

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "conformance/environment.h"
#include "conformance/expectations.h"
#include "conformance/page.h"

namespace conformance {
namespace {

// Live orders from §6.1 (DYN-T "items in string hash order" / "items in number hash order").
const std::vector<std::string> kLiveStringOrder = {
    "2", "8", "9", "1", "6", "hello", "0", "5", "4", "\xc3\xa4\xc3\xa1\xc3\xb6\xc3\xbc", "aardman", "7", "3", "zapf"};
const std::vector<std::string> kLiveNumberOrder = {"7", "999.9", "8", "3", "2", "-999.9",   "9",
                                                   "4", "-0.09", "6", "1", "0", "0.012345", "5"};
// Segment examples from §6.2 (TotalSegments = 4096).
const std::vector<std::pair<std::string, int>> kStringSegments = {{"3635", 0}, {"228", 0}, {"1668", 1}, {"3435", 4}};
const std::vector<std::pair<std::string, int>> kNumberSegments = {{"251", 1}, {"2388", 4095}};

std::string Md5(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, EVP_md5(), nullptr);
  return std::string(reinterpret_cast<char*>(digest), len);
}

// MD5("Outliers" ‖ utf8(key)) for a string partition key.
std::string ScanHash(const std::string& key) { return Md5("Outliers" + key); }

int H12(const std::string& key) {
  const std::string h = ScanHash(key);
  return (static_cast<unsigned char>(h[0]) << 4) | (static_cast<unsigned char>(h[1]) >> 4);
}

std::vector<std::string> SortedByHash(std::vector<std::string> keys) {
  std::sort(keys.begin(), keys.end(),
            [](const std::string& a, const std::string& b) { return ScanHash(a) < ScanHash(b); });
  return keys;
}

std::vector<std::string> OnlyThese(const std::vector<std::string>& seen, const std::vector<std::string>& wanted) {
  std::vector<std::string> out;
  for (const auto& k : seen) {
    if (std::find(wanted.begin(), wanted.end(), k) != wanted.end()) out.push_back(k);
  }
  return out;
}

class ScanOrder : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    strings_ = new ScopedTable(&Tables(), "order-s", TableSpec{{"pk", "S"}, std::nullopt, {}});
    std::vector<std::string> items;
    // Written in sorted order so that insertion order cannot pass for hash order.
    for (const auto& k : AllStringKeys()) items.push_back("{\"pk\":" + AttrS(k) + "}");
    strings_->Fill(items);

    numbers_ = new ScopedTable(&Tables(), "order-n", TableSpec{{"pk", "N"}, std::nullopt, {}});
    items.clear();
    for (const auto& k : AllNumberKeys()) items.push_back("{\"pk\":" + AttrN(k) + "}");
    numbers_->Fill(items);

    ranged_ = new ScopedTable(&Tables(), "order-r", TableSpec{{"pk", "S"}, KeyAttribute{"sk", "N"}, {}});
    items.clear();
    for (const char* pk : {"p1", "p2", "p3", "p4", "p5"}) {
      for (const char* sk : {"3", "1", "4", "-1.5", "2", "10"}) {
        items.push_back("{\"pk\":" + AttrS(pk) + ",\"sk\":" + AttrN(sk) + "}");
      }
    }
    ranged_->Fill(items);
  }
  static void TearDownTestSuite() {
    delete strings_;
    delete numbers_;
    delete ranged_;
    strings_ = numbers_ = ranged_ = nullptr;
  }
  void SetUp() override {
    for (ScopedTable* t : {strings_, numbers_, ranged_}) ASSERT_TRUE(t->ok()) << t->error();
  }

  static std::vector<std::string> AllStringKeys() {
    std::vector<std::string> keys = kLiveStringOrder;
    for (const auto& [k, segment] : kStringSegments) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    return keys;
  }
  static std::vector<std::string> AllNumberKeys() {
    std::vector<std::string> keys = kLiveNumberOrder;
    for (const auto& [k, segment] : kNumberSegments) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  // Every pk of `table`, in Scan order (pages of `limit`, 0 for no Limit), optionally one segment.
  static std::vector<std::string> ScanKeys(const std::string& table, int limit, int segment = -1,
                                           int total_segments = 0, std::string* failure = nullptr) {
    Json s(R"({"ConsistentRead":true})");
    s.Set("TableName", table);
    if (limit > 0) s.Set("Limit", limit);
    if (segment >= 0) s.Set("Segment", segment).Set("TotalSegments", total_segments);
    PagedRead read = ReadAllPages(TheClient(), "Scan", s, 100);
    if (failure) *failure = read.failure;
    EXPECT_EQ(read.failure, "") << "segment " << segment << " of " << total_segments;
    return read.Column("pk");
  }

  static ScopedTable* strings_;
  static ScopedTable* numbers_;
  static ScopedTable* ranged_;
};
ScopedTable* ScanOrder::strings_ = nullptr;
ScopedTable* ScanOrder::numbers_ = nullptr;
ScopedTable* ScanOrder::ranged_ = nullptr;

TEST_F(ScanOrder, StringKeysComeInTheLiveOrder) {
  std::vector<std::string> seen = ScanKeys(strings_->name(), 0);
  EXPECT_EQ(seen.size(), AllStringKeys().size());
  EXPECT_EQ(OnlyThese(seen, kLiveStringOrder), kLiveStringOrder);
}

TEST_F(ScanOrder, NumberKeysComeInTheLiveOrder) {
  std::vector<std::string> seen = ScanKeys(numbers_->name(), 0);
  EXPECT_EQ(seen.size(), AllNumberKeys().size());
  EXPECT_EQ(OnlyThese(seen, kLiveNumberOrder), kLiveNumberOrder);
}

TEST_F(ScanOrder, StringKeysFollowTheMd5Order) {
  EXPECT_EQ(ScanKeys(strings_->name(), 0), SortedByHash(AllStringKeys()));
}

TEST_F(ScanOrder, PagedScanKeepsTheOrder) {
  EXPECT_EQ(ScanKeys(strings_->name(), 4), ScanKeys(strings_->name(), 0));
  EXPECT_EQ(ScanKeys(numbers_->name(), 3), ScanKeys(numbers_->name(), 0));
}

TEST_F(ScanOrder, PartitionsInHashOrderItemsInSortKeyOrder) {
  Json s(R"({"ConsistentRead":true,"Limit":4})");
  s.Set("TableName", ranged_->name());
  PagedRead read = ReadAllPages(TheClient(), "Scan", s, 20);
  ASSERT_EQ(read.failure, "");
  std::vector<std::string> pks = read.Column("pk"), sks = read.Column("sk");
  ASSERT_EQ(pks.size(), 30u);
  std::vector<std::string> partitions;
  for (size_t i = 0; i < pks.size(); i += 6) {
    partitions.push_back(pks[i]);
    for (size_t j = i; j < i + 6; ++j) EXPECT_EQ(pks[j], pks[i]) << "partition " << pks[i] << " is not contiguous";
    EXPECT_EQ(std::vector<std::string>(sks.begin() + i, sks.begin() + i + 6),
              (std::vector<std::string>{"-1.5", "1", "2", "3", "4", "10"}))
        << "partition " << pks[i];
  }
  EXPECT_EQ(partitions, SortedByHash({"p1", "p2", "p3", "p4", "p5"}));
}

TEST_F(ScanOrder, EveryItemIsInExactlyOneSegment) {
  for (ScopedTable* table : {strings_, numbers_, ranged_}) {
    for (int total : {2, 3, 4, 7, 16}) {
      std::multiset<std::string> seen;
      for (int segment = 0; segment < total; ++segment) {
        std::string failure;
        std::vector<std::string> keys = ScanKeys(table->name(), 3, segment, total, &failure);
        ASSERT_EQ(failure, "");
        // All items of one partition key fall in the same segment (§6.2).
        for (const auto& k : keys) seen.insert(k);
      }
      std::vector<std::string> whole = ScanKeys(table->name(), 0);
      EXPECT_EQ(seen, std::multiset<std::string>(whole.begin(), whole.end()))
          << table->name() << " with TotalSegments " << total;
    }
  }
}

TEST_F(ScanOrder, LiveSegmentExamplesWith4096Segments) {
  for (const auto& [key, segment] : kStringSegments) {
    std::vector<std::string> keys = ScanKeys(strings_->name(), 0, segment, 4096);
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << "S " << key << " not in segment " << segment;
  }
  for (const auto& [key, segment] : kNumberSegments) {
    std::vector<std::string> keys = ScanKeys(numbers_->name(), 0, segment, 4096);
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << "N " << key << " not in segment " << segment;
  }
}

TEST_F(ScanOrder, SegmentIsTheHashPrefixScaledToTotalSegments) {
  // segment = floor(H12 × T / 4096): checked for every string key at T = 4096 and for whole segments at T = 4.
  for (const auto& key : AllStringKeys()) {
    std::vector<std::string> keys = ScanKeys(strings_->name(), 0, H12(key), 4096);
    EXPECT_EQ(std::count(keys.begin(), keys.end(), key), 1) << key << " not in segment " << H12(key) << " of 4096";
  }
  std::map<int, std::vector<std::string>> want;
  for (const auto& key : SortedByHash(AllStringKeys())) want[H12(key) * 4 / 4096].push_back(key);
  for (int segment = 0; segment < 4; ++segment) {
    EXPECT_EQ(ScanKeys(strings_->name(), 0, segment, 4), want[segment]) << "segment " << segment << " of 4";
  }
}

TEST_F(ScanOrder, SegmentParameterErrors) {
  auto scan = [](const std::string& extra) {
    Json s(extra);
    s.Set("TableName", strings_->name());
    return TheClient().Call("Scan", s);
  };
  EXPECT_TRUE(IsValidation(scan(R"({"Segment":0})"),
                           "The TotalSegments parameter is required but was not present in the request when Segment "
                           "parameter is present"));
  EXPECT_TRUE(IsValidation(scan(R"({"TotalSegments":2})"),
                           "The Segment parameter is required but was not present in the request when parameter "
                           "TotalSegments is present"));
  EXPECT_TRUE(IsValidation(scan(R"({"Segment":1,"TotalSegments":1})"),
                           "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
                           "Segment: 1 is not less than TotalSegments: 1"));
  // §6.2 quotes these two without the "1 validation error detected: " prefix that constraint errors carry
  // (§8.5 step 7), so only the constraint text is required.
  EXPECT_TRUE(ErrorContains(scan(R"({"Segment":-1,"TotalSegments":2})"), "ValidationException",
                            "Value '-1' at 'segment' failed to satisfy constraint: Member must have value greater "
                            "than or equal to 0"));
  EXPECT_TRUE(ErrorContains(scan(R"({"Segment":0,"TotalSegments":-1})"), "ValidationException",
                            "Value '-1' at 'totalSegments' failed to satisfy constraint: Member must have value "
                            "greater than or equal to 1"));
}

}  // namespace
}  // namespace conformance
