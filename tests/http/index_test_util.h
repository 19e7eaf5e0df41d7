// Test support for the secondary-index tests: a table with one LSI and two GSIs, and page readers.
//
//   CreateIndexedTable(server, "t") declares, PAY_PER_REQUEST:
//     table t        pk S (HASH), sk N (RANGE)
//     LSI by_lsk     pk (HASH), lsk S (RANGE)   INCLUDE [a]
//     GSI by_gpk     gpk S (HASH), gsk N (RANGE) ALL
//     GSI gpk_keys   gpk S (HASH)                KEYS_ONLY
//
//   std::vector<HttpResult> pages = ReadAllPages(server, "Query", R"({"TableName":"t","IndexName":"by_gpk",…})");
//   // follows LastEvaluatedKey (at most 10,000 pages); Values(pages, "sk") lists the items' sk values in order.

#ifndef DYNAPAGE_TESTS_HTTP_INDEX_TEST_UTIL_H_
#define DYNAPAGE_TESTS_HTTP_INDEX_TEST_UTIL_H_

#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {

HttpResult CreateIndexedTable(TestServer& server, const std::string& name);

// Sends op with body plus, when start_key is not empty, "ExclusiveStartKey": start_key (JSON text).
HttpResult CallFrom(TestServer& server, const std::string& op, const std::string& body, const std::string& start_key);

// Reads every page, following LastEvaluatedKey from start_key (JSON text; "" for none); stops at the first
// non-200 answer (which is the last element).
std::vector<HttpResult> ReadAllPages(TestServer& server, const std::string& op, const std::string& body,
                                     const std::string& start_key = "");

// The value text (S or N) of attribute in each item of the pages, in order; "-" for an item without it.
std::vector<std::string> Values(const std::vector<HttpResult>& pages, const char* attribute);
std::vector<std::string> Values(const HttpResult& page, const char* attribute);

// The compact JSON text of the page's LastEvaluatedKey, or "" when there is none.
std::string LastKey(const HttpResult& page);

// DescribeTable's description of index_name (LocalSecondaryIndexes or GlobalSecondaryIndexes), as JSON text;
// "" when the table has no such index.
std::string DescribedIndex(TestServer& server, const std::string& table, const std::string& index_name);

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_HTTP_INDEX_TEST_UTIL_H_
