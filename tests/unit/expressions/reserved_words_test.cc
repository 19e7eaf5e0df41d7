#include "engine/expressions/reserved_words.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

TEST(ReservedWordsTest, HasDynamoDBsFullList) { EXPECT_EQ(573u, ReservedWordCount()); }

TEST(ReservedWordsTest, FirstLastAndSampleWords) {
  for (const char* w : {"ABORT", "ABSOLUTE", "ACTION", "ADD", "ZONE", "YEAR", "SIZE", "NAME", "STATUS", "DATA",
                        "COUNT", "USER", "TTL", "LOCALTIMESTAMP", "FLATTERN", "INNTER", "LOGED", "BETWEEN", "IN",
                        "AND", "OR", "NOT", "SET", "DELETE", "KEY", "VALUE", "TIMESTAMP", "DATE"}) {
    EXPECT_TRUE(IsReservedWord(w)) << w;
  }
}

TEST(ReservedWordsTest, CaseInsensitive) {
  EXPECT_TRUE(IsReservedWord("abOrT"));
  EXPECT_TRUE(IsReservedWord("abort"));
  EXPECT_TRUE(IsReservedWord("Zone"));
}

TEST(ReservedWordsTest, OrdinaryNamesAreNotReserved) {
  for (const char* w : {"", "a", "abortx", "ABORTS", "REMOVE", "attribute_exists", "size_", "id", "pk", "sk",
                        "LOCALTIMESTAMPS", "contains", "begins_with", "ZONES", "AA"}) {
    EXPECT_FALSE(IsReservedWord(w)) << w;
  }
}

}  // namespace
}  // namespace dynapage
