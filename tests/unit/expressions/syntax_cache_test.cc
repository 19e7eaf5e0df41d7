// SyntaxCache: a text parses once while it stays among the most recently used, its tree does not depend on the
// caller's buffer, and syntax errors are never kept.

#include "engine/expressions/syntax_cache.h"

#include <gtest/gtest.h>

#include <string>

namespace dynapage {
namespace {

TEST(SyntaxCacheTest, SameTextGivesTheKeptTree) {
  SyntaxCache cache(4);
  std::string error;
  auto first = cache.Condition("pk = :p", &error);
  ASSERT_NE(nullptr, first);
  auto second = cache.Condition("pk = :p", &error);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(1u, cache.size());
  auto other = cache.Condition("pk = :q", &error);
  ASSERT_NE(nullptr, other);
  EXPECT_NE(first.get(), other.get());
  EXPECT_EQ(2u, cache.size());
}

TEST(SyntaxCacheTest, TreeViewsTheCachedCopyNotTheCallersText) {
  SyntaxCache cache(4);
  std::string error;
  std::string text = "a_long_attribute_name = :value";
  auto syntax = cache.Condition(text, &error);
  ASSERT_NE(nullptr, syntax);
  text.assign(text.size(), 'x');
  const SyntaxCondition& tree = syntax->tree;
  ASSERT_EQ(SyntaxCondition::Kind::kCompare, tree.kind);
  ASSERT_EQ(2u, tree.operands.size());
  ASSERT_EQ(1u, tree.operands[0].path.size());
  EXPECT_EQ("a_long_attribute_name", tree.operands[0].path[0].text);
  EXPECT_EQ(":value", tree.operands[1].name);
  // The overwritten buffer is no longer the key either.
  EXPECT_EQ(syntax.get(), cache.Condition("a_long_attribute_name = :value", &error).get());
}

TEST(SyntaxCacheTest, SyntaxErrorsAreReportedAndNotKept) {
  SyntaxCache cache(4);
  for (int i = 0; i < 2; i++) {
    std::string error;
    EXPECT_EQ(nullptr, cache.Condition("a > b > c", &error));
    EXPECT_EQ("Syntax error; token: \">\", near: \"b > c\"", error);
    EXPECT_EQ(0u, cache.size());
  }
}

TEST(SyntaxCacheTest, RedundantParenthesesAreKeptWithTheTree) {
  SyntaxCache cache(4);
  std::string error;
  auto wrapped = cache.Condition("((a)) = :v", &error);
  ASSERT_NE(nullptr, wrapped);
  EXPECT_TRUE(wrapped->redundant_parentheses);
  EXPECT_TRUE(cache.Condition("((a)) = :v", &error)->redundant_parentheses);
  EXPECT_FALSE(cache.Condition("(a) = :v", &error)->redundant_parentheses);
}

TEST(SyntaxCacheTest, LeastRecentlyUsedTextGoesFirst) {
  SyntaxCache cache(2);
  std::string error;
  auto a = cache.Condition("a = :v", &error);
  auto b = cache.Condition("b = :v", &error);
  EXPECT_EQ(a.get(), cache.Condition("a = :v", &error).get());  // a is now the most recent
  auto c = cache.Condition("c = :v", &error);                   // drops b
  EXPECT_EQ(2u, cache.size());
  EXPECT_EQ(a.get(), cache.Condition("a = :v", &error).get());
  EXPECT_EQ(c.get(), cache.Condition("c = :v", &error).get());
  auto b_again = cache.Condition("b = :v", &error);  // b is still held here, so a new tree has a new address
  EXPECT_NE(b.get(), b_again.get());
  // A dropped tree stays usable by whoever holds it.
  EXPECT_EQ("b", b->tree.operands[0].path[0].text);
}

TEST(SyntaxCacheTest, SizeStaysWithinCapacity) {
  SyntaxCache cache(3);
  std::string error;
  for (int i = 0; i < 20; i++) {
    ASSERT_NE(nullptr, cache.Condition("a" + std::to_string(i) + " = :v", &error));
    EXPECT_LE(cache.size(), 3u);
  }
  EXPECT_EQ(3u, cache.size());
}

}  // namespace
}  // namespace dynapage
