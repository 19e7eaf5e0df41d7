// UpdateItem through HTTP: each clause and function, AttributeUpdates, item creation, each ReturnValues mode,
// each error (with the data left as it was), and concurrent ADDs on one counter.

#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kInvalid[] = "One or more parameter values were invalid: ";
const char kInvalidPath[] = "The document path provided in the update expression is invalid for update";
const char kWrongType[] = "An operand in the update expression has an incorrect data type";
const char kMissingAttribute[] =
    "The provided expression refers to an attribute that does not exist in the item";

// ExpressionAttributeValues holding those of `values` (a JSON object's inside) whose placeholder the expression
// uses, so that no unused-value error hides the one a test expects.
std::string ValuesFor(const std::string& expression, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  for (const auto& [name, value] : values) {
    size_t pos = 0;
    bool used = false;
    while ((pos = expression.find(name, pos)) != std::string::npos) {
      size_t end = pos + name.size();
      bool boundary = end == expression.size() ||
                      !(isalnum(static_cast<unsigned char>(expression[end])) || expression[end] == '_');
      if (boundary) {
        used = true;
        break;
      }
      pos = end;
    }
    if (used) out += (out.empty() ? "" : ",") + std::string("\"") + name + "\":" + value;
  }
  return out.empty() ? "" : R"("ExpressionAttributeValues":{)" + out + "}";
}

class UpdateItemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(200, server_.CreateTable("items", "pk", "S").status);
    ASSERT_EQ(200, server_.CreateTable("range", "pk", "S", "sk", "N").status);
    HttpResult r = server_.Call("CreateTable", R"({"TableName":"indexed","BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "GlobalSecondaryIndexes":[{"IndexName":"by_g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
                                   "Projection":{"ProjectionType":"ALL"}}]})");
    ASSERT_EQ(200, r.status) << r.Describe();
  }

  HttpResult Put(const std::string& item, const std::string& table = "items") {
    return server_.Call("PutItem", R"({"TableName":")" + table + R"(","Item":)" + item + "}");
  }
  // UpdateItem of {"pk":"a"} in "items" with the given members (a JSON object's inside, without braces).
  HttpResult Update(const std::string& members, const std::string& key = R"({"pk":{"S":"a"}})",
                    const std::string& table = "items") {
    return server_.Call("UpdateItem", R"({"TableName":")" + table + R"(","Key":)" + key +
                                          (members.empty() ? "" : "," + members) + "}");
  }
  // The stored item as compact JSON, or "none".
  std::string Stored(const std::string& key = R"({"pk":{"S":"a"}})", const std::string& table = "items") {
    HttpResult r = server_.Call("GetItem", R"({"TableName":")" + table + R"(","Key":)" + key +
                                               R"(,"ConsistentRead":true})");
    EXPECT_EQ(200, r.status) << r.Describe();
    return r.Has("Item") ? JsonText(r.json["Item"]) : "none";
  }
  std::string Attributes(const HttpResult& r) {
    EXPECT_EQ(200, r.status) << r.Describe();
    return r.Has("Attributes") ? JsonText(r.json["Attributes"]) : "none";
  }
  void ExpectValidation(const HttpResult& r, const std::string& message) {
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ("com.amazon.coral.validate#ValidationException", r.ErrorType()) << r.Describe();
    EXPECT_EQ(message, r.Message());
  }

  TestServer server_;
};

// ---- Creation and clauses ----

TEST_F(UpdateItemTest, UpdateOfMissingItemCreatesIt) {
  HttpResult r = Update(R"("UpdateExpression":"SET n = :v","ExpressionAttributeValues":{":v":{"N":"1"}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("none", Attributes(r));
  EXPECT_EQ(Canonical(R"({"n":{"N":"1"},"pk":{"S":"a"}})"), Stored());
}

TEST_F(UpdateItemTest, UpdateWithoutActionsCreatesKeyOnlyItem) {
  EXPECT_EQ(200, Update("").status);
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"}})"), Stored());
}

