#include "engine/expressions/expression_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace dynapage {
namespace {

class ExpressionParserTest : public ::testing::Test {
 protected:
  ExpressionParserTest() {
    names_ = {{"#a", "a"}, {"#p", "pk"}, {"#dot", "x.y"}, {"#abort", "abort"}};
    values_ = {{":s", AttributeValue::String("x")},
               {":s2", AttributeValue::String("y")},
               {":n", AttributeValue::Number("1")},
               {":n2", AttributeValue::Number("2")},
               {":b", AttributeValue::Binary(std::string("\x01\x02", 2))},
               {":b2", AttributeValue::Binary(std::string("\x01", 1))},
               {":bool", AttributeValue::Bool(true)},
               {":null", AttributeValue::Null()},
               {":l", AttributeValue::List({AttributeValue::Number("1")})},
               {":m", AttributeValue::Map({})},
               {":ss", AttributeValue::Set(AttrType::kSS, {"a"})},
               {":ns", AttributeValue::Set(AttrType::kNS, {"1"})},
               {":bs", AttributeValue::Set(AttrType::kBS, {"z"})},
               {":tS", AttributeValue::String("S")},
               {":tNULL", AttributeValue::String("NULL")},
               {":tbad", AttributeValue::String("STRING")}};
  }

  // "OK" or the error message of parsing text as a FilterExpression.
  std::string Filter(const std::string& text) {
    ExpressionAttributes attrs(&names_, &values_);
    std::unique_ptr<ConditionExpr> c;
    Status s = ParseCondition(text, "FilterExpression", &attrs, &c);
    if (!s.ok()) {
      EXPECT_EQ(ErrorCode::kValidation, s.code());
      EXPECT_EQ(nullptr, c);
      return s.message();
    }
    EXPECT_NE(nullptr, c);
    return "OK";
  }

  std::unique_ptr<ConditionExpr> Parse(const std::string& text) {
    ExpressionAttributes attrs(&names_, &values_);
    std::unique_ptr<ConditionExpr> c;
    Status s = ParseCondition(text, "ConditionExpression", &attrs, &c);
    EXPECT_TRUE(s.ok()) << text << ": " << s.message();
    return c;
  }

  std::string Projection(const std::string& text, std::vector<DocumentPath>* out = nullptr) {
    ExpressionAttributes attrs(&names_, &values_);
    std::vector<DocumentPath> paths;
    Status s = ParseProjection(text, &attrs, &paths);
    if (out) *out = paths;
    return s.ok() ? "OK" : s.message();
  }

  std::string Update(const std::string& text, UpdateExpr* out = nullptr) {
    ExpressionAttributes attrs(&names_, &values_);
    UpdateExpr u;
    Status s = ParseUpdate(text, &attrs, &u);
    if (out) *out = std::move(u);
    return s.ok() ? "OK" : s.message();
  }

