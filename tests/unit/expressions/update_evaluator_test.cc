// The update evaluator: each clause and function of UpdateExpression applied to items, and each error it reports
// when an update does not fit the item.

#include "engine/expressions/update_evaluator.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/base/messages.h"
#include "engine/expressions/attribute_updates.h"
#include "engine/expressions/expression_parser.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {
namespace {

const char kInvalidPath[] = "The document path provided in the update expression is invalid for update";
const char kMissing[] = "The provided expression refers to an attribute that does not exist in the item";
const char kWrongType[] = "An operand in the update expression has an incorrect data type";
const char kOverflow[] = "Number overflow. Attempting to store a number with magnitude larger than supported range";

AttributeMap Json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  AttributeMap map;
  Status s = DecodeAttributeMap(doc, &map);
  EXPECT_TRUE(s.ok()) << text << ": " << s.message();
  return map;
}

class UpdateEvaluatorTest : public ::testing::Test {
 protected:
  UpdateEvaluatorTest() {
    values_ = Json(R"({":one":{"N":"1"},":two":{"N":"2"},":half":{"N":"0.5"},":s":{"S":"x"},":l":{"L":[{"S":"y"}]},
                       ":l2":{"L":[{"S":"z"}]},":m":{"M":{"k":{"S":"v"}}},":ss":{"SS":["a","b"]},
                       ":ss2":{"SS":["b","c"]},":ns":{"NS":["1"]},
                       ":big":{"N":"9.9999999999999999999999999999999999999E+125"},
                       ":e50":{"N":"1e50"}})");
    names_ = {{"#k", "key with spaces"}};
  }

  // The item (as canonical wire JSON) after applying expression to item_json, or "error: <message>".
  std::string Apply(const std::string& item_json, const std::string& expression) {
    ExpressionAttributes attrs(&names_, &values_);
    UpdateExpr update;
    Status s = ParseUpdate(expression, &attrs, &update);
    EXPECT_TRUE(s.ok()) << expression << ": " << s.message();
    if (!s.ok()) return "parse error";
    AttributeMap item = Json(item_json);
    s = ApplyUpdate(update, UpdateDialect::kExpression, &item);
    if (!s.ok()) {
      EXPECT_EQ(ErrorCode::kValidation, s.code());
      return "error: " + s.message();
    }
    return EncodeAttributeMap(item);
  }

  // Canonical JSON of an item written by hand.
  static std::string C(const std::string& item_json) { return EncodeAttributeMap(Json(item_json)); }

  ExpressionNameMap names_;
  ExpressionValueMap values_;
};

// ---- SET ----

TEST_F(UpdateEvaluatorTest, SetTopLevelAddsAndReplaces) {
  EXPECT_EQ(C(R"({"a":{"N":"1"},"b":{"S":"x"}})"), Apply(R"({"a":{"S":"old"}})", "SET a = :one, b = :s"));
  EXPECT_EQ(C(R"({"key with spaces":{"M":{"k":{"S":"v"}}}})"), Apply("{}", "SET #k = :m"));
}

TEST_F(UpdateEvaluatorTest, SetNestedMapMember) {
  EXPECT_EQ(C(R"({"a":{"M":{"b":{"M":{"c":{"N":"1"},"d":{"S":"x"}}}}}})"),
            Apply(R"({"a":{"M":{"b":{"M":{"d":{"S":"x"}}}}}})", "SET a.b.c = :one"));
}

TEST_F(UpdateEvaluatorTest, SetIntoMissingOrMistypedParentIsInvalidPath) {
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply("{}", "SET a.b = :one"));
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply(R"({"a":{"S":"x"}})", "SET a.b = :one"));
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply(R"({"a":{"M":{}}})", "SET a.b.c = :one"));
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply(R"({"a":{"M":{}}})", "SET a[0] = :one"));
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply(R"({"a":{"L":[]}})", "SET a.b = :one"));
}

