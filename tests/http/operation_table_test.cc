// The operation table (server/operations/operation_table.h): every operation served is found by its name, and no
// other name finds one.

#include "server/operations/operation_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dynapage {
namespace {

TEST(OperationTableTest, EveryServedOperationIsFoundByItsName) {
  // Found by binary search: an operation out of order in the table would be missed.
  std::vector<std::string> names = ServedOperationNames();
  ASSERT_GE(names.size(), 63u);
  for (const std::string& name : names) {
    EXPECT_TRUE(FindOperation(name) != nullptr || FindStreamsOperation(name) != nullptr) << name;
  }
  EXPECT_NE(nullptr, FindOperation("Query"));
  EXPECT_EQ(nullptr, FindOperation("GetRecords"));  // DynamoDB Streams', under its own target prefix
  EXPECT_NE(nullptr, FindStreamsOperation("GetRecords"));
}

TEST(OperationTableTest, NoOtherNameFindsAnOperation) {
  for (const char* name : {"", "A", "Zzz", "query", "Quer", "Queryy", "BatchExecuteStatemen", "UpdateTimeToLivf",
                           "UpdateTimeToLiveX", "ListStream", "DescribeStreams"}) {
    EXPECT_EQ(nullptr, FindOperation(name)) << name;
  }
  for (const char* name : {"", "Query", "DescribeStrean", "ListStreamsX"}) {
    EXPECT_EQ(nullptr, FindStreamsOperation(name)) << name;
  }
}

// The last operation a thread found is compared first: a name finds its own operation whatever was found before.
TEST(OperationTableTest, EachNameFindsItsOwnOperationWhateverWasFoundBefore) {
  OperationHandler query = FindOperation("Query");
  OperationHandler scan = FindOperation("Scan");
  ASSERT_NE(nullptr, query);
  ASSERT_NE(nullptr, scan);
  EXPECT_NE(query, scan);
  EXPECT_EQ(query, FindOperation("Query"));
  EXPECT_EQ(nullptr, FindOperation("Quer"));
  EXPECT_EQ(query, FindOperation("Query"));
  EXPECT_EQ(nullptr, FindOperation("Queryy"));
  EXPECT_EQ(scan, FindOperation("Scan"));
}

}  // namespace
}  // namespace dynapage
