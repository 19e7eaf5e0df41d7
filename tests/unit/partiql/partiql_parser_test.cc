#include "engine/partiql/partiql_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace dynapage {
namespace {

PartiqlStatement Parse(const std::string& text) {
  PartiqlStatement s;
  Status status = ParsePartiql(text, &s);
  EXPECT_TRUE(status.ok()) << text << ": " << status.message();
  return s;
}

std::string Error(const std::string& text) {
  PartiqlStatement s;
  Status status = ParsePartiql(text, &s);
  EXPECT_FALSE(status.ok()) << text;
  EXPECT_EQ(ErrorCode::kValidation, status.code()) << text;
  return status.message();
}

TEST(PartiqlParserTest, SelectWithKeywordsInAnyCase) {
  PartiqlStatement s = Parse("select * from \"Music\" where Artist = 'A' and Year > 2000");
  EXPECT_EQ(PartiqlStatement::Kind::kSelect, s.kind);
  EXPECT_EQ("Music", s.table);
  EXPECT_FALSE(s.index);
  EXPECT_TRUE(s.projection.empty());
  ASSERT_TRUE(s.where);
  EXPECT_EQ(PartiqlCondition::Kind::kAnd, s.where->kind);
  ASSERT_EQ(2u, s.where->children.size());
  EXPECT_EQ(Comparator::kGt, s.where->children[1]->comparator);
  EXPECT_EQ("2000", s.where->children[1]->operands[1].value.scalar);
}

TEST(PartiqlParserTest, AnUnexpectedCharacterIsQuotedWhole) {
  // Two- and four-byte UTF-8 characters where a symbol was expected: the message quotes each whole, never a lone
  // lead byte (a message that cuts a character in two is not UTF-8, and BatchExecuteStatement lists it in a
  // 200 answer that a client's JSON decoder would refuse).
  const std::string syntax = "Statement wasn't well formed, can't be processed: ";
  EXPECT_EQ(syntax + "Unexpected character '\xDA\x8C' at 1:7", Error("SELECT\xDA\x8C\xDF\xB9ROM t"));
  EXPECT_EQ(syntax + "Unexpected character '\xF0\x9F\x98\x80' at 1:8", Error("SELECT \xF0\x9F\x98\x80 FROM t"));
}

TEST(PartiqlParserTest, ProjectionPathsAndIndexTarget) {
  PartiqlStatement s = Parse("SELECT a, m.k.z, tags[1] FROM \"t\".\"byA\"");
  ASSERT_EQ(3u, s.projection.size());
  EXPECT_EQ("z", PartiqlProjectedName(s.projection[1]));
  EXPECT_EQ("tags[1]", PartiqlProjectedName(s.projection[2]));
  EXPECT_EQ("t", s.table);
  EXPECT_EQ("byA", s.index.value_or(""));
}

TEST(PartiqlParserTest, InsertLiteralsOfEveryType) {
  PartiqlStatement s = Parse(
      "INSERT INTO t VALUE {'pk': 'it''s', 'n': -1.5e2, 'b': TRUE, 'z': null, 'l': [1, 'x'], 'm': {'k': 'v'}, "
      "'ss': <<'a', 'b'>>, 'ns': <<1, 2>>, 'p': ?}");
  EXPECT_EQ(PartiqlStatement::Kind::kInsert, s.kind);
  ASSERT_EQ(9u, s.item.size());
  EXPECT_EQ("it's", s.item[0].second.value.scalar);
  EXPECT_EQ(AttrType::kN, s.item[1].second.value.type);
  EXPECT_EQ("-150", s.item[1].second.value.scalar);
  EXPECT_EQ(AttrType::kBool, s.item[2].second.value.type);
  EXPECT_EQ(AttrType::kNull, s.item[3].second.value.type);
  EXPECT_EQ(AttrType::kL, s.item[4].second.value.type);
  EXPECT_EQ(AttrType::kM, s.item[5].second.value.type);
  EXPECT_EQ(AttrType::kSS, s.item[6].second.value.type);
  EXPECT_EQ(AttrType::kNS, s.item[7].second.value.type);
  EXPECT_EQ(PartiqlOperand::Kind::kParameter, s.item[8].second.kind);
  EXPECT_EQ(1u, s.parameter_count);
}

TEST(PartiqlParserTest, ParametersCountedLeftToRightNotInsideStrings) {
  PartiqlStatement s = Parse("SELECT * FROM t WHERE a = '?' AND b IN [?, ?] AND c = ? ; -- a comment ?");
  EXPECT_EQ(3u, s.parameter_count);
  EXPECT_EQ(2u, s.where->children[2]->operands[1].parameter);
}

TEST(PartiqlParserTest, UpdateAndDeleteClauses) {
  PartiqlStatement u = Parse(
      "UPDATE t SET a = 1 SET b = b + 2, l = list_append(l, [3]) REMOVE c, d[0] SET s = set_add(s, <<'x'>>) "
      "WHERE pk = 'x' RETURNING MODIFIED NEW *");
  EXPECT_EQ(PartiqlStatement::Kind::kUpdate, u.kind);
  EXPECT_EQ(4u, u.set_items.size());
  EXPECT_EQ(PartiqlSetValue::Kind::kPlus, u.set_items[1].value.kind);
  EXPECT_EQ(PartiqlSetValue::Kind::kListAppend, u.set_items[2].value.kind);
  EXPECT_EQ(PartiqlSetValue::Kind::kSetAdd, u.set_items[3].value.kind);
  EXPECT_EQ(2u, u.remove_paths.size());
  EXPECT_EQ(PartiqlReturning::kModifiedNew, u.returning);
  PartiqlStatement d = Parse("DELETE FROM t WHERE pk = ? RETURNING ALL OLD *");
  EXPECT_EQ(PartiqlStatement::Kind::kDelete, d.kind);
  EXPECT_EQ(PartiqlReturning::kAllOld, d.returning);
}

TEST(PartiqlParserTest, ConditionsOperatorsAndFunctions) {
  PartiqlStatement s = Parse(
      "SELECT * FROM t WHERE (a = 1 OR NOT b <> 2) AND c BETWEEN 1 AND 5 AND d NOT IN (1, 2) AND e IS NOT MISSING "
      "AND f IS NULL AND begins_with(g, 'x') AND contains(h, 'y') AND size(i) >= 3 AND attribute_type(j, 'N') "
      "AND attribute_exists(k) AND l != 'z'");
  ASSERT_EQ(PartiqlCondition::Kind::kAnd, s.where->kind);
  EXPECT_EQ(11u, s.where->children.size());
  EXPECT_EQ(PartiqlCondition::Kind::kOr, s.where->children[0]->kind);
  EXPECT_EQ(PartiqlCondition::Kind::kNot, s.where->children[2]->kind);  // NOT IN
  EXPECT_EQ(PartiqlOperand::Kind::kSize, s.where->children[7]->operands[0].kind);
  EXPECT_EQ(Comparator::kNe, s.where->children[10]->comparator);
}

TEST(PartiqlParserTest, ExistsIsItsOwnStatement) {
  PartiqlStatement s = Parse("EXISTS(SELECT * FROM t WHERE pk = 'a' AND n > 1)");
  EXPECT_EQ(PartiqlStatement::Kind::kExists, s.kind);
  EXPECT_FALSE(s.negated_exists);
  EXPECT_TRUE(Parse("NOT EXISTS(SELECT * FROM t WHERE pk = 'a' AND n > 1)").negated_exists);
}

TEST(PartiqlParserTest, RejectionsWithDynamoDBsMessages) {
  const std::string syntax = "Statement wasn't well formed, can't be processed: ";
  EXPECT_EQ(syntax + "Expected data manipulation", Error("FETCH * FROM t"));
  EXPECT_EQ("Unexpected path component at 1:8:5", Error("SELECT COUNT(*) FROM t"));
  EXPECT_EQ("Unexpected path component at 1:8:1", Error("SELECT n + 1 FROM t"));
  EXPECT_EQ("Duplicate identifiers in select clause: a", Error("SELECT a, a FROM t"));
  EXPECT_EQ("Select projection doesn't support value or pivot keywords", Error("SELECT VALUE a FROM t"));
  EXPECT_EQ("Unsupported token in expression: DISTINCT", Error("SELECT DISTINCT a FROM t"));
  EXPECT_EQ("Aliasing is not supported", Error("SELECT * FROM t AS x"));
  EXPECT_EQ("Only select from a single table or index is supported.", Error("SELECT * FROM a, b"));
  EXPECT_EQ("A path may contain at most 2 components in the FROM clause", Error("SELECT * FROM \"t\".\"i\".\"x\""));
  EXPECT_EQ("Path component cannot be an empty string", Error("SELECT * FROM \"\""));
  EXPECT_EQ("Unexpected from source", Error("SELECT * FROM ?"));
  EXPECT_EQ("Unsupported clause: LIMIT at 1:17:5", Error("SELECT * FROM t LIMIT 5"));
  EXPECT_EQ("Unsupported clause: GROUP BY", Error("SELECT * FROM t GROUP BY a"));
  EXPECT_EQ("Unsupported operator in Condition Expression. Operator: +", Error("SELECT * FROM t WHERE v + 1 = 2"));
  EXPECT_EQ("Unsupported operator in Condition Expression. Operator: like", Error("SELECT * FROM t WHERE v LIKE 'a%'"));
  EXPECT_EQ("The left hand side argument to IS must be a Variable Reference, Literal, or Path",
            Error("SELECT * FROM t WHERE ? IS MISSING"));
  EXPECT_EQ("MISSING must be compared using IS operator", Error("SELECT * FROM t WHERE a = MISSING"));
  EXPECT_EQ("Unrecognized function: lower", Error("SELECT * FROM t WHERE lower(a) = 'x'"));
  EXPECT_EQ("Incorrect operand type for operator or function; operator or function: <, operand type: M",
            Error("SELECT * FROM t WHERE a < {'x': 1}"));
  EXPECT_EQ("Invalid attribute type name found; type: ZZ, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}",
            Error("SELECT * FROM t WHERE attribute_type(a, 'ZZ')"));
  EXPECT_EQ("EXISTS can only be used in ExecuteTransaction write requests.", Error("SELECT * FROM t WHERE exists(a)"));
  EXPECT_EQ(0u, Error("INSERT INTO t VALUES {'a': 1}").rfind(syntax, 0));
  EXPECT_EQ(0u, Error("INSERT INTO t VALUE {'a': 1} IF NOT EXISTS").rfind(syntax, 0));
  EXPECT_EQ(0u, Error("SELECT *, x FROM t").rfind(syntax, 0));
  EXPECT_EQ(
      "Unsupported format in item expression. Please use struct format {...} to express item values for insert "
      "statement. at 1:21:2",
      Error("INSERT INTO t VALUE <<{'a': 1}>>"));
  EXPECT_EQ("RETURNING is not supported in INSERT", Error("INSERT INTO t VALUE {'a': 1} RETURNING ALL OLD *"));
  EXPECT_EQ("FROM clause may only contain a single table name in data manipulation statements at 1:13:3",
            Error("INSERT INTO \"t\".\"i\" VALUE {'a': 1}"));
  EXPECT_EQ("This operation is not supported on an index", Error("UPDATE \"t\".\"i\" SET a = 1 WHERE pk = 'x'"));
  EXPECT_EQ("This operation is not supported on an index", Error("DELETE FROM \"t\".\"i\" WHERE pk = 'x'"));
  EXPECT_EQ("Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
            Error("DELETE FROM t WHERE pk = 'x' RETURNING ALL NEW *"));
  EXPECT_EQ("Empty bags are not supported at 1:27:2", Error("INSERT INTO t VALUE {'s': <<>>}"));
  EXPECT_EQ("Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags",
            Error("INSERT INTO t VALUE {'s': <<1, 'a'>>}"));
  EXPECT_EQ("Tuple keys must be of type String. Actual type: VariableReference under root at 1:22:1",
            Error("INSERT INTO t VALUE {a: 1}"));
  EXPECT_EQ("Duplicate keys in tuple. Key: a under root at 1:30:3", Error("INSERT INTO t VALUE {'a': 1, 'a': 2}"));
  EXPECT_EQ(0u, Error("SELECT size FROM t").rfind(syntax, 0));  // a function name must be quoted to be a name
  EXPECT_EQ(0u, Error("SELECT * FROM t WHERE a = `ion`").rfind(syntax, 0));
}

TEST(PartiqlParserTest, QuotedNamesAreNamesNotStrings) {
  PartiqlStatement s = Parse("SELECT \"size\" FROM t WHERE Artist = \"A\"");
  EXPECT_EQ("size", s.projection[0][0].name);
  EXPECT_EQ(PartiqlOperand::Kind::kPath, s.where->operands[1].kind);
}

TEST(PartiqlParserTest, TooManyInOperands) {
  std::string text = "SELECT * FROM t WHERE a IN [";
  for (int i = 0; i < 101; i++) text += (i ? ", " : "") + std::to_string(i);
  EXPECT_EQ("The IN operator is provided with too many operands; number of operands: 101", Error(text + "]"));
}

TEST(PartiqlParserTest, NestingIsBoundedWhateverTheInput) {
  // Hostile depth: each form fails as a syntax error instead of recursing without bound.
  const std::string syntax = "Statement wasn't well formed, can't be processed: ";
  std::string parens = "SELECT * FROM t WHERE " + std::string(200000, '(') + "a = 1" + std::string(200000, ')');
  EXPECT_EQ(0u, Error(parens).rfind(syntax, 0));
  std::string nots = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 100000; i++) nots += "NOT ";
  EXPECT_EQ(0u, Error(nots + "a = 1").rfind(syntax, 0));
  std::string lists = "INSERT INTO t VALUE {'a': " + std::string(200000, '[') + std::string(200000, ']') + "}";
  EXPECT_EQ(0u, Error(lists).rfind(syntax, 0));
  // Within the limit, nesting is fine.
  Parse("SELECT * FROM t WHERE ((((a = 1))))");
}

}  // namespace
}  // namespace dynapage
