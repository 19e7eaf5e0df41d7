#include "engine/expressions/expression_syntax.h"

#include <gtest/gtest.h>

#include <string>

namespace dynapage {
namespace {

// Prints a condition tree compactly, for asserting shapes: or(and(...)), cmp(=,a,:v), fn(f,...).
std::string Show(const SyntaxOperand& o);

std::string ShowPath(const SyntaxPath& p) {
  std::string out;
  for (const SyntaxPathElement& e : p) {
    if (e.kind == SyntaxPathElement::Kind::kIndex) {
      out += "[" + std::to_string(e.index) + "]";
    } else {
      if (!out.empty()) out += ".";
      out += std::string(e.text);
    }
  }
  return out;
}

std::string Show(const SyntaxOperand& o) {
  switch (o.kind) {
    case SyntaxOperand::Kind::kPath: return ShowPath(o.path);
    case SyntaxOperand::Kind::kValue: return std::string(o.name);
    case SyntaxOperand::Kind::kFunction: {
      std::string out = std::string(o.name) + "(";
      for (size_t i = 0; i < o.args.size(); i++) out += (i ? "," : "") + Show(o.args[i]);
      return out + ")";
    }
  }
  return "?";
}

const char* CmpText(TokenKind k) {
  switch (k) {
    case TokenKind::kEq: return "=";
    case TokenKind::kNe: return "<>";
    case TokenKind::kLt: return "<";
    case TokenKind::kLe: return "<=";
    case TokenKind::kGt: return ">";
    case TokenKind::kGe: return ">=";
    default: return "?";
  }
}

std::string Show(const SyntaxCondition& c) {
  std::string out;
  auto list = [&](const char* name) {
    out = std::string(name) + "(";
    for (size_t i = 0; i < c.children.size(); i++) out += (i ? "," : "") + Show(c.children[i]);
    out += ")";
  };
  auto operands = [&](std::string head) {
    out = head;
    for (const SyntaxOperand& o : c.operands) out += "," + Show(o);
    out += ")";
  };
  switch (c.kind) {
    case SyntaxCondition::Kind::kOr: list("or"); break;
    case SyntaxCondition::Kind::kAnd: list("and"); break;
    case SyntaxCondition::Kind::kNot: list("not"); break;
    case SyntaxCondition::Kind::kCompare: operands(std::string("cmp(") + CmpText(c.comparator)); break;
    case SyntaxCondition::Kind::kBetween: operands("between("); break;
    case SyntaxCondition::Kind::kIn: operands("in("); break;
    case SyntaxCondition::Kind::kFunction: out = Show(c.operands[0]); break;
  }
  return out;
}

std::string Condition(const std::string& text) {
  SyntaxParser p(text);
  SyntaxCondition c;
  if (!p.ParseCondition(&c)) return "ERR " + p.SyntaxError();
  return (p.redundant_parentheses() ? "REDUNDANT " : "") + Show(c);
}

TEST(ExpressionSyntaxTest, Comparisons) {
  EXPECT_EQ("cmp(=,a,:v)", Condition("a = :v"));
  EXPECT_EQ("cmp(<>,a,:v)", Condition("a<>:v"));
  EXPECT_EQ("cmp(<,a,:v)", Condition("a < :v"));
  EXPECT_EQ("cmp(<=,a,:v)", Condition("a <= :v"));
  EXPECT_EQ("cmp(>,:v,a)", Condition(":v > a"));
  EXPECT_EQ("cmp(>=,a,b)", Condition("a >= b"));
  EXPECT_EQ("cmp(=,size(a.b),:v)", Condition("size(a.b) = :v"));
}

TEST(ExpressionSyntaxTest, BetweenInAndFunctions) {
  EXPECT_EQ("between(,a,:x,:y)", Condition("a BETWEEN :x AND :y"));
  EXPECT_EQ("in(,a,:x,:y,b)", Condition("a IN (:x, :y, b)"));
  EXPECT_EQ("in(,a,:x)", Condition("a in (:x)"));
  EXPECT_EQ("attribute_exists(a)", Condition("attribute_exists(a)"));
  EXPECT_EQ("begins_with(a,:v)", Condition("begins_with ( a , :v )"));
  EXPECT_EQ("foo(a,b,c)", Condition("foo(a, b, c)"));  // names are checked later
}

TEST(ExpressionSyntaxTest, PathsWithIndexesAndPlaceholders) {
  EXPECT_EQ("cmp(=,a.b[2].c,:v)", Condition("a.b[2].c = :v"));
  EXPECT_EQ("cmp(=,#n[0][1].#m,:v)", Condition("#n[0][1].#m = :v"));
  EXPECT_EQ("cmp(=,a.b,:v)", Condition("a . b = :v"));
}

TEST(ExpressionSyntaxTest, PrecedenceNotOverAndOverOr) {
  EXPECT_EQ("or(cmp(=,a,:a),and(cmp(=,b,:b),cmp(=,c,:c)))", Condition("a = :a OR b = :b AND c = :c"));
  EXPECT_EQ("or(and(cmp(=,a,:a),cmp(=,b,:b)),cmp(=,c,:c))", Condition("a = :a AND b = :b OR c = :c"));
  EXPECT_EQ("and(not(cmp(=,a,:a)),cmp(=,b,:b))", Condition("NOT a = :a AND b = :b"));
  EXPECT_EQ("or(not(cmp(=,a,:a)),cmp(=,b,:b))", Condition("not a = :a or b = :b"));
  EXPECT_EQ("and(or(cmp(=,a,:a),cmp(=,b,:b)),cmp(=,c,:c))", Condition("(a = :a OR b = :b) AND c = :c"));
  EXPECT_EQ("not(not(cmp(=,a,:a)))", Condition("NOT NOT a = :a"));
  EXPECT_EQ("or(cmp(=,a,:a),cmp(=,b,:b),cmp(=,c,:c))", Condition("a = :a OR b = :b OR c = :c"));
}

TEST(ExpressionSyntaxTest, BetweenConsumesItsAnd) {
  EXPECT_EQ("and(between(,a,:x,:y),cmp(=,b,:z))", Condition("a BETWEEN :x AND :y AND b = :z"));
  EXPECT_EQ("not(between(,a,:x,:y))", Condition("NOT a BETWEEN :x AND :y"));
}

TEST(ExpressionSyntaxTest, KeywordsAreCaseInsensitive) {
  EXPECT_EQ("or(and(cmp(=,a,:a),cmp(=,b,:b)),not(in(,c,:c)))",
            Condition("a = :a aNd b = :b Or NoT c iN (:c)"));
  EXPECT_EQ("between(,a,:x,:y)", Condition("a between :x and :y"));
}

TEST(ExpressionSyntaxTest, Parentheses) {
  EXPECT_EQ("cmp(=,a,:v)", Condition("(a = :v)"));
  EXPECT_EQ("cmp(=,a,:v)", Condition("(a) = :v"));
  EXPECT_EQ("cmp(=,a,:v)", Condition("(a) = (:v)"));
  EXPECT_EQ("attribute_exists(a)", Condition("(attribute_exists(a))"));
  EXPECT_EQ("and(cmp(=,a,:a),cmp(=,b,:b))", Condition("((a = :a) AND (b = :b))"));
  EXPECT_EQ("REDUNDANT cmp(=,a,:v)", Condition("((a = :v))"));
  EXPECT_EQ("REDUNDANT cmp(=,a,:v)", Condition("((a)) = :v"));
  EXPECT_EQ("REDUNDANT not(cmp(=,a,:v))", Condition("NOT ((a = :v))"));
  EXPECT_EQ("REDUNDANT cmp(=,a,:v)", Condition("(((((((((a = :v)))))))))"));
}

TEST(ExpressionSyntaxTest, DeepParenthesesParseInReasonableTime) {
  // Would take exponential time without the memo of failed groups.
  std::string text = std::string(1000, '(') + "a" + std::string(1000, ')') + " = :v";
  EXPECT_EQ("REDUNDANT cmp(=,a,:v)", Condition(text));
  text = std::string(1000, '(') + "a" + std::string(999, ')') + " = :v";
  EXPECT_EQ(0u, Condition(text).find("ERR Syntax error"));
}

TEST(ExpressionSyntaxTest, SyntaxErrorTokenAndNear) {
  EXPECT_EQ("ERR Syntax error; token: \"are\", near: \"things are not\"", Condition("things are not gonna be ok"));
  EXPECT_EQ("ERR Syntax error; token: \">\", near: \"b > c\"", Condition("a > b > c"));
  EXPECT_EQ("ERR Syntax error; token: \"4\", near: \"> 4\"", Condition("a > 4"));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \"AND\"", Condition("a = :v AND"));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \"=\"", Condition("a ="));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \"not\"", Condition("not"));
  EXPECT_EQ("ERR Syntax error; token: \"b\", near: \"in b\"", Condition("a in b"));
  EXPECT_EQ("ERR Syntax error; token: \")\", near: \"()\"", Condition("a in ()"));
  EXPECT_EQ("ERR Syntax error; token: \"[\", near: \")[0\"", Condition("size(a)[0] > a"));
  EXPECT_EQ("ERR Syntax error; token: \"x\", near: \"[x]\"", Condition("a[x] = :v"));
  EXPECT_EQ("ERR Syntax error; token: \")\", near: \":v)\"", Condition("a = :v)"));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \":v\"", Condition("(a = :v"));
  EXPECT_EQ("ERR Syntax error; token: \"^\", near: \"a ^ b\"", Condition("a ^ b"));
  EXPECT_EQ("ERR Syntax error; token: \"-\", near: \"first-name\"", Condition("first-name = :v"));
  EXPECT_EQ("ERR Syntax error; token: \"and\", near: \"and =\"", Condition("and = :v"));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \"\"", Condition(""));
  // Keywords are not names, not even after a dot.
  EXPECT_EQ("ERR Syntax error; token: \"in\", near: \".in =\"", Condition("a.in = :v"));
  // A list index past an int's range is kept as kIndexOutOfRange, for the binder to refuse.
  EXPECT_EQ("cmp(=,a[2147483648],:v)", Condition("a[99999999999999999999] = :v"));
  EXPECT_EQ("cmp(=,a[2147483647],:v)", Condition("a[2147483647] = :v"));
  // A function call needs at least one argument; a function in parentheses is no condition by itself.
  EXPECT_EQ("ERR Syntax error; token: \")\", near: \"))\"", Condition("attribute_exists(a)) "));
  EXPECT_EQ("ERR Syntax error; token: \")\", near: \"()\"", Condition("attribute_exists()"));
}