TEST_F(UpdateItemTest, OnlyRemovingActionsDoNotCreateMissingItem) {
  const std::string b = R"({"pk":{"S":"b"}})";
  HttpResult r = Update(R"("UpdateExpression":"REMOVE x","ReturnValues":"ALL_NEW")", b);
  EXPECT_EQ("none", Attributes(r));
  EXPECT_EQ("none", Stored(b));
  // A path into a missing attribute of a missing item is no error either.
  EXPECT_EQ("none", Attributes(Update(R"("UpdateExpression":"REMOVE x.y, z[3]","ReturnValues":"ALL_NEW")", b)));
  EXPECT_EQ("none", Attributes(Update(
                        R"("UpdateExpression":"DELETE s :v","ExpressionAttributeValues":{":v":{"SS":["a"]}},)"
                        R"("ReturnValues":"ALL_NEW")",
                        b)));
  EXPECT_EQ("none", Stored(b));
  // Legacy DELETE, with a value and without.
  EXPECT_EQ("none", Attributes(Update(R"("AttributeUpdates":{"x":{"Action":"DELETE"},)"
                                      R"("s":{"Action":"DELETE","Value":{"SS":["a"]}}},"ReturnValues":"ALL_NEW")",
                                      b)));
  EXPECT_EQ("none", Stored(b));
  // With SET or ADD too, the item is created.
  EXPECT_EQ(200, Update(R"("UpdateExpression":"REMOVE x ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}})",
                        b)
                     .status);
  EXPECT_EQ(Canonical(R"({"n":{"N":"1"},"pk":{"S":"b"}})"), Stored(b));
}

TEST_F(UpdateItemTest, AppendsPastListEndInIndexOrder) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"a":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"}]}})").status);
  ASSERT_EQ(200, Update(R"("UpdateExpression":"SET a[84] = :v1, a[37] = :v2, a[17] = :v3",)"
                        R"("ExpressionAttributeValues":{":v1":{"S":"84"},":v2":{"S":"37"},":v3":{"S":"17"}})")
                     .status);
  EXPECT_EQ(Canonical(R"({"a":{"L":[{"N":"0"},{"N":"1"},{"N":"2"},{"N":"3"},{"S":"17"},{"S":"37"},{"S":"84"}]},)"
                      R"("pk":{"S":"a"}})"),
            Stored());
}

TEST_F(UpdateItemTest, SetArithmeticAndFunctions) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"n":{"N":"10"},"l":{"L":[{"S":"x"}]},"m":{"M":{"k":{"S":"v"}}}})").status);
  HttpResult r = Update(R"("UpdateExpression":
      "SET n = n - :one, c = if_not_exists(c, :zero) + :one, l = list_append(l, :l), m.k2 = :s, #x = m.k",
      "ExpressionAttributeNames":{"#x":"copy"},
      "ExpressionAttributeValues":{":one":{"N":"1"},":zero":{"N":"0"},":l":{"L":[{"S":"y"}]},":s":{"S":"w"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"c":{"N":"1"},"copy":{"S":"v"},"l":{"L":[{"S":"x"},{"S":"y"}]},
                         "m":{"M":{"k":{"S":"v"},"k2":{"S":"w"}}},"n":{"N":"9"},"pk":{"S":"a"}})"),
            Stored());
}

TEST_F(UpdateItemTest, ListIndexesSetAndRemove) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"l":{"L":[{"N":"0"},{"N":"1"},{"N":"2"}]}})").status);
  ASSERT_EQ(200, Update(R"("UpdateExpression":"SET l[0] = :v, l[10] = :v",)"
                        R"("ExpressionAttributeValues":{":v":{"S":"x"}})")
                     .status);
  EXPECT_EQ(Canonical(R"({"l":{"L":[{"S":"x"},{"N":"1"},{"N":"2"},{"S":"x"}]},"pk":{"S":"a"}})"), Stored());
  ASSERT_EQ(200, Update(R"("UpdateExpression":"REMOVE l[1], l[2]")").status);
  EXPECT_EQ(Canonical(R"({"l":{"L":[{"S":"x"},{"S":"x"}]},"pk":{"S":"a"}})"), Stored());
}