TEST_F(UpdateEvaluatorTest, SetListElementReplacesOrAppendsPastTheEnd) {
  const std::string list = R"({"a":{"L":[{"S":"p"},{"S":"q"}]}})";
  EXPECT_EQ(C(R"({"a":{"L":[{"S":"p"},{"N":"1"}]}})"), Apply(list, "SET a[1] = :one"));
  EXPECT_EQ(C(R"({"a":{"L":[{"S":"p"},{"S":"q"},{"N":"1"}]}})"), Apply(list, "SET a[7] = :one"));
  EXPECT_EQ(C(R"({"a":{"L":[{"S":"p"},{"S":"q"},{"N":"1"},{"N":"2"}]}})"),
            Apply(list, "SET a[5] = :one, a[6] = :two"));
  EXPECT_EQ(C(R"({"a":{"L":[{"M":{"x":{"N":"1"}}}]}})"), Apply(R"({"a":{"L":[{"M":{}}]}})", "SET a[0].x = :one"));
}

TEST_F(UpdateEvaluatorTest, ValuesAreComputedFromTheItemBeforeTheUpdate) {
  EXPECT_EQ(C(R"({"a":{"N":"2"},"b":{"N":"1"}})"), Apply(R"({"a":{"N":"1"},"b":{"N":"2"}})", "SET a = b, b = a"));
  EXPECT_EQ(C(R"({"a":{"N":"2"},"b":{"N":"2"}})"), Apply(R"({"a":{"N":"1"}})", "SET a = a + :one, b = a + :one"));
}

TEST_F(UpdateEvaluatorTest, SetFromMissingPathIsAnError) {
  EXPECT_EQ(std::string("error: ") + kMissing, Apply("{}", "SET a = b"));
  EXPECT_EQ(std::string("error: ") + kMissing, Apply("{}", "SET a = b + :one"));
  EXPECT_EQ(std::string("error: ") + kMissing, Apply(R"({"b":{"M":{}}})", "SET a = b.c"));
}

TEST_F(UpdateEvaluatorTest, Arithmetic) {
  EXPECT_EQ(C(R"({"a":{"N":"3"}})"), Apply(R"({"a":{"N":"1"}})", "SET a = a + :two"));
  EXPECT_EQ(C(R"({"a":{"N":"-1"}})"), Apply(R"({"a":{"N":"1"}})", "SET a = a - :two"));
  EXPECT_EQ(C(R"({"a":{"N":"1.5"}})"), Apply(R"({"a":{"N":"1"}})", "SET a = :half + a"));
  EXPECT_EQ(C(R"({"a":{"N":"0"}})"), Apply(R"({"a":{"N":"0.5"}})", "SET a = a - :half"));
  // Exact decimals: 0.1 + 0.2 is 0.3, never 0.30000000000000004.
  EXPECT_EQ(C(R"({"a":{"N":"0.3"},"b":{"N":"0.2"}})"), Apply(R"({"a":{"N":"0.1"},"b":{"N":"0.2"}})", "SET a = a + b"));
}

TEST_F(UpdateEvaluatorTest, ArithmeticOnNonNumbersIsAnIncorrectDataType) {
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"a":{"S":"1"}})", "SET a = a + :one"));
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"a":{"N":"1"},"b":{"SS":["x"]}})", "SET a = a - b"));
}

TEST_F(UpdateEvaluatorTest, ArithmeticOverflowReportsDecimalsMessage) {
  EXPECT_EQ(std::string("error: ") + kOverflow, Apply(R"({"a":{"N":"9.9999999999999999999999999999999999999E+125"}})",
                                                     "SET a = a + :big"));
  // 1e50 + 1 needs 51 significant digits: DynamoDB reports it as an overflow too.
  EXPECT_EQ(std::string("error: ") + kOverflow, Apply(R"({"a":{"N":"1"}})", "SET a = a + :e50"));
}

TEST_F(UpdateEvaluatorTest, IfNotExists) {
  EXPECT_EQ(C(R"({"a":{"N":"1"}})"), Apply("{}", "SET a = if_not_exists(a, :one)"));
  EXPECT_EQ(C(R"({"a":{"N":"5"}})"), Apply(R"({"a":{"N":"5"}})", "SET a = if_not_exists(a, :one)"));
  EXPECT_EQ(C(R"({"a":{"N":"6"}})"), Apply(R"({"a":{"N":"5"}})", "SET a = if_not_exists(a, :two) + :one"));
  EXPECT_EQ(C(R"({"a":{"N":"3"}})"), Apply("{}", "SET a = if_not_exists(a, :two) + :one"));
  EXPECT_EQ(C(R"({"b":{"S":"x"},"c":{"S":"x"}})"), Apply(R"({"b":{"S":"x"}})", "SET c = if_not_exists(c, b)"));
}