std::string Projection(const std::string& text) {
  SyntaxParser p(text);
  std::vector<SyntaxPath> paths;
  if (!p.ParseProjection(&paths)) return "ERR " + p.SyntaxError();
  std::string out;
  for (const SyntaxPath& path : paths) out += (out.empty() ? "" : "|") + ShowPath(path);
  return out;
}

TEST(ExpressionSyntaxTest, ProjectionLists) {
  EXPECT_EQ("a", Projection("a"));
  EXPECT_EQ("a|b.c|d[1]|#x", Projection("a, b.c ,d[1],#x"));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \",\"", Projection("a,"));
  EXPECT_EQ("ERR Syntax error; token: \",\", near: \",a\"", Projection(",a"));
  EXPECT_EQ("ERR Syntax error; token: \":v\", near: \":v\"", Projection(":v"));
  EXPECT_EQ("ERR Syntax error; token: \"b\", near: \"a b\"", Projection("a b"));
}

std::string Update(const std::string& text) {
  SyntaxParser p(text);
  std::vector<SyntaxUpdateSection> sections;
  if (!p.ParseUpdate(&sections)) return "ERR " + p.SyntaxError();
  static const char* const kNames[] = {"SET", "REMOVE", "ADD", "DELETE"};
  std::string out;
  for (const SyntaxUpdateSection& s : sections) {
    out += out.empty() ? "" : " ";
    out += kNames[static_cast<int>(s.kind)];
    for (const SyntaxUpdateAction& a : s.actions) {
      out += " " + ShowPath(a.path);
      if (s.kind == SyntaxUpdateSection::Kind::kSet) {
        out += "=" + Show(a.operands[0]);
        if (a.op == TokenKind::kPlus) out += "+" + Show(a.operands[1]);
        if (a.op == TokenKind::kMinus) out += "-" + Show(a.operands[1]);
      } else if (!a.operands.empty()) {
        out += ":" + Show(a.operands[0]);
      }
      out += ";";
    }
  }
  return (p.redundant_parentheses() ? "REDUNDANT " : "") + out;
}