  ExpressionNameMap names_;
  ExpressionValueMap values_;
};

const char kF[] = "Invalid FilterExpression: ";

// ---- Condition: successful parses ----

TEST_F(ExpressionParserTest, ComparisonResolvesPlaceholders) {
  auto c = Parse("#a.b[3] >= :n");
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(ConditionExpr::Kind::kCompare, c->kind);
  EXPECT_EQ(Comparator::kGe, c->comparator);
  ASSERT_EQ(2u, c->operands.size());
  EXPECT_EQ(Operand::Kind::kPath, c->operands[0].kind);
  EXPECT_EQ("[a, b, [3]]", FormatPath(c->operands[0].path));
  EXPECT_EQ(Operand::Kind::kValue, c->operands[1].kind);
  EXPECT_EQ(AttributeValue::Number("1"), c->operands[1].value);
}

TEST_F(ExpressionParserTest, PlaceholderNameIsTakenLiterally) {
  // A name from ExpressionAttributeNames is one path element even with a dot, and is never a reserved word.
  auto c = Parse("#dot = :s AND #abort = :s");
  ASSERT_NE(nullptr, c);
  ASSERT_EQ(ConditionExpr::Kind::kAnd, c->kind);
  ASSERT_EQ(1u, c->children[0]->operands[0].path.size());
  EXPECT_EQ("x.y", c->children[0]->operands[0].path[0].name);
  EXPECT_EQ("abort", c->children[1]->operands[0].path[0].name);
}

// The syntax of a text is reused across calls (engine/expressions/syntax_cache.h); names and values are each call's
// own.
TEST_F(ExpressionParserTest, RepeatedTextIsBoundPerCall) {
  const std::string text = "#k = :v AND reused_attr < :v";
  for (const AttributeValue& v : {AttributeValue::String("x"), AttributeValue::Number("7")}) {
    ExpressionNameMap names = {{"#k", v.type == AttrType::kS ? "s_key" : "n_key"}};
    ExpressionValueMap values = {{":v", v}};
    ExpressionAttributes attrs(&names, &values);
    std::unique_ptr<ConditionExpr> c;
    ASSERT_TRUE(ParseCondition(text, "FilterExpression", &attrs, &c).ok());
    ASSERT_EQ(ConditionExpr::Kind::kAnd, c->kind);
    EXPECT_EQ(names["#k"], c->children[0]->operands[0].path[0].name);
    EXPECT_EQ(v, c->children[0]->operands[1].value);
    EXPECT_EQ(v, c->children[1]->operands[1].value);
    EXPECT_TRUE(attrs.CheckAllUsed().ok());
  }
  ExpressionValueMap none = {{":other", AttributeValue::String("x")}};
  ExpressionNameMap names = {{"#k", "k"}};
  ExpressionAttributes attrs(&names, &none);
  std::unique_ptr<ConditionExpr> c;
  Status s = ParseCondition(text, "FilterExpression", &attrs, &c);
  EXPECT_EQ(std::string(kF) + "An expression attribute value used in expression is not defined; attribute value: :v",
            s.message());
  // A syntax error is reported the same way every time.
  EXPECT_EQ(std::string(kF) + "Syntax error; token: \"<EOF>\", near: \"AND\"", Filter("a = :s AND"));
  EXPECT_EQ(std::string(kF) + "Syntax error; token: \"<EOF>\", near: \"AND\"", Filter("a = :s AND"));
}

TEST_F(ExpressionParserTest, TreeShapeFollowsPrecedence) {
  auto c = Parse("a = :s OR NOT b = :s AND c = :s");
  ASSERT_NE(nullptr, c);
  ASSERT_EQ(ConditionExpr::Kind::kOr, c->kind);
  ASSERT_EQ(2u, c->children.size());
  EXPECT_EQ(ConditionExpr::Kind::kCompare, c->children[0]->kind);
  const ConditionExpr& conj = *c->children[1];
  ASSERT_EQ(ConditionExpr::Kind::kAnd, conj.kind);
  EXPECT_EQ(ConditionExpr::Kind::kNot, conj.children[0]->kind);
  EXPECT_EQ(ConditionExpr::Kind::kCompare, conj.children[1]->kind);
}

TEST_F(ExpressionParserTest, FunctionsAndSpecialForms) {
  auto c = Parse("attribute_type(a, :tNULL)");
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(ConditionExpr::Kind::kAttributeType, c->kind);
  EXPECT_EQ(AttrType::kNull, c->attribute_type);
  ASSERT_EQ(1u, c->operands.size());

  c = Parse("size(a) BETWEEN :n AND :n2");
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(ConditionExpr::Kind::kBetween, c->kind);
  EXPECT_EQ(Operand::Kind::kSize, c->operands[0].kind);
  EXPECT_EQ("[a]", FormatPath(c->operands[0].path));

  c = Parse("a IN (:s, :s2, b)");
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(ConditionExpr::Kind::kIn, c->kind);
  EXPECT_EQ(4u, c->operands.size());

  EXPECT_EQ(ConditionExpr::Kind::kAttributeExists, Parse("attribute_exists(a)")->kind);
  EXPECT_EQ(ConditionExpr::Kind::kAttributeNotExists, Parse("attribute_not_exists(a.b)")->kind);
  EXPECT_EQ(ConditionExpr::Kind::kBeginsWith, Parse("begins_with(a, :s)")->kind);
  EXPECT_EQ(ConditionExpr::Kind::kBeginsWith, Parse("begins_with(a, :b)")->kind);
  EXPECT_EQ(ConditionExpr::Kind::kContains, Parse("contains(a, :n)")->kind);
  EXPECT_EQ(ConditionExpr::Kind::kContains, Parse("contains(a, b)")->kind);
  EXPECT_EQ("OK", Filter("size(a) > size(b)"));
  EXPECT_EQ("OK", Filter("size(:s) = :n"));
}

TEST_F(ExpressionParserTest, KeywordsAreCaseInsensitive) {
  EXPECT_EQ("OK", Filter("a = :s and b between :n and :n2 or not c in (:s)"));
  EXPECT_EQ("OK", Filter("a = :s AnD b BeTwEeN :n aNd :n2 Or NoT c In (:s)"));
}

TEST_F(ExpressionParserTest, ConstantComparisonsAreAllowed) {
  EXPECT_EQ("OK", Filter(":s = :s2"));
  EXPECT_EQ("OK", Filter(":s = :s"));
}

TEST_F(ExpressionParserTest, RecordsUsedPlaceholders) {
  ExpressionAttributes attrs(&names_, &values_);
  std::unique_ptr<ConditionExpr> c;
  ASSERT_TRUE(ParseCondition("#a = :s", "FilterExpression", &attrs, &c).ok());
  Status unused = attrs.CheckAllUsed();
  EXPECT_EQ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#abort, #dot, #p}",
            unused.message());
}

