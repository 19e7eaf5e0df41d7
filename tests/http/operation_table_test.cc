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

}  // namespace
}  // namespace dynapage