TEST_F(UpdateEvaluatorTest, ListAppend) {
  const std::string list = R"({"a":{"L":[{"S":"p"}]}})";
  EXPECT_EQ(C(R"({"a":{"L":[{"S":"p"},{"S":"y"}]}})"), Apply(list, "SET a = list_append(a, :l)"));
  EXPECT_EQ(C(R"({"a":{"L":[{"S":"y"},{"S":"p"}]}})"), Apply(list, "SET a = list_append(:l, a)"));
  EXPECT_EQ(C(R"({"a":{"L":[{"S":"y"},{"S":"z"}]}})"), Apply("{}", "SET a = list_append(:l, :l2)"));
  EXPECT_EQ(C(R"({"a":{"L":[{"S":"y"},{"S":"z"}]}})"), Apply("{}", "SET a = list_append(if_not_exists(a, :l), :l2)"));
  EXPECT_EQ(std::string("error: ") + kMissing, Apply("{}", "SET a = list_append(a, :l)"));
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"a":{"S":"x"}})", "SET a = list_append(a, :l)"));
}

// ---- REMOVE ----

TEST_F(UpdateEvaluatorTest, RemoveAttributesAndMembers) {
  EXPECT_EQ(C(R"({"b":{"N":"1"}})"), Apply(R"({"a":{"N":"1"},"b":{"N":"1"}})", "REMOVE a"));
  EXPECT_EQ(C(R"({"a":{"M":{}}})"), Apply(R"({"a":{"M":{"b":{"N":"1"}}}})", "REMOVE a.b"));
  // Missing attributes and members are no error.
  EXPECT_EQ(C(R"({"a":{"M":{}}})"), Apply(R"({"a":{"M":{}}})", "REMOVE x, a.b"));
}

TEST_F(UpdateEvaluatorTest, RemoveFromMissingOrMistypedParentIsInvalidPath) {
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply("{}", "REMOVE a.b"));
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply(R"({"a":{"S":"x"}})", "REMOVE a[0]"));
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply(R"({"a":{"L":[]}})", "REMOVE a.b"));
}

TEST_F(UpdateEvaluatorTest, RemoveListElementsByTheirIndexBeforeTheUpdate) {
  const std::string list = R"({"a":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"}]}})";
  EXPECT_EQ(C(R"({"a":{"L":[{"N":"0"},{"N":"2"},{"N":"3"}]}})"), Apply(list, "REMOVE a[1]"));
  EXPECT_EQ(C(R"({"a":{"L":[{"N":"0"},{"N":"3"}]}})"), Apply(list, "REMOVE a[1], a[2]"));
  EXPECT_EQ(C(R"({"a":{"L":[{"N":"0"},{"N":"3"}]}})"), Apply(list, "REMOVE a[2], a[1]"));
  EXPECT_EQ(C(list), Apply(list, "REMOVE a[9]"));
  EXPECT_EQ(C(R"({"a":{"L":[{"L":[{"N":"2"}]}]}})"),
            Apply(R"({"a":{"L":[{"N":"0"},{"L":[{"N":"1"},{"N":"2"}]}]}})", "REMOVE a[0], a[1][0]"));
}

// ---- ADD ----

TEST_F(UpdateEvaluatorTest, AddNumbers) {
  EXPECT_EQ(C(R"({"a":{"N":"3"}})"), Apply(R"({"a":{"N":"1"}})", "ADD a :two"));
  EXPECT_EQ(C(R"({"a":{"N":"2"}})"), Apply("{}", "ADD a :two"));
  EXPECT_EQ(C(R"({"m":{"M":{"c":{"N":"1"}}}})"), Apply(R"({"m":{"M":{}}})", "ADD m.c :one"));
  EXPECT_EQ(std::string("error: ") + kOverflow,
            Apply(R"({"a":{"N":"9.9999999999999999999999999999999999999E+125"}})", "ADD a :big"));
}