TEST_F(ExpressionParserTest, ValuesAreCopiedIntoTheTree) {
  std::unique_ptr<ConditionExpr> c;
  {
    ExpressionValueMap values = {{":v", AttributeValue::String("kept")}};
    ExpressionAttributes attrs(nullptr, &values);
    ASSERT_TRUE(ParseCondition("a = :v", "FilterExpression", &attrs, &c).ok());
  }
  EXPECT_EQ("kept", c->operands[1].value.scalar);
}

// ---- Condition: errors ----

TEST_F(ExpressionParserTest, EmptyExpression) {
  EXPECT_EQ(std::string(kF) + "The expression can not be empty;", Filter(""));
  EXPECT_EQ(std::string(kF) + "The expression can not be empty;", Filter("  \n\t "));
}

TEST_F(ExpressionParserTest, ExpressionSizeLimit) {
  std::string ok = "a = :s" + std::string(kMaxExpressionBytes - 6, ' ');
  ASSERT_EQ(4096u, ok.size());
  EXPECT_EQ("OK", Filter(ok));
  EXPECT_EQ(std::string(kF) + "Expression size has exceeded the maximum allowed size; expression size: 4097",
            Filter(ok + " "));
}

TEST_F(ExpressionParserTest, SyntaxErrorsArePrefixed) {
  EXPECT_EQ(std::string(kF) + "Syntax error; token: \"are\", near: \"things are not\"",
            Filter("things are not gonna be ok"));
  EXPECT_EQ(std::string(kF) + "Syntax error; token: \">\", near: \"b > c\"", Filter("a > b > c"));
  EXPECT_EQ(std::string(kF) + "Syntax error; token: \"4\", near: \"> 4\"", Filter("a > 4"));
  EXPECT_EQ(std::string(kF) + "Syntax error; token: \"<EOF>\", near: \"and\"", Filter("a = :s and"));
  // The syntax error wins over any semantic error before it.
  EXPECT_EQ(std::string(kF) + "Syntax error; token: \"<EOF>\", near: \"AND\"", Filter("#zz = :zz AND"));
  for (const char* text : {"(size(a))[0] > a", "(size(a)).b > a", "size(a)[0] > a", "size(a).b > a", "a in b",
                           "a in ()", "a between b", "a between b and", "a = b or", "not", "a = :s (", "a.[0] = :s",
                           "a[-1] = :s", "(a = :s) = :s", "attribute_exists()", ":s", "a"}) {
    EXPECT_EQ(0u, Filter(text).find(std::string(kF) + "Syntax error; token: ")) << text;
  }
}

TEST_F(ExpressionParserTest, PrefixUsesTheExpressionName) {
  for (const char* name : {"ConditionExpression", "KeyConditionExpression", "FilterExpression"}) {
    ExpressionAttributes attrs(&names_, &values_);
    std::unique_ptr<ConditionExpr> c;
    Status s = ParseCondition("a = :zz", name, &attrs, &c);
    EXPECT_EQ(std::string("Invalid ") + name +
                  ": An expression attribute value used in expression is not defined; attribute value: :zz",
              s.message());
  }
}

TEST_F(ExpressionParserTest, ReservedWordsAsWritten) {
  EXPECT_EQ(std::string(kF) + "Attribute name is a reserved keyword; reserved keyword: abOrT", Filter("abOrT = :s"));
  EXPECT_EQ(std::string(kF) + "Attribute name is a reserved keyword; reserved keyword: abOrT",
            Filter("a.abOrT > :s"));
  EXPECT_EQ(std::string(kF) + "Attribute name is a reserved keyword; reserved keyword: Size",
            Filter("size(Size) > :n"));
  EXPECT_EQ(std::string(kF) + "Attribute name is a reserved keyword; reserved keyword: zone",
            Filter("a = :s AND b.zone = :s AND abort = :s"));
  // Function names are not attribute names.
  EXPECT_EQ("OK", Filter("size(a) > :n"));
}