TEST_F(UpdateItemTest, AddAndDeleteOnNumbersAndSets) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"n":{"N":"1.5"},"s":{"SS":["a","b"]}})").status);
  HttpResult r = Update(R"("UpdateExpression":"ADD n :n, t :ns DELETE s :ss",
      "ExpressionAttributeValues":{":n":{"N":"-0.5"},":ns":{"NS":["7"]},":ss":{"SS":["a"]}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"n":{"N":"1"},"pk":{"S":"a"},"s":{"SS":["b"]},"t":{"NS":["7"]}})"), Stored());
  ASSERT_EQ(200,
            Update(R"("UpdateExpression":"DELETE s :ss","ExpressionAttributeValues":{":ss":{"SS":["b"]}})").status);
  EXPECT_EQ(Canonical(R"({"n":{"N":"1"},"pk":{"S":"a"},"t":{"NS":["7"]}})"), Stored());
}

TEST_F(UpdateItemTest, HashRangeKeyIsNotAttributeOfUpdate) {
  HttpResult r = Update(R"("UpdateExpression":"SET v = sk + :one","ExpressionAttributeValues":{":one":{"N":"1"}})",
                        R"({"pk":{"S":"a"},"sk":{"N":"41"}})", "range");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"sk":{"N":"41"},"v":{"N":"42"}})"),
            Stored(R"({"pk":{"S":"a"},"sk":{"N":"41"}})", "range"));
}

// ---- AttributeUpdates ----

TEST_F(UpdateItemTest, AttributeUpdatesPutAddDelete) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"gone":{"S":"x"},"s":{"SS":["a","b"]},"n":{"N":"1"}})").status);
  HttpResult r = Update(R"("AttributeUpdates":{"p":{"Value":{"S":"v"}},"q":{"Action":"PUT","Value":{"N":"2"}},
      "n":{"Action":"ADD","Value":{"N":"4"}},"gone":{"Action":"DELETE"},"s":{"Action":"DELETE","Value":{"SS":["a"]}},
      "l":{"Action":"ADD","Value":{"L":[{"S":"x"}]}}},
      "ReturnValues":"UPDATED_NEW")");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"l":{"L":[{"S":"x"}]},"n":{"N":"5"},"p":{"S":"v"},"q":{"N":"2"},"s":{"SS":["b"]}})"),
            Attributes(r));
  EXPECT_EQ(Canonical(R"({"l":{"L":[{"S":"x"}]},"n":{"N":"5"},"p":{"S":"v"},"pk":{"S":"a"},"q":{"N":"2"},
                         "s":{"SS":["b"]}})"),
            Stored());
  // ADD of a list appends to the list there.
  r = Update(R"("AttributeUpdates":{"l":{"Action":"ADD","Value":{"L":[{"S":"y"}]}}},"ReturnValues":"UPDATED_NEW")");
  EXPECT_EQ(Canonical(R"({"l":{"L":[{"S":"x"},{"S":"y"}]}})"), Attributes(r));
}

TEST_F(UpdateItemTest, AttributeUpdatesErrors) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"s":{"S":"x"}})").status);
  const std::string before = Stored();
  ExpectValidation(Update(R"("AttributeUpdates":{"s":{"Action":"ADD","Value":{"N":"1"}}})"),
                   "Type mismatch for attribute to update");
  ExpectValidation(Update(R"("AttributeUpdates":{"s":{"Action":"ADD","Value":{"S":"1"}}})"),
                   std::string(kInvalid) + "ADD action is not supported for the type S");
  ExpectValidation(Update(R"("AttributeUpdates":{"s":{"Action":"PUT"}})"),
                   std::string(kInvalid) + "Only DELETE action is allowed when no attribute value is specified");
  ExpectValidation(Update(R"("AttributeUpdates":{"s":{"Action":"REPLACE","Value":{"S":"1"}}})"),
                   "1 validation error detected: Value 'REPLACE' at 'attributeUpdates.s.member.action' failed to "
                   "satisfy constraint: Member must satisfy enum value set: [ADD, PUT, DELETE]");
  ExpectValidation(Update(R"("AttributeUpdates":{"s":{"Action":"ADD","Value":{"L":[]}}})"),
                   "Type mismatch for attribute to update");
  ExpectValidation(Update(R"("AttributeUpdates":{"pk":{"Value":{"S":"b"}}})"),
                   std::string(kInvalid) + "Cannot update attribute pk. This attribute is part of the key");
  ExpectValidation(
      Update(R"("AttributeUpdates":{"s":{"Value":{"S":"b"}}},"UpdateExpression":"REMOVE s")"),
      Enveloped("Can not use both expression and non-expression parameters in the same request: "
                "Non-expression parameters: {AttributeUpdates} Expression parameters: {UpdateExpression}"));
  EXPECT_EQ(before, Stored());
}

