// Test support for the model-based pagination tests: seeded random tables, and a brute-force model of the pages
// of Query and Scan (docs/behaviour.md §2, §3, §5, §6, §11) to check dynapage's answers against, page by page.
//
// Contract: everything random is drawn from the caller's std::mt19937, so a seed reproduces the table and the
// requests. The model decides each page's cut by the size dynapage counts against max_page_bytes, taken from the
// engine itself (ItemSize of the item, or of ProjectForIndex for an index entry): it predicts where pages are
// cut, not how big items are. Query order is modelled; Scan's partition-hash order is not: a Scan is modelled
// over the order a full Scan returned (CheckScanOrder checks what can be checked of that order).
//
//   std::mt19937 rng(seed);
//   ModelTable table = RandomTable(rng, "model", ShapeOfSeed(seed));
//   ASSERT_TRUE(LoadTable(server, table));
//   ModelRead read = RandomQuery(rng, table, /*index=*/nullptr);
//   EXPECT_EQ("", CheckRead(server, table, read, QueryOrder(table, read), &coverage)) << "seed " << seed;

#ifndef DYNAPAGE_TESTS_HTTP_PAGINATION_MODEL_UTIL_H_
#define DYNAPAGE_TESTS_HTTP_PAGINATION_MODEL_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/model/attribute_value.h"
#include "engine/model/table_definition.h"
#include "tests/http/http_test_util.h"

namespace dynapage {

// A key or attribute value: S (UTF-8) and B (raw bytes) in bytes; N as its exact value × 1000 in milli, and in
// wire the spelling sent to dynapage ("-15e-1", "2E3", "10.0", ".5", …), which need not be canonical.
struct ModelValue {
  AttrType type = AttrType::kS;
  std::string bytes;
  long long milli = 0;
  std::string wire;
};

// DynamoDB's key order: numbers by value, strings and binaries by unsigned bytes. <0, 0, >0.
int CompareValues(const ModelValue& a, const ModelValue& b);
// The canonical text DynamoDB returns for a number (plain decimal, no exponent, no superfluous zeros).
std::string CanonicalNumber(long long milli);

using ModelItem = std::map<std::string, ModelValue>;

struct ModelKeyAttribute {
  std::string name;
  AttrType type = AttrType::kS;
};

struct ModelIndex {
  std::string name;
  bool global = true;
  ModelKeyAttribute hash, range;  // every model index has a sort key
  ProjectionType projection = ProjectionType::kAll;
  std::vector<std::string> include;  // kInclude's non-key attributes
};

struct TableShape {
  bool range = true;
  AttrType hash_type = AttrType::kS;
  AttrType range_type = AttrType::kN;
  bool indexes = false;  // an LSI on lsk and a GSI on gpk (S) and gsk, of random projections
  AttrType lsi_range_type = AttrType::kS;
  AttrType gsi_range_type = AttrType::kN;
};

// The seeds cycle through the key types (S, N, B for each key) and make every fourth table hash-only.
TableShape ShapeOfSeed(uint32_t seed);
// A lowered page size limit of a few KB, varying with the seed: a page then holds a few items of several KB, or
// a few dozen small ones.
uint64_t SmallPageBytes(uint32_t seed);

// Items: the keys, "f" (an N from 0 to 99, absent in some items: the filters' attribute), "d" (a string of a few
// hundred bytes, or of several KB), and with indexes "lsk", "gpk", "gsk" (each absent in some items).
struct ModelTable {
  std::string name;
  ModelKeyAttribute hash;
  std::optional<ModelKeyAttribute> range;
  std::vector<ModelIndex> indexes;
  std::vector<ModelItem> items;  // keys distinct by value
};

ModelTable RandomTable(std::mt19937& rng, const std::string& name, const TableShape& shape);
// CreateTable, then BatchWriteItem of every item.
::testing::AssertionResult LoadTable(TestServer& server, const ModelTable& table);

enum class SortOp { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };
enum class FilterOp { kNone, kLess, kAtLeast, kEqual, kBetween, kMissing };

// One Query or Scan, paged from its first request to its last.
struct ModelRead {
  bool query = true;
  const ModelIndex* index = nullptr;  // into the ModelTable
  // Query:
  ModelValue partition;
  SortOp sort_op = SortOp::kNone;
  ModelValue sort_a, sort_b;
  bool forward = true;
  std::optional<ModelItem> start;  // a first ExclusiveStartKey, which need not be an item
  // Scan:
  int segment = 0, total_segments = 0;  // 0 segments: a sequential Scan
  // Both:
  std::optional<int> limit;
  FilterOp filter = FilterOp::kNone;
  int filter_a = 0, filter_b = 0;
  bool count_only = false;