TEST_F(ExpressionParserTest, UndefinedPlaceholders) {
  EXPECT_EQ(std::string(kF) +
                "An expression attribute name used in the document path is not defined; attribute name: #P",
            Filter("#P = :s"));
  EXPECT_EQ(std::string(kF) +
                "An expression attribute name used in the document path is not defined; attribute name: #x",
            Filter("a.b[1].#x = :s"));
  EXPECT_EQ(std::string(kF) +
                "An expression attribute value used in expression is not defined; attribute value: :a",
            Filter("b = :a"));
  // The first undefined placeholder, name or value, is reported.
  EXPECT_EQ(std::string(kF) +
                "An expression attribute value used in expression is not defined; attribute value: :q",
            Filter(":q = #Q"));
  // No maps at all.
  ExpressionAttributes none(nullptr, nullptr);
  std::unique_ptr<ConditionExpr> c;
  EXPECT_EQ(std::string(kF) +
                "An expression attribute name used in the document path is not defined; attribute name: #a",
            ParseCondition("#a = b", "FilterExpression", &none, &c).message());
}

TEST_F(ExpressionParserTest, InvalidFunctionNames) {
  EXPECT_EQ(std::string(kF) + "Invalid function name; function: foo", Filter("foo(a)"));
  EXPECT_EQ(std::string(kF) + "Invalid function name; function: ATTRIBUTE_EXISTS", Filter("ATTRIBUTE_EXISTS(a)"));
  EXPECT_EQ(std::string(kF) + "Invalid function name; function: SIZE", Filter("SIZE(a) = :n"));
  // UpdateExpression's functions are known, but not allowed in a condition.
  EXPECT_EQ(std::string(kF) + "The function is not allowed to be used this way in an expression; function: "
                              "if_not_exists",
            Filter("a = if_not_exists(a, :s)"));
  EXPECT_EQ(std::string(kF) + "The function is not allowed to be used this way in an expression; function: "
                              "list_append",
            Filter("list_append(a, :s)"));
  // Names start with a letter.
  EXPECT_EQ(0u, Filter("_f(a)").find(std::string(kF) + "Syntax error; token: ")) << Filter("_f(a)");
}

TEST_F(ExpressionParserTest, WrongNumberOfOperands) {
  const std::string prefix =
      std::string(kF) + "Incorrect number of operands for operator or function; operator or function: ";
  EXPECT_EQ(prefix + "attribute_exists, number of operands: 2", Filter("attribute_exists(a, b)"));
  EXPECT_EQ(prefix + "attribute_not_exists, number of operands: 2", Filter("attribute_not_exists(a, b)"));
  EXPECT_EQ(prefix + "attribute_type, number of operands: 1", Filter("attribute_type(a)"));
  EXPECT_EQ(prefix + "begins_with, number of operands: 1", Filter("begins_with(a)"));
  EXPECT_EQ(prefix + "begins_with, number of operands: 3", Filter("begins_with(a, :s, :s)"));
  EXPECT_EQ(prefix + "contains, number of operands: 1", Filter("contains(a)"));
  EXPECT_EQ(prefix + "size, number of operands: 2", Filter("size(a, b) = :n"));
  EXPECT_EQ(prefix + "size, number of operands: 2", Filter("a = size(b, c)"));
}

TEST_F(ExpressionParserTest, FunctionsUsedTheWrongWay) {
  const std::string prefix =
      std::string(kF) + "The function is not allowed to be used this way in an expression; function: ";
  EXPECT_EQ(prefix + "size", Filter("size(a)"));
  EXPECT_EQ(prefix + "size", Filter("a = :s AND size(a)"));
  EXPECT_EQ(prefix + "attribute_exists", Filter("a = attribute_exists(b)"));
  EXPECT_EQ(prefix + "contains", Filter("contains(a, :s) = :bool"));
  EXPECT_EQ(prefix + "begins_with", Filter("a BETWEEN begins_with(a, :s) AND :s"));
  EXPECT_EQ(prefix + "attribute_type", Filter("a IN (:s, attribute_type(a, :tS))"));
  EXPECT_EQ(prefix + "attribute_not_exists", Filter("contains(a, attribute_not_exists(b))"));
  // An unknown function is reported as unknown first.
  EXPECT_EQ(std::string(kF) + "Invalid function name; function: foo", Filter("a = foo(b)"));
}