TEST_F(UpdateEvaluatorTest, AddSets) {
  EXPECT_EQ(C(R"({"s":{"SS":["a","b","c"]}})"), Apply(R"({"s":{"SS":["a","b"]}})", "ADD s :ss2"));
  EXPECT_EQ(C(R"({"s":{"SS":["a","b"]}})"), Apply("{}", "ADD s :ss"));
}

TEST_F(UpdateEvaluatorTest, AddToMismatchedTypeIsAnIncorrectDataType) {
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"a":{"S":"x"}})", "ADD a :one"));
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"a":{"N":"1"}})", "ADD a :ss"));
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"a":{"SS":["x"]}})", "ADD a :ns"));
  EXPECT_EQ(std::string("error: ") + kInvalidPath, Apply("{}", "ADD m.c :one"));
}

// ---- DELETE ----

TEST_F(UpdateEvaluatorTest, DeleteFromSets) {
  EXPECT_EQ(C(R"({"s":{"SS":["c"]}})"), Apply(R"({"s":{"SS":["a","b","c"]}})", "DELETE s :ss"));
  // Deleting absent elements, or from an absent attribute, is no error.
  EXPECT_EQ(C(R"({"s":{"SS":["c"]}})"), Apply(R"({"s":{"SS":["c"]}})", "DELETE s :ss"));
  EXPECT_EQ(C("{}"), Apply("{}", "DELETE s :ss"));
  // A set left empty is removed: DynamoDB has no empty sets.
  EXPECT_EQ(C(R"({"k":{"N":"1"}})"), Apply(R"({"k":{"N":"1"},"s":{"SS":["b","a"]}})", "DELETE s :ss"));
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"s":{"NS":["1"]}})", "DELETE s :ss"));
  EXPECT_EQ(std::string("error: ") + kWrongType, Apply(R"({"s":{"S":"a"}})", "DELETE s :ss"));
}

// ---- Clauses together, nesting ----

TEST_F(UpdateEvaluatorTest, AllClausesInOneExpression) {
  EXPECT_EQ(C(R"({"a":{"N":"1"},"c":{"N":"3"},"s":{"SS":["a"]},"t":{"SS":["a","b"]}})"),
            Apply(R"({"b":{"N":"0"},"c":{"N":"1"},"s":{"SS":["a","b"]}})",
                  "SET a = :one REMOVE b ADD c :two, t :ss DELETE s :ss2"));
}

TEST_F(UpdateEvaluatorTest, NestingPastThirtyTwoLevelsIsRefused) {
  std::string deep = R"({"S":"x"})";
  for (int i = 0; i < 32; i++) deep = R"({"L":[)" + deep + "]}";
  values_[":deep"] = Json(R"({"v":)" + deep + "}").at("v");
  EXPECT_EQ(C(R"({"a":)" + deep + "}"), Apply("{}", "SET a = :deep"));
  EXPECT_EQ(std::string("error: ") + kNestingTooDeep, Apply(R"({"a":{"L":[]}})", "SET a[0] = :deep"));
}

// ---- AttributeUpdates through the same evaluator ----

TEST_F(UpdateEvaluatorTest, AttributeUpdatesUseTheirOwnTypeMismatchMessage) {
  std::vector<AttributeUpdate> updates = {{"a", "ADD", AttributeValue::Number("1")}};
  UpdateExpr update;
  ASSERT_TRUE(ConvertAttributeUpdates(updates, &update).ok());
  AttributeMap item = Json(R"({"a":{"S":"x"}})");
  Status s = ApplyUpdate(update, UpdateDialect::kAttributeUpdates, &item);
  EXPECT_EQ("Type mismatch for attribute to update", s.message());
  item = Json(R"({"a":{"N":"2"}})");
  ASSERT_TRUE(ApplyUpdate(update, UpdateDialect::kAttributeUpdates, &item).ok());
  EXPECT_EQ(C(R"({"a":{"N":"3"}})"), EncodeAttributeMap(item));
}

}  // namespace
}  // namespace dynapage