TEST_F(UpdateItemTest, LegacyExpectedWithConditionalOperator) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"N":"1"}})").status);
  const std::string expected =
      R"("Expected":{"v":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"2"}]},"w":{"Exists":false}})";
  // AND (the default): v = 2 fails.
  HttpResult r = Update(R"("AttributeUpdates":{"x":{"Value":{"S":"y"}}},)" + expected);
  EXPECT_EQ("ConditionalCheckFailedException", r.ErrorName()) << r.Describe();
  // OR: w is absent, so the condition holds.
  r = Update(R"("AttributeUpdates":{"x":{"Value":{"S":"y"}}},"ConditionalOperator":"OR",)" + expected);
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"1"},"x":{"S":"y"}})"), Stored());
}

// ---- ReturnValues ----

class UpdateReturnValuesTest : public UpdateItemTest {
 protected:
  void SetUp() override {
    UpdateItemTest::SetUp();
    ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"a":{"M":{"b":{"S":"dog"},"c":{"L":[{"N":"1"},{"N":"2"},{"N":"3"}]}}},
                           "d":{"S":"cat"},"n":{"N":"1"}})").status);
  }
  HttpResult UpdateReturning(const std::string& return_values, const std::string& expression) {
    std::string values = ValuesFor(expression, {{":v", R"({"S":"new"})"}, {":one", R"({"N":"1"})"}});
    return Update(R"("UpdateExpression":")" + expression + R"(","ReturnValues":")" + return_values + "\"" +
                  (values.empty() ? "" : "," + values));
  }
};

TEST_F(UpdateReturnValuesTest, None) {
  EXPECT_EQ("none", Attributes(UpdateReturning("NONE", "SET d = :v")));
}

TEST_F(UpdateReturnValuesTest, AllOldAndAllNew) {
  EXPECT_EQ(Canonical(R"({"a":{"M":{"b":{"S":"dog"},"c":{"L":[{"N":"1"},{"N":"2"},{"N":"3"}]}}},"d":{"S":"cat"},
                          "n":{"N":"1"},"pk":{"S":"a"}})"),
            Attributes(UpdateReturning("ALL_OLD", "SET d = :v")));
  EXPECT_EQ(Canonical(R"({"a":{"M":{"b":{"S":"dog"},"c":{"L":[{"N":"1"},{"N":"2"},{"N":"3"}]}}},"d":{"S":"new"},
                          "n":{"N":"2"},"pk":{"S":"a"}})"),
            Attributes(UpdateReturning("ALL_NEW", "SET n = n + :one")));
}

TEST_F(UpdateReturnValuesTest, UpdatedOldAndNewReturnOnlyTheUpdatedPaths) {
  EXPECT_EQ(Canonical(R"({"a":{"M":{"b":{"S":"dog"}}},"n":{"N":"1"}})"),
            Attributes(UpdateReturning("UPDATED_OLD", "SET a.b = :v ADD n :one")));
  EXPECT_EQ(Canonical(R"({"a":{"M":{"b":{"S":"new"}}},"n":{"N":"3"}})"),
            Attributes(UpdateReturning("UPDATED_NEW", "SET a.b = :v ADD n :one")));
  EXPECT_EQ(Canonical(R"({"a":{"M":{"c":{"L":[{"N":"2"}]}}}})"),
            Attributes(UpdateReturning("UPDATED_OLD", "SET a.c[1] = :v")));
  EXPECT_EQ(Canonical(R"({"a":{"M":{"c":{"L":[{"N":"1"}]}}}})"),
            Attributes(UpdateReturning("UPDATED_NEW", "SET a.c[1] = :one")));
}