TEST_F(ExpressionParserTest, OperandTypeErrors) {
  const std::string prefix =
      std::string(kF) + "Incorrect operand type for operator or function; operator or function: ";
  EXPECT_EQ(prefix + "begins_with, operand type: N", Filter("begins_with(a, :n)"));
  EXPECT_EQ(prefix + "begins_with, operand type: SS", Filter("begins_with(a, :ss)"));
  EXPECT_EQ(prefix + "begins_with, operand type: N", Filter("begins_with(a, size(b))"));
  EXPECT_EQ(prefix + "begins_with, operand type: L", Filter("begins_with(:l, a)"));
  EXPECT_EQ(prefix + "attribute_type, operand type: N", Filter("attribute_type(a, :n)"));
  EXPECT_EQ(prefix + "attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}", Filter("attribute_type(a, b)"));
  EXPECT_EQ(prefix + "size, operand type: N", Filter("size(:n) > :n"));
  EXPECT_EQ(prefix + "size, operand type: BOOL", Filter("size(:bool) > :n"));
  EXPECT_EQ(prefix + "size, operand type: NULL", Filter("size(:null) > :n"));
  EXPECT_EQ(prefix + "size, operand type: N", Filter("size(size(a)) > :n"));
  EXPECT_EQ(prefix + "<, operand type: BOOL", Filter("a < :bool"));
  EXPECT_EQ(prefix + "<=, operand type: M", Filter(":m <= a"));
  EXPECT_EQ(prefix + ">, operand type: SS", Filter("a > :ss"));
  EXPECT_EQ(prefix + ">=, operand type: NULL", Filter("a >= :null"));
  EXPECT_EQ(prefix + "BETWEEN, operand type: L", Filter("a BETWEEN :l AND :l"));
  // = and <> take any type.
  EXPECT_EQ("OK", Filter("a = :bool AND b <> :m AND c = :ss AND d <> :null"));
  EXPECT_EQ("OK", Filter("a IN (:bool, :m, :l)"));
  EXPECT_EQ("OK", Filter("contains(a, :l) AND contains(a, :bool)"));
}

TEST_F(ExpressionParserTest, AttributeTypeNames) {
  EXPECT_EQ(std::string(kF) +
                "Invalid attribute type name found; type: STRING, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
            Filter("attribute_type(a, :tbad)"));
  for (const char* t : {"S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"}) {
    ExpressionValueMap values = {{":t", AttributeValue::String(t)}};
    ExpressionAttributes attrs(nullptr, &values);
    std::unique_ptr<ConditionExpr> c;
    ASSERT_TRUE(ParseCondition("attribute_type(a, :t)", "FilterExpression", &attrs, &c).ok()) << t;
    EXPECT_STREQ(t, AttrTypeName(c->attribute_type));
  }
}

TEST_F(ExpressionParserTest, FunctionsRequiringAPath) {
  const std::string prefix =
      std::string(kF) + "Operator or function requires a document path; operator or function: ";
  EXPECT_EQ(prefix + "attribute_exists", Filter("attribute_exists(:s)"));
  EXPECT_EQ(prefix + "attribute_not_exists", Filter("attribute_not_exists(:s)"));
  EXPECT_EQ(prefix + "attribute_exists", Filter("attribute_exists(size(a))"));
  // attribute_type alone takes a value as its first operand.
  EXPECT_EQ("OK", Filter("attribute_type(:s, :tS)"));
  EXPECT_EQ(std::string(kF) + "List index is not within the allowable range", Filter("a[2147483648] = :s"));
}

TEST_F(ExpressionParserTest, OperandsMustBeDistinct) {
  const std::string prefix = std::string(kF) +
                             "The first operand must be distinct from the remaining operands for this operator or "
                             "function; operator: ";
  EXPECT_EQ(prefix + "=, first operand: [a]", Filter("a = a"));
  EXPECT_EQ(prefix + "<>, first operand: [a, b, [1]]", Filter("a.b[1] <> #a.b[1]"));
  EXPECT_EQ(prefix + "BETWEEN, first operand: [a]", Filter("a BETWEEN :n AND a"));
  EXPECT_EQ(prefix + "IN, first operand: [a]", Filter("a IN (:s, a)"));
  EXPECT_EQ(prefix + "begins_with, first operand: [a]", Filter("begins_with(a, a)"));
  EXPECT_EQ(prefix + "contains, first operand: [a]", Filter("contains(a, a)"));
  EXPECT_EQ("OK", Filter("a = a.b"));
  EXPECT_EQ("OK", Filter("a.b[1] = a.b[2]"));
}

TEST_F(ExpressionParserTest, BetweenBounds) {
  EXPECT_EQ(std::string(kF) +
                "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: "
                "AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}",
            Filter("a BETWEEN :n AND :s"));
  EXPECT_EQ(std::string(kF) +
                "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound "
                "operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}",
            Filter("a BETWEEN :n2 AND :n"));
  EXPECT_EQ(std::string(kF) +
                "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound "
                "operand: AttributeValue: {S:y}, upper bound operand: AttributeValue: {S:x}",
            Filter("a BETWEEN :s2 AND :s"));
  EXPECT_EQ(std::string(kF) +
                "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound "
                "operand: AttributeValue: {B:AQI=}, upper bound operand: AttributeValue: {B:AQ==}",
            Filter("a BETWEEN :b AND :b2"));
  EXPECT_EQ("OK", Filter("a BETWEEN :n AND :n"));
  EXPECT_EQ("OK", Filter("a BETWEEN :n AND :n2"));
  // Bounds read from the item are only compared when evaluated.
  EXPECT_EQ("OK", Filter("a BETWEEN b AND :s"));
}