TEST(ExpressionSyntaxTest, UpdateSections) {
  EXPECT_EQ("SET a=:v;", Update("SET a = :v"));
  EXPECT_EQ("SET a=b+:v; c=list_append(c,:l);", Update("set a = b + :v, c = list_append(c, :l)"));
  EXPECT_EQ("SET a=if_not_exists(a,:z)-:one;", Update("SET a = if_not_exists(a, :z) - :one"));
  EXPECT_EQ("REMOVE a; b[1];", Update("REMOVE a, b[1]"));
  EXPECT_EQ("ADD n::one; s::set;", Update("ADD n :one, s :set"));
  EXPECT_EQ("DELETE s::set;", Update("delete s :set"));
  EXPECT_EQ("SET a=:v; REMOVE b; ADD c::c; DELETE d::d;", Update("SET a = :v REMOVE b ADD c :c DELETE d :d"));
  EXPECT_EQ("SET a=:v; SET b=:w;", Update("SET a = :v SET b = :w"));  // repetition is a semantic error
  EXPECT_EQ("SET a=b+:v;", Update("SET a = (b + :v)"));
  EXPECT_EQ("SET a=b+:v;", Update("SET a = (b) + :v"));
  EXPECT_EQ("REDUNDANT SET a=b;", Update("SET a = ((b))"));
  EXPECT_EQ("REMOVE remove;", Update("REMOVE remove"));
}