TEST_F(UpdateReturnValuesTest, UpdatedValuesOfAttributesThatDidNotExistOrNoLongerDo) {
  // A new attribute had no old value; a removed one has no new value: nothing to return, so no Attributes.
  EXPECT_EQ("none", Attributes(UpdateReturning("UPDATED_OLD", "SET fresh = :v")));
  EXPECT_EQ("none", Attributes(UpdateReturning("UPDATED_NEW", "REMOVE d")));
  EXPECT_EQ(Canonical(R"({"fresh":{"S":"new"}})"), Attributes(UpdateReturning("UPDATED_OLD", "REMOVE fresh")));
}

TEST_F(UpdateReturnValuesTest, AllOldOfCreatedItemIsNothing) {
  HttpResult r = Update(R"("UpdateExpression":"SET x = :v","ReturnValues":"ALL_OLD",
                           "ExpressionAttributeValues":{":v":{"S":"new"}})",
                        R"({"pk":{"S":"other"}})");
  EXPECT_EQ("none", Attributes(r));
}

TEST_F(UpdateReturnValuesTest, UnknownValueIsAConstraintError) {
  ExpectValidation(UpdateReturning("ALL", "SET d = :v"),
                   // DynamoDB's own wording: no echo, no member name, its typo UPDATE_NEW (dialects.md §2.3).
                   "1 validation error detected: Failed to satisfy constraint: Member must satisfy enum value set: "
                   "[ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]");
}

TEST_F(UpdateReturnValuesTest, PutAndDeleteAcceptOnlyAllOldAndNone) {
  for (const char* rv : {"ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"}) {
    HttpResult r = server_.Call(
        "PutItem", std::string(R"({"TableName":"items","Item":{"pk":{"S":"z"}},"ReturnValues":")") + rv + R"("})");
    ExpectValidation(r, "ReturnValues can only be ALL_OLD or NONE");
    r = server_.Call("DeleteItem",
                     std::string(R"({"TableName":"items","Key":{"pk":{"S":"a"}},"ReturnValues":")") + rv + R"("})");
    ExpectValidation(r, "ReturnValues can only be ALL_OLD or NONE");
  }
}

// ---- Errors, each leaving the item as it was ----

class UpdateErrorsTest : public UpdateItemTest {
 protected:
  void SetUp() override {
    UpdateItemTest::SetUp();
    ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"s":{"S":"text"},"n":{"N":"1"},"l":{"L":[]},"m":{"M":{}},
                           "big":{"N":"9.9999999999999999999999999999999999999E+125"}})").status);
    before_ = Stored();
  }
  void TearDown() override { EXPECT_EQ(before_, Stored()) << "a refused update changed the item"; }
  HttpResult UpdateWith(const std::string& expression, const std::string& extra = "") {
    std::string values = ValuesFor(expression, {{":one", R"({"N":"1"})"},
                                                {":s", R"({"S":"x"})"},
                                                {":l", R"({"L":[]})"},
                                                {":ss", R"({"SS":["x"]})"}});
    return Update(R"("UpdateExpression":")" + expression + "\"" + (values.empty() ? "" : "," + values) + extra);
  }
  std::string before_;
};