TEST_F(ExpressionParserTest, InOperandLimit) {
  std::string list = ":s";
  for (int i = 1; i < 100; i++) list += ", :s";
  EXPECT_EQ("OK", Filter("a IN (" + list + ")"));
  EXPECT_EQ(std::string(kF) + "The IN operator is provided with too many operands; number of operands: 101",
            Filter("a IN (" + list + ", :s)"));
}

TEST_F(ExpressionParserTest, PathDepthLimit) {
  std::string path = "a";
  for (int i = 1; i < 32; i++) path += ".a";
  EXPECT_EQ("OK", Filter(path + " = :s"));
  EXPECT_EQ(std::string(kF) + "The document path has too many nesting levels; nesting levels: 33",
            Filter(path + "[0] = :s"));
}

TEST_F(ExpressionParserTest, RedundantParentheses) {
  EXPECT_EQ(std::string(kF) + "The expression has redundant parentheses;", Filter("((a = :s))"));
  EXPECT_EQ(std::string(kF) + "The expression has redundant parentheses;", Filter("((a)) = :s"));
  EXPECT_EQ(std::string(kF) + "The expression has redundant parentheses;", Filter("a = ((:s))"));
  EXPECT_EQ(std::string(kF) + "The expression has redundant parentheses;", Filter("NOT ((a = :s))"));
  EXPECT_EQ(std::string(kF) + "The expression has redundant parentheses;",
            Filter("begins_with(((a)), :s)"));
  EXPECT_EQ("OK", Filter("(a = :s)"));
  EXPECT_EQ("OK", Filter("(a) = (:s)"));
  EXPECT_EQ("OK", Filter("((a = :s) AND (b = :s))"));
  EXPECT_EQ("OK", Filter("(NOT (a = :s))"));
}

TEST_F(ExpressionParserTest, ErrorPrecedence) {
  // Redundant parentheses before anything else.
  EXPECT_EQ(std::string(kF) + "The expression has redundant parentheses;", Filter("((foo(abort) = :zz))"));
  // Unknown function before misuse, reserved word and undefined placeholders.
  EXPECT_EQ(std::string(kF) + "Invalid function name; function: foo", Filter("size(abort) AND foo(#zz)"));
  // Misuse before reserved words.
  EXPECT_EQ(std::string(kF) + "The function is not allowed to be used this way in an expression; function: size",
            Filter("abort = :s AND size(a)"));
  // Reserved words before undefined placeholders.
  EXPECT_EQ(std::string(kF) + "Attribute name is a reserved keyword; reserved keyword: abort",
            Filter("#zz = :zz AND abort = :s"));
  // Undefined placeholders before operand counts and types.
  EXPECT_EQ(std::string(kF) +
                "An expression attribute value used in expression is not defined; attribute value: :zz",
            Filter("begins_with(a) AND begins_with(a, :n) AND b = :zz"));
  // Operand counts before repeated operands and types.
  EXPECT_EQ(std::string(kF) +
                "Incorrect number of operands for operator or function; operator or function: contains, number of "
                "operands: 1",
            Filter("a = a AND begins_with(a, :n) AND contains(a)"));
  // Repeated operands before types.
  EXPECT_EQ(std::string(kF) +
                "The first operand must be distinct from the remaining operands for this operator or function; "
                "operator: =, first operand: [b]",
            Filter("begins_with(a, :n) AND b = b"));
}

// ---- Projection ----

TEST_F(ExpressionParserTest, ProjectionPaths) {
  std::vector<DocumentPath> paths;
  ASSERT_EQ("OK", Projection("z, #a.b[2], c.#dot", &paths));
  ASSERT_EQ(3u, paths.size());
  EXPECT_EQ("[z]", FormatPath(paths[0]));
  EXPECT_EQ("[a, b, [2]]", FormatPath(paths[1]));
  EXPECT_EQ("[c, x.y]", FormatPath(paths[2]));
  EXPECT_EQ("OK", Projection("a[1], a[2], b.c, b.d"));
}

