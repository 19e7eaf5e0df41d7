#include "engine/expressions/expression_ast.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

DocumentPath P(const char* name) { return {PathElement::Name(name)}; }

TEST(ExpressionAstTest, ComparatorText) {
  EXPECT_STREQ("=", ComparatorText(Comparator::kEq));
  EXPECT_STREQ("<>", ComparatorText(Comparator::kNe));
  EXPECT_STREQ("<", ComparatorText(Comparator::kLt));
  EXPECT_STREQ("<=", ComparatorText(Comparator::kLe));
  EXPECT_STREQ(">", ComparatorText(Comparator::kGt));
  EXPECT_STREQ(">=", ComparatorText(Comparator::kGe));
}

TEST(ExpressionAstTest, CollectConditionPathsInOrderIncludingSize) {
  ConditionExpr root;
  root.kind = ConditionExpr::Kind::kAnd;
  auto cmp = std::make_unique<ConditionExpr>();
  cmp->kind = ConditionExpr::Kind::kCompare;
  cmp->operands.push_back(Operand::Path(P("a")));
  cmp->operands.push_back(Operand::Value(AttributeValue::Number("1")));
  auto size = std::make_unique<ConditionExpr>();
  size->kind = ConditionExpr::Kind::kCompare;
  Operand s;
  s.kind = Operand::Kind::kSize;
  s.path = P("b");
  size->operands.push_back(s);
  size->operands.push_back(Operand::Path(P("c")));
  root.children.push_back(std::move(cmp));
  root.children.push_back(std::move(size));
  std::vector<DocumentPath> paths;
  CollectConditionPaths(root, &paths);
  ASSERT_EQ(3u, paths.size());
  EXPECT_EQ(P("a"), paths[0]);
  EXPECT_EQ(P("b"), paths[1]);
  EXPECT_EQ(P("c"), paths[2]);
}

TEST(ExpressionAstTest, CollectUpdateTargetsByClause) {
  UpdateExpr u;
  u.delete_actions.push_back(DeleteAction{P("d"), AttributeValue()});
  u.set_actions.emplace_back();
  u.set_actions.back().path = P("s");
  u.remove_actions.push_back(P("r"));
  u.add_actions.push_back(AddAction{P("a"), AttributeValue()});
  std::vector<DocumentPath> paths;
  CollectUpdateTargets(u, &paths);
  ASSERT_EQ(4u, paths.size());
  EXPECT_EQ(P("s"), paths[0]);
  EXPECT_EQ(P("r"), paths[1]);
  EXPECT_EQ(P("a"), paths[2]);
  EXPECT_EQ(P("d"), paths[3]);
}

}  // namespace
}  // namespace dynapage