TEST_F(UpdateErrorsTest, NamesStartWithALetterAndFunctionsNestAsDynamoDBAllows) {
  for (const char* expression : {"SET _123 = :one", "SET s = _f(b)"}) {
    HttpResult r = UpdateWith(expression);
    EXPECT_EQ(400, r.status) << expression;
    EXPECT_EQ(0u, r.Message().find(Enveloped("Invalid UpdateExpression: Syntax error; token: "))) << r.Message();
  }
  ExpectValidation(UpdateWith("SET l = list_append(list_append(l, :l), :l)"),
                   Enveloped("Invalid UpdateExpression: The function is not allowed to be used this way in an "
                             "expression; function: list_append"));
  HttpResult r = UpdateWith("SET l[99999999999] = :one");
  EXPECT_EQ(400, r.status);
  EXPECT_NE(std::string::npos, r.Message().find("List index is not within the allowable range")) << r.Message();
  for (const char* condition : {"if_not_exists(s, :s) = :s", "list_append(l, :l) = :l"}) {
    r = Update(R"("UpdateExpression":"SET n = :one","ConditionExpression":")" + std::string(condition) +
               R"(","ExpressionAttributeValues":{":one":{"N":"1"},":s":{"S":"x"},":l":{"L":[]}})");
    EXPECT_EQ(400, r.status) << condition;
    EXPECT_NE(std::string::npos, r.Message().find("not allowed")) << r.Message();
  }
}

TEST_F(UpdateItemTest, NestedIfNotExistsAndValueAttributeTypeAreAccepted) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"l":{"L":[{"S":"x"}]}})").status);
  HttpResult r = Update(R"("UpdateExpression":"SET l = list_append(if_not_exists(l, :e), :w), )"
                        R"~(b = if_not_exists(b, if_not_exists(c, :v))",)~"
                        R"~("ConditionExpression":"attribute_type(:v, :t)",)~"
                        R"("ExpressionAttributeValues":{":e":{"L":[]},":w":{"L":[{"S":"y"}]},":v":{"S":"v"},)"
                        R"(":t":{"S":"S"}})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"b":{"S":"v"},"l":{"L":[{"S":"x"},{"S":"y"}]},"pk":{"S":"a"}})"), Stored());
}

TEST_F(UpdateErrorsTest, KeyAttributesCannotBeUpdated) {
  const std::string msg = std::string(kInvalid) + "Cannot update attribute pk. This attribute is part of the key";
  ExpectValidation(UpdateWith("SET pk = :s"), msg);
  ExpectValidation(Update(R"("UpdateExpression":"REMOVE pk")"), msg);
  ExpectValidation(UpdateWith("ADD #k :one", R"(,"ExpressionAttributeNames":{"#k":"pk"})"), msg);
  HttpResult r = Update(R"("UpdateExpression":"SET sk = :one","ExpressionAttributeValues":{":one":{"N":"1"}})",
                        R"({"pk":{"S":"a"},"sk":{"N":"1"}})", "range");
  ExpectValidation(r, std::string(kInvalid) + "Cannot update attribute sk. This attribute is part of the key");
  ExpectValidation(UpdateWith("SET s = pk.x"),
                   "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "
                   "Key: pk");
  r = Update(R"("UpdateExpression":"SET g.x = :one","ExpressionAttributeValues":{":one":{"N":"1"}})",
             R"({"pk":{"S":"a"}})", "indexed");
  ExpectValidation(r, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "
                      "IndexKey: g");
}

TEST_F(UpdateErrorsTest, ParseErrors) {
  ExpectValidation(UpdateWith("SET s = :s, s = :one"),
                   Enveloped("Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
                             "rewrite one of these paths; path one: [s], path two: [s]"));
  ExpectValidation(UpdateWith("SET m.a = :s REMOVE m"),
                   Enveloped("Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
                             "rewrite one of these paths; path one: [m, a], path two: [m]"));
  ExpectValidation(
      UpdateWith("ADD s :s"),
      Enveloped("Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, "
                "operand type: STRING"));
  ExpectValidation(UpdateWith("SET s = :s +"),
                   Enveloped("Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"+\""));
  ExpectValidation(UpdateWith("SET s = :nope"),
                   Enveloped("Invalid UpdateExpression: An expression attribute value used in expression is not "
                             "defined; attribute value: :nope"));
}

TEST_F(UpdateErrorsTest, EvaluationErrors) {
  ExpectValidation(UpdateWith("SET s = s + :one"), kWrongType);
  ExpectValidation(UpdateWith("ADD s :one"), kWrongType);
  ExpectValidation(UpdateWith("DELETE n :ss"), kWrongType);
  ExpectValidation(UpdateWith("SET l = list_append(s, :l)"), kWrongType);
  ExpectValidation(UpdateWith("SET x = absent"), kMissingAttribute);
  ExpectValidation(UpdateWith("SET absent.x = :one"), kInvalidPath);
  ExpectValidation(UpdateWith("SET s[0] = :one"), kInvalidPath);
  ExpectValidation(UpdateWith("SET m[0] = :one"), kInvalidPath);
  ExpectValidation(UpdateWith("REMOVE absent.x"), kInvalidPath);
}

TEST_F(UpdateErrorsTest, ArithmeticOverflow) {
  ExpectValidation(UpdateWith("SET big = big + big"),
                   "Number overflow. Attempting to store a number with magnitude larger than supported range");
  ExpectValidation(UpdateWith("ADD big :one"),
                   "Number overflow. Attempting to store a number with magnitude larger than supported range");
}

TEST_F(UpdateErrorsTest, ItemGrownPastTheLimit) {
  std::string half(210000, 'x');
  // Each value alone fits; the item after the update would not.
  HttpResult r = Update(R"("UpdateExpression":"SET a = :v, b = :v","ExpressionAttributeValues":{":v":{"S":")" +
                        half + R"("}})");
  ExpectValidation(r, "Item size to update has exceeded the maximum allowed size");
}