TEST_F(ExpressionParserTest, ProjectionErrors) {
  const std::string p = "Invalid ProjectionExpression: ";
  EXPECT_EQ(p + "The expression can not be empty;", Projection(""));
  EXPECT_EQ(p + "Syntax error; token: \"<EOF>\", near: \",\"", Projection("a,"));
  EXPECT_EQ(p + "Syntax error; token: \":s\", near: \":s\"", Projection(":s"));
  EXPECT_EQ(p + "Syntax error; token: \"(\", near: \"size(a\"", Projection("size(a)"));
  EXPECT_EQ(p + "Attribute name is a reserved keyword; reserved keyword: Name", Projection("a, b.Name"));
  EXPECT_EQ(p + "An expression attribute name used in the document path is not defined; attribute name: #q",
            Projection("a, #q"));
  EXPECT_EQ(p + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
                "[a], path two: [a, b]",
            Projection("a, a.b"));
  EXPECT_EQ(p + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
                "[a, b], path two: [a]",
            Projection("a.b, c, a"));
  EXPECT_EQ(p + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
                "[a], path two: [a]",
            Projection("a, #a"));
  EXPECT_EQ(p + "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: "
                "[a, b], path two: [a, [0]]",
            Projection("a.b, a[0]"));
  EXPECT_EQ(p + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
                "[l, [1]], path two: [l, [1], x]",
            Projection("l[1], l[2], l[1].x"));
  std::string deep = "a";
  for (int i = 0; i < 32; i++) deep += "[0]";
  EXPECT_EQ(p + "The document path has too many nesting levels; nesting levels: 33", Projection(deep));
  // Reserved words rank before overlaps.
  EXPECT_EQ(p + "Attribute name is a reserved keyword; reserved keyword: year", Projection("a, a, year"));
}

// ---- Update ----

TEST_F(ExpressionParserTest, UpdateClauses) {
  UpdateExpr u;
  ASSERT_EQ("OK", Update("SET a = :n, b = c + :n, #p.x = list_append(if_not_exists(l, :l), :l) "
                         "REMOVE r[1], q ADD n :n, s :ss DELETE d :ns",
                         &u));
  ASSERT_EQ(3u, u.set_actions.size());
  EXPECT_EQ(SetAction::Op::kAssign, u.set_actions[0].op);
  EXPECT_EQ(UpdateOperand::Kind::kValue, u.set_actions[0].left.kind);
  EXPECT_EQ(SetAction::Op::kPlus, u.set_actions[1].op);
  EXPECT_EQ(UpdateOperand::Kind::kPath, u.set_actions[1].left.kind);
  EXPECT_EQ("[c]", FormatPath(u.set_actions[1].left.path));
  const UpdateOperand& append = u.set_actions[2].left;
  EXPECT_EQ(UpdateOperand::Kind::kListAppend, append.kind);
  ASSERT_EQ(2u, append.args.size());
  EXPECT_EQ(UpdateOperand::Kind::kIfNotExists, append.args[0].kind);
  EXPECT_EQ(UpdateOperand::Kind::kValue, append.args[1].kind);
  ASSERT_EQ(2u, u.remove_actions.size());
  EXPECT_EQ("[r, [1]]", FormatPath(u.remove_actions[0]));
  ASSERT_EQ(2u, u.add_actions.size());
  EXPECT_EQ(AttrType::kSS, u.add_actions[1].value.type);
  ASSERT_EQ(1u, u.delete_actions.size());
  EXPECT_EQ(AttrType::kNS, u.delete_actions[0].value.type);
}

TEST_F(ExpressionParserTest, UpdateMinusAndParentheses) {
  UpdateExpr u;
  ASSERT_EQ("OK", Update("set a = (b - :n)", &u));
  EXPECT_EQ(SetAction::Op::kMinus, u.set_actions[0].op);
  EXPECT_EQ(UpdateOperand::Kind::kValue, u.set_actions[0].right.kind);
  EXPECT_EQ("OK", Update("SET a = if_not_exists(a, :n) + :n"));
  EXPECT_EQ("OK", Update("SET a = (b) - (c)"));
}

TEST_F(ExpressionParserTest, UpdateSectionsOnlyOnce) {
  const std::string u = "Invalid UpdateExpression: ";
  EXPECT_EQ(u + "The \"SET\" section can only be used once in an update expression;",
            Update("SET a = :n SET b = :n"));
  EXPECT_EQ(u + "The \"REMOVE\" section can only be used once in an update expression;",
            Update("remove a SET b = :n REMOVE c"));
  EXPECT_EQ(u + "The \"ADD\" section can only be used once in an update expression;", Update("ADD a :n add b :n"));
  EXPECT_EQ(u + "The \"DELETE\" section can only be used once in an update expression;",
            Update("DELETE a :ss DELETE b :ss"));
}