  // A Scan of every item: no Limit, no filter.
  static ModelRead FullScan() {
    ModelRead read;
    read.query = false;
    return read;
  }
  std::string Json(const ModelTable& table) const;  // the request, without ExclusiveStartKey
};

// A Query of a random (sometimes empty) partition of the table or index: key condition, Limit or none, either
// direction, a filter on f or none, Select=COUNT sometimes.
ModelRead RandomQuery(std::mt19937& rng, const ModelTable& table, const ModelIndex* index);
// Sets read->start to a random key of the read's partition that satisfies its sort-key condition, preferably
// one that is no item's (a position between items). REQUIRES: a hash+range table or an index.
void AddRandomStartKey(std::mt19937& rng, const ModelTable& table, ModelRead* read);
// A sequential Scan with Limit or none, a filter or none, Select=COUNT sometimes.
ModelRead RandomScan(std::mt19937& rng);

// The items a Query reads in its order (sort key, then table key for ties in an index; reversed when not
// forward), from after its start key if any, before filter and Limit.
std::vector<const ModelItem*> QueryOrder(const ModelTable& table, const ModelRead& read);

// What the model saw of the rules, so that a test can insist that its random reads exercised them.
struct ModelCoverage {
  int reads = 0;
  int pages = 0;
  int size_stops = 0;          // a page cut by size before reaching Limit
  int exact_size_stops = 0;    // … whose sizes add up to max_page_bytes exactly
  int exhausted_by_limit = 0;  // a page that reached Limit at the end of the range, so an empty last page follows
  int filtered_empty = 0;      // a page with a LastEvaluatedKey and no item passing the filter
  int count_only = 0;
  int start_keys = 0;  // reads that began from a random start key
};

// Reads every page of read from dynapage (following LastEvaluatedKey, from read.start if set) and compares
// each with the model's page cut of `order` (the items the read evaluates, in order): ScannedCount, Count,
// Items (each item whole, or absent for Select=COUNT), LastEvaluatedKey (present exactly when the page stopped
// on Limit or size; the key of the last evaluated item) and the totals. Returns "" when all agree, else the
// first difference with the request and the answer.
std::string CheckRead(TestServer& server, const ModelTable& table, const ModelRead& read,
                      const std::vector<const ModelItem*>& order, ModelCoverage* coverage);

// Checks `reads` random Queries of the table (index nullptr) or of an index, a random start key added to each
// with start_key_chance; returns the first failure, or "".
std::string CheckRandomQueries(std::mt19937& rng, TestServer& server, const ModelTable& table,
                               const ModelIndex* index, int reads, double start_key_chance, ModelCoverage* coverage);

// The items of every page, as model items, in order; an item the model does not have is reported in *error.
std::vector<const ModelItem*> ItemsOfPages(const ModelTable& table, const std::vector<HttpResult>& pages,
                                           std::string* error);
// A full Scan's order: every item exactly once, each partition's items together and in sort-key order.
// Returns "" or what is wrong.
std::string CheckScanOrder(const ModelTable& table, const std::vector<const ModelItem*>& order);
// "" when both orders hold the same items in the same order, else the first difference.
std::string CompareOrders(const ModelTable& table, const std::vector<const ModelItem*>& expected,
                          const std::vector<const ModelItem*>& actual);

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_HTTP_PAGINATION_MODEL_UTIL_H_