TEST_F(UpdateErrorsTest, PlaceholderChecks) {
  ExpectValidation(Update(R"("AttributeUpdates":{"x":{"Value":{"S":"y"}}},"ExpressionAttributeNames":{"#a":"a"})"),
                   Enveloped("ExpressionAttributeNames can only be specified when using expressions"));
  ExpectValidation(Update(R"("ExpressionAttributeValues":{":a":{"S":"a"}})"),
                   Enveloped("ExpressionAttributeValues can only be specified when using expressions: UpdateExpression "
                             "and ConditionExpression are null"));
  ExpectValidation(Update(R"("UpdateExpression":"SET s = :s","ConditionExpression":"n = :one",
                             "ExpressionAttributeValues":{":one":{"N":"1"},":s":{"S":"x"},":l":{"L":[]},
                                                          ":ss":{"SS":["x"]}})"),
                   "1 validation error detected: Value provided in ExpressionAttributeValues unused in expressions: "
                   "keys: {:l, :ss}");
  ExpectValidation(Update(R"("UpdateExpression":"SET s = :s","ExpressionAttributeValues":{":s":{"S":"x"}},
                             "ExpressionAttributeNames":{"#unused":"x"})"),
                   "1 validation error detected: Value provided in ExpressionAttributeNames unused in expressions: "
                   "keys: {#unused}");
}

TEST_F(UpdateErrorsTest, TableAndKey) {
  HttpResult r = Update(R"("UpdateExpression":"REMOVE s")", R"({"pk":{"S":"a"}})", "nope");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found", r.Message());
  ExpectValidation(Update(R"("UpdateExpression":"REMOVE s")", R"({"pk":{"N":"1"}})"),
                   "The provided key element does not match the schema");
}

TEST_F(UpdateErrorsTest, TooManyOperators) {
  // "SET a0=:o+:o,a1=:o+:o,…": one operator per action, short enough to stay under the 4 KB text limit.
  auto expression = [](int operators) {
    std::string text = "SET ";
    for (int i = 0; i < operators; i++) text += (i ? "," : "") + std::string("a") + std::to_string(i) + "=:o+:o";
    return text;
  };
  const std::string values = R"(","ExpressionAttributeValues":{":o":{"N":"1"}})";
  HttpResult r = Update(R"("UpdateExpression":")" + expression(301) + values);
  ExpectValidation(r, Enveloped("Invalid UpdateExpression: The expression contains too many operators; operator "
                                "count: 301"));
  r = Update(R"("UpdateExpression":")" + expression(300) + values, R"({"pk":{"S":"other"}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  // Functions count as operators too.
  std::string nested = ":o";
  for (int i = 0; i < 51; i++) nested = "if_not_exists(b," + nested + ")";
  r = Update(R"("UpdateExpression":")" + expression(250) + ",z=" + nested + values);
  ExpectValidation(r, Enveloped("Invalid UpdateExpression: The expression contains too many operators; operator "
                                "count: 301"));
}

TEST_F(UpdateErrorsTest, IndexKeyTypeIsChecked) {
  HttpResult r = Update(R"("UpdateExpression":"SET g = :one","ExpressionAttributeValues":{":one":{"N":"1"}})",
                        R"({"pk":{"S":"a"}})", "indexed");
  ExpectValidation(r, std::string(kInvalid) + "Type mismatch for Index Key g Expected: S Actual: N IndexName: by_g");
  r = Update(R"("UpdateExpression":"SET g = :e","ExpressionAttributeValues":{":e":{"S":""}})", R"({"pk":{"S":"a"}})",
             "indexed");
  ExpectValidation(r,
                   "One or more parameter values are not valid. The update expression attempted to update a secondary "
                   "index key to a value that is not supported. The AttributeValue for a key attribute cannot contain "
                   "an empty string value.");
  EXPECT_EQ("none", Stored(R"({"pk":{"S":"a"}})", "indexed"));
}

// ---- Conditions on UpdateItem ----

TEST_F(UpdateItemTest, ConditionGuardsTheUpdate) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"N":"1"}})").status);
  const std::string update =
      R"("UpdateExpression":"SET v = v + :one","ConditionExpression":"v = :expected","ExpressionAttributeValues":)";
  HttpResult r = Update(update + R"({":one":{"N":"1"},":expected":{"N":"5"}},)"
                                 R"("ReturnValuesOnConditionCheckFailure":"ALL_OLD")");
  EXPECT_EQ(400, r.status);
  EXPECT_EQ("ConditionalCheckFailedException", r.ErrorName());
  EXPECT_EQ("The conditional request failed", r.Message());
  ASSERT_TRUE(r.Has("Item")) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"1"}})"), JsonText(r.json["Item"]));
  r = Update(update + R"({":one":{"N":"1"},":expected":{"N":"1"}})");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"2"}})"), Stored());
}