TEST_F(ExpressionParserTest, UpdatePathsMustNotOverlap) {
  const std::string u = "Invalid UpdateExpression: ";
  EXPECT_EQ(u + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
                "[a], path two: [a, b]",
            Update("SET a = :n REMOVE a.b"));
  EXPECT_EQ(u + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: "
                "[a], path two: [a]",
            Update("SET a = :n, #a = :n"));
  EXPECT_EQ(u + "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: "
                "[a, [1]], path two: [a, b]",
            Update("REMOVE a[1] ADD a.b :n"));
  // Reading a path that is also written is fine.
  EXPECT_EQ("OK", Update("SET a = a + :n, b = a"));
  EXPECT_EQ("OK", Update("SET a[1] = :n, a[2] = :n"));
}

TEST_F(ExpressionParserTest, UpdateOperandTypes) {
  const std::string u = "Invalid UpdateExpression: Incorrect operand type for operator or function; ";
  EXPECT_EQ(u + "operator: ADD, operand type: STRING", Update("ADD a :s"));
  EXPECT_EQ(u + "operator: ADD, operand type: LIST", Update("ADD a :l"));
  EXPECT_EQ(u + "operator: ADD, operand type: MAP", Update("ADD a :m"));
  EXPECT_EQ(u + "operator: ADD, operand type: BOOLEAN", Update("ADD a :bool"));
  EXPECT_EQ(u + "operator: DELETE, operand type: NUMBER", Update("DELETE a :n"));
  EXPECT_EQ(u + "operator: DELETE, operand type: BINARY", Update("DELETE a :b"));
  EXPECT_EQ(u + "operator: DELETE, operand type: NULL", Update("DELETE a :null"));
  EXPECT_EQ("OK", Update("ADD a :n, b :ss, c :ns, d :bs DELETE e :ss, f :ns, g :bs"));
  EXPECT_EQ(u + "operator or function: +, operand type: S", Update("SET a = :s + :n"));
  EXPECT_EQ(u + "operator or function: -, operand type: L", Update("SET a = b - list_append(c, :l)"));
  EXPECT_EQ(u + "operator or function: +, operand type: S", Update("SET a = if_not_exists(a, :s) + b"));
  EXPECT_EQ(u + "operator or function: list_append, operand type: S", Update("SET a = list_append(a, :s)"));
  EXPECT_EQ(u + "operator or function: list_append, operand type: N", Update("SET a = list_append(:n, a)"));
  EXPECT_EQ("OK", Update("SET a = list_append(if_not_exists(a, :l), b)"));
}

TEST_F(ExpressionParserTest, UpdateFunctionErrors) {
  const std::string u = "Invalid UpdateExpression: ";
  EXPECT_EQ(u + "Invalid function name; function: size", Update("SET a = size(b)"));
  EXPECT_EQ(u + "Invalid function name; function: LIST_APPEND", Update("SET a = LIST_APPEND(a, :l)"));
  EXPECT_EQ(u + "Incorrect number of operands for operator or function; operator or function: if_not_exists, number "
                "of operands: 1",
            Update("SET a = if_not_exists(a)"));
  EXPECT_EQ(u + "Incorrect number of operands for operator or function; operator or function: list_append, number of "
                "operands: 3",
            Update("SET a = list_append(a, :l, :l)"));
  EXPECT_EQ(u + "Operator or function requires a document path; operator or function: if_not_exists",
            Update("SET a = if_not_exists(:n, :n)"));
}

TEST_F(ExpressionParserTest, UpdateOtherErrors) {
  const std::string u = "Invalid UpdateExpression: ";
  EXPECT_EQ(u + "The expression can not be empty;", Update(""));
  EXPECT_EQ(u + "Syntax error; token: \"whatever\", near: \"whatever\"", Update("whatever"));
  EXPECT_EQ(u + "Syntax error; token: \"<EOF>\", near: \",\"", Update("REMOVE a, b,"));
  EXPECT_EQ(u + "Attribute name is a reserved keyword; reserved keyword: abOrT", Update("SET a.abOrT = :n"));
  EXPECT_EQ(u + "An expression attribute name used in the document path is not defined; attribute name: #b",
            Update("SET a.#b = :n"));
  EXPECT_EQ(u + "An expression attribute value used in expression is not defined; attribute value: :q",
            Update("ADD a :q"));
  EXPECT_EQ(u + "An expression attribute value used in expression is not defined; attribute value: :q",
            Update("SET a = b + :q"));
  EXPECT_EQ(u + "The expression has redundant parentheses;", Update("SET a = ((b))"));
  // A repeated section outranks everything but redundant parentheses.
  EXPECT_EQ(u + "The \"SET\" section can only be used once in an update expression;",
            Update("SET abort = :q SET a = :n"));
}

}  // namespace
}  // namespace dynapage