TEST(ExpressionSyntaxTest, UpdateSyntaxErrors) {
  EXPECT_EQ("ERR Syntax error; token: \"whatever\", near: \"whatever\"", Update("whatever"));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \",\"", Update("REMOVE a, b,"));
  EXPECT_EQ("ERR Syntax error; token: \"c\", near: \"b c =\"", Update("SET a = b c = d"));
  EXPECT_EQ("ERR Syntax error; token: \"b\", near: \"a b\"", Update("ADD a b"));
  EXPECT_EQ("ERR Syntax error; token: \"<EOF>\", near: \"SET\"", Update("SET"));
  EXPECT_EQ("ERR Syntax error; token: \":v\", near: \"a :v\"", Update("SET a :v"));
  EXPECT_EQ("ERR Syntax error; token: \"+\", near: \":b + :c\"", Update("SET a = :a + :b + :c"));
}

// ---- Limits checked before the recursive descent ----

std::string Repeat(const std::string& piece, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; i++) out += piece;
  return out;
}

std::string Joined(const std::string& piece, const std::string& separator, size_t times) {
  return piece + Repeat(separator + piece, times - 1);
}

TEST(ExpressionSyntaxTest, ConditionOperatorsAreCountedBeforeParsing) {
  const std::string too_many = "ERR The expression contains too many operators; operator count: ";
  // Each BETWEEN (with its AND) is one operator, each joining AND another: 150 + 149 = 299; 151 + 150 = 301.
  EXPECT_EQ(0u, Condition(Joined("a BETWEEN :x AND :y", " AND ", 150)).find("and("));
  EXPECT_EQ(too_many + "301", Condition(Joined("a BETWEEN :x AND :y", " AND ", 151)));
  EXPECT_EQ(0u, Condition(Joined("a = :v", " OR ", 150)).find("or("));  // 150 + 149
  EXPECT_EQ(too_many + "301", Condition(Joined("a = :v", " OR ", 151)));
  // Comparators, OR, NOT, IN and functions count one each: 100 × (NOT, contains) + 99 OR + OR + IN = 301.
  EXPECT_EQ(too_many + "301", Condition(Joined("NOT contains(a, :v)", " OR ", 100) + " OR a IN (:v)"));
  EXPECT_EQ(too_many + "301", Condition(Repeat("NOT ", 300) + "a = :v"));
  EXPECT_EQ(too_many + "1001", Condition(Repeat("NOT ", 1000) + "a = :v"));
  // The count comes first, even before a syntax error.
  EXPECT_EQ(too_many + "302", Condition(Repeat("NOT ", 301) + "a = :v )"));
}

TEST(ExpressionSyntaxTest, UpdateOperatorsAreCountedBeforeParsing) {
  // "+", "-" and functions count; SET's "=" does not.
  EXPECT_EQ(0u, Update("SET " + Joined("a = b + :v", ", ", 300)).find("SET"));
  EXPECT_EQ("ERR The expression contains too many operators; operator count: 301",
            Update("SET " + Joined("a = b - :v", ", ", 300) + ", c = size(d)"));
  EXPECT_EQ("ERR The expression contains too many operators; operator count: 400",
            Update("SET a = " + Repeat("size(", 400) + "b" + Repeat(")", 400)));
}

TEST(ExpressionSyntaxTest, GroupsNestAtMostTheDepthLimit) {
  const int limit = SyntaxParser::kMaxSyntaxDepth;
  // Within the limit: parsed (redundant, which the binder refuses).
  EXPECT_EQ("REDUNDANT cmp(=,a,:v)", Condition(Repeat("(", limit) + "a = :v" + Repeat(")", limit)));
  // Beyond it: a syntax error, without recursing further, however deep the text goes.
  for (int depth : {limit + 1, 2000}) {
    EXPECT_EQ(0u, Condition(Repeat("(", depth) + "a = :v" + Repeat(")", depth)).find("ERR Syntax error; token: "));
    EXPECT_EQ(0u, Condition(Repeat("(", depth) + "a" + Repeat(")", depth) + " = :v").find("ERR Syntax error; "));
    EXPECT_EQ(0u, Update("SET a = " + Repeat("(", depth) + ":v" + Repeat(")", depth)).find("ERR Syntax error; "));
  }
}

}  // namespace
}  // namespace dynapage