TEST_F(UpdateItemTest, ConditionOnMissingItemSeesNoAttributes) {
  HttpResult r = Update(R"~("UpdateExpression":"SET v = :one","ConditionExpression":"attribute_exists(pk)",
      "ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD")~");
  EXPECT_EQ("ConditionalCheckFailedException", r.ErrorName());
  EXPECT_FALSE(r.Has("Item"));
  EXPECT_EQ("none", Stored());
  r = Update(R"~("UpdateExpression":"SET v = :one","ConditionExpression":"attribute_not_exists(pk)",
      "ExpressionAttributeValues":{":one":{"N":"1"}})~");
  EXPECT_EQ(200, r.status) << r.Describe();
}

// ---- Capacity ----

TEST_F(UpdateItemTest, CapacityCountsTheLargerOfOldAndNew) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"v":{"S":")" + std::string(3000, 'x') + R"("}})").status);
  HttpResult r = Update(R"("UpdateExpression":"REMOVE v","ReturnConsumedCapacity":"TOTAL")");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(3.0, r.json["ConsumedCapacity"]["CapacityUnits"].GetDouble());
}

// ---- Concurrency ----

TEST_F(UpdateItemTest, ConcurrentAddsLoseNoIncrement) {
  constexpr int kThreads = 8;
  constexpr int kAddsPerThread = 50;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([this, t, &failures] {
      TestClient client(server_.port());
      for (int i = 0; i < kAddsPerThread; i++) {
        HttpResult res = client.Call("UpdateItem", R"({"TableName":"items","Key":{"pk":{"S":"counter"}},
            "UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}})");
        if (res.status != 200) failures[t]++;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(0, f);
  EXPECT_EQ(Canonical(R"({"n":{"N":")" + std::to_string(kThreads * kAddsPerThread) + R"("},"pk":{"S":"counter"}})"),
            Stored(R"({"pk":{"S":"counter"}})"));
}

}  // namespace
}  // namespace dynapage
