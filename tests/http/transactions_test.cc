// TransactWriteItems and TransactGetItems through HTTP: all-or-nothing writes, CancellationReasons, the limits
// and refusals, ClientRequestToken idempotency, capacity, and that concurrent readers never see half a
// transaction.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kCanceledType[] = "com.amazonaws.dynamodb.v20120810#TransactionCanceledException";

std::string PutAction(const std::string& item, const std::string& extra = "") {
  return R"({"Put":{"TableName":"items","Item":)" + item + extra + "}}";
}
std::string KeyOf(const std::string& pk) { return R"({"pk":{"S":")" + pk + R"("}})"; }
std::string UpdateAction(const std::string& pk, const std::string& rest) {
  return R"({"Update":{"TableName":"items","Key":)" + KeyOf(pk) + "," + rest + "}}";
}
std::string DeleteAction(const std::string& pk, const std::string& extra = "") {
  return R"({"Delete":{"TableName":"items","Key":)" + KeyOf(pk) + extra + "}}";
}
// The members of an Update: "UpdateExpression" and "ExpressionAttributeValues".
std::string Updating(const std::string& expression, const std::string& values) {
  return R"("UpdateExpression":")" + expression + R"(","ExpressionAttributeValues":)" + values;
}
std::string CheckAction(const std::string& pk, const std::string& rest) {
  return R"({"ConditionCheck":{"TableName":"items","Key":)" + KeyOf(pk) + "," + rest + "}}";
}

class TransactionsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(200, server_.CreateTable("items", "pk", "S").status); }

  HttpResult Write(const std::vector<std::string>& actions, const std::string& extra = "") {
    std::string list;
    for (const auto& a : actions) list += (list.empty() ? "" : ",") + a;
    return server_.Call("TransactWriteItems", R"({"TransactItems":[)" + list + "]" + extra + "}");
  }
  HttpResult Put(const std::string& item) {
    return server_.Call("PutItem", R"({"TableName":"items","Item":)" + item + "}");
  }
  std::string Stored(const std::string& pk) {
    HttpResult r = server_.Call("GetItem", R"({"TableName":"items","ConsistentRead":true,"Key":)" + KeyOf(pk) + "}");
    return r.Has("Item") ? JsonText(r.json["Item"]) : "none";
  }
  void ExpectValidation(const HttpResult& r, const std::string& message) {
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ("ValidationException", r.ErrorName()) << r.Describe();
    EXPECT_EQ(message, r.Message());
  }

  TestServer server_;
};

TEST_F(TransactionsTest, AllFourActionsApplyTogether) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"u"},"n":{"N":"1"}})").status);
  ASSERT_EQ(200, Put(R"({"pk":{"S":"d"}})").status);
  ASSERT_EQ(200, Put(R"({"pk":{"S":"c"},"ok":{"BOOL":true}})").status);
  HttpResult r = Write({PutAction(R"({"pk":{"S":"p"},"v":{"S":"x"}})",
                                  R"~(,"ConditionExpression":"attribute_not_exists(pk)")~"),
                        UpdateAction("u", Updating("ADD n :one", R"({":one":{"N":"1"}})")),
                        DeleteAction("d"),
                        CheckAction("c", R"("ConditionExpression":"ok = :t",)"
                                         R"("ExpressionAttributeValues":{":t":{"BOOL":true}})")},
                       R"(,"ReturnConsumedCapacity":"TOTAL")");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"pk":{"S":"p"},"v":{"S":"x"}})"), Stored("p"));
  EXPECT_EQ(Canonical(R"({"n":{"N":"2"},"pk":{"S":"u"}})"), Stored("u"));
  EXPECT_EQ("none", Stored("d"));
  EXPECT_EQ(Canonical(R"({"ok":{"BOOL":true},"pk":{"S":"c"}})"), Stored("c"));
  // Twice the units of the single writes: 4 actions of under 1 KB each.
  ASSERT_TRUE(r.Has("ConsumedCapacity")) << r.Describe();
  ASSERT_EQ(1u, r.json["ConsumedCapacity"].Size());
  EXPECT_EQ("items", std::string(r.json["ConsumedCapacity"][0]["TableName"].GetString()));
  EXPECT_EQ(8.0, r.json["ConsumedCapacity"][0]["CapacityUnits"].GetDouble());
}

TEST_F(TransactionsTest, FailedConditionCancelsEverything) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"n":{"N":"1"}})").status);
  ASSERT_EQ(200, Put(R"({"pk":{"S":"b"},"n":{"N":"5"}})").status);
  const std::string guarded_delete =
      DeleteAction("b", R"(,"ConditionExpression":"n = :six","ExpressionAttributeValues":{":six":{"N":"6"}},)"
                        R"("ReturnValuesOnConditionCheckFailure":"ALL_OLD")");
  HttpResult r = Write({UpdateAction("a", Updating("SET n = :v", R"({":v":{"N":"9"}})")),
                        PutAction(R"({"pk":{"S":"new"}})"), guarded_delete,
                        CheckAction("a", R"~("ConditionExpression":"attribute_exists(pk)")~")});
  // "a" appears twice: refused before anything runs.
  ExpectValidation(r, "Transaction request cannot include multiple operations on one item");

  r = Write({UpdateAction("a", Updating("SET n = :v", R"({":v":{"N":"9"}})")),
             PutAction(R"({"pk":{"S":"new"}})"), guarded_delete,
             CheckAction("c", R"~("ConditionExpression":"attribute_exists(pk)")~")});
  EXPECT_EQ(400, r.status);
  EXPECT_EQ(kCanceledType, r.ErrorType()) << r.Describe();
  EXPECT_EQ("Transaction cancelled, please refer cancellation reasons for specific reasons [None, None, "
            "ConditionalCheckFailed, ConditionalCheckFailed]",
            r.Message());
  ASSERT_TRUE(r.Has("CancellationReasons")) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"Code":"None"},{"Code":"None"},
      {"Code":"ConditionalCheckFailed","Message":"The conditional request failed",
       "Item":{"n":{"N":"5"},"pk":{"S":"b"}}},
      {"Code":"ConditionalCheckFailed","Message":"The conditional request failed"}])"),
            JsonText(r.json["CancellationReasons"]));
  EXPECT_EQ(Canonical(R"({"n":{"N":"1"},"pk":{"S":"a"}})"), Stored("a"));
  EXPECT_EQ(Canonical(R"({"n":{"N":"5"},"pk":{"S":"b"}})"), Stored("b"));
  EXPECT_EQ("none", Stored("new"));
}

TEST_F(TransactionsTest, UpdateThatDoesNotFitTheItemIsAValidationErrorReason) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"s":{"S":"text"}})").status);
  HttpResult r = Write({PutAction(R"({"pk":{"S":"b"}})"),
                        UpdateAction("a", Updating("ADD s :one", R"({":one":{"N":"1"}})"))});
  EXPECT_EQ(kCanceledType, r.ErrorType()) << r.Describe();
  EXPECT_EQ("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]",
            r.Message());
  EXPECT_EQ(Canonical(R"([{"Code":"None"},
      {"Code":"ValidationError","Message":"An operand in the update expression has an incorrect data type"}])"),
            JsonText(r.json["CancellationReasons"]));
  EXPECT_EQ("none", Stored("b"));
}

// A key that fails validation cancels the transaction, with ValidationError at its position.
TEST_F(TransactionsTest, InvalidKeysAreValidationErrorReasons) {
  HttpResult r = Write({PutAction(R"({"pk":{"S":"ok"}})"), PutAction(R"({"pk":{"N":"1"}})")});
  EXPECT_EQ(kCanceledType, r.ErrorType()) << r.Describe();
  EXPECT_EQ("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]",
            r.Message());
  EXPECT_EQ(Canonical(R"([{"Code":"None"},{"Code":"ValidationError","Message":)"
                      R"("One or more parameter values were invalid: Type mismatch for key pk expected: S )"
                      R"(actual: N"}])"),
            JsonText(r.json["CancellationReasons"]));
  EXPECT_EQ("none", Stored("ok"));
  r = Write({R"({"Delete":{"TableName":"items","Key":{"pk":{"N":"5"}}}})", PutAction(R"({"pk":{"S":"ok"}})"),
             R"({"ConditionCheck":{"TableName":"items","Key":{"pk":{"B":"AA=="}},)"
             R"~("ConditionExpression":"attribute_exists(pk)"}})~"});
  EXPECT_EQ(kCanceledType, r.ErrorType()) << r.Describe();
  EXPECT_EQ("Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError, None, "
            "ValidationError]",
            r.Message());
  EXPECT_EQ("none", Stored("ok"));
}

// An empty string as a key value is refused up front, not as a cancellation (dialects.md §2.5).
TEST_F(TransactionsTest, EmptyKeyValueIsRefusedUpFront) {
  for (const std::string& action : {std::string(R"({"Delete":{"TableName":"items","Key":{"pk":{"S":""}}}})"),
                                    std::string(R"~({"ConditionCheck":{"TableName":"items","Key":{"pk":{"S":""}},)~"
                                                R"~("ConditionExpression":"attribute_not_exists(pk)"}})~")}) {
    HttpResult r = Write({PutAction(R"({"pk":{"S":"ok"}})"), action});
    ExpectValidation(r,
                     "One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                     "contain an empty string value. Key: pk");
    EXPECT_FALSE(r.Has("CancellationReasons")) << r.Describe();
  }
  EXPECT_EQ("none", Stored("ok"));
}

TEST_F(TransactionsTest, AggregateSizeOverFourMegabytesIsRefused) {
  std::vector<std::string> puts;
  for (int i = 0; i < 11; i++) {
    puts.push_back(PutAction(R"({"pk":{"S":"k)" + std::to_string(i) + R"("},"v":{"S":")" + std::string(390000, 'x') +
                             R"("}})"));
  }
  HttpResult r = Write(puts);
  EXPECT_EQ(400, r.status) << r.Message();
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("none", Stored("k0"));
  puts.pop_back();
  EXPECT_EQ(200, Write(puts).status);
}

TEST_F(TransactionsTest, RequestErrorsAreNotCancellations) {
  ExpectValidation(Write({UpdateAction("a", Updating("SET pk = :v", R"({":v":{"S":"x"}})"))}),
                   "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of "
                   "the key");
  ExpectValidation(Write({UpdateAction("a", R"("UpdateExpression":"SET")")}),
                   Enveloped("Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"SET\""));
  ExpectValidation(Write({R"({"Put":{"TableName":"items","Item":{"pk":{"S":"a"}}},)"
                          R"("Delete":{"TableName":"items","Key":{"pk":{"S":"a"}}}})"}),
                   "TransactItems can only contain one of Check, Put, Update or Delete");
  ExpectValidation(Write({R"({"ConditionCheck":{"TableName":"items","Key":{"pk":{"S":"a"}}}})"}),
                   "1 validation error detected: Value null at 'transactItems.1.member.conditionCheck."
                   "conditionExpression' failed to satisfy constraint: Member must not be null");
  ExpectValidation(Write({R"({"Update":{"TableName":"items","Key":{"pk":{"S":"a"}}}})"}),
                   "1 validation error detected: Value null at 'transactItems.1.member.update.updateExpression' failed "
                   "to satisfy constraint: Member must not be null");
  ExpectValidation(Write({}), "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
                              "constraint: Member must have length greater than or equal to 1");
  HttpResult r = server_.Call("TransactWriteItems",
                              R"({"TransactItems":[{"Delete":{"TableName":"nope","Key":{"pk":{"S":"a"}}}}]})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  EXPECT_EQ("Requested resource not found", r.Message());
  EXPECT_EQ("none", Stored("a"));
}

TEST_F(TransactionsTest, AtMostOneHundredActions) {
  std::vector<std::string> actions;
  for (int i = 0; i < 100; i++) actions.push_back(PutAction(R"({"pk":{"S":"k)" + std::to_string(i) + R"("}})"));
  EXPECT_EQ(200, Write(actions).status);
  actions.push_back(PutAction(R"({"pk":{"S":"k100"}})"));
  HttpResult r = Write(actions);
  EXPECT_EQ("ValidationException", r.ErrorName());
  const std::string msg = r.Message();
  EXPECT_EQ(0u, msg.find("1 validation error detected: Value '[com.amazonaws.dynamodb.v20120810.TransactWriteItem@"))
      << msg;
  const std::string tail = "]' at 'transactItems' failed to satisfy constraint: Member must have length less than or "
                           "equal to 100";
  ASSERT_GE(msg.size(), tail.size());
  EXPECT_EQ(tail, msg.substr(msg.size() - tail.size()));
  EXPECT_EQ("none", Stored("k100"));
}

TEST_F(TransactionsTest, ClientRequestTokenMakesTheCallIdempotent) {
  const std::string add =
      UpdateAction("counter", Updating("ADD n :one", R"({":one":{"N":"1"}})"));
  const std::string token = R"(,"ClientRequestToken":"token-1")";
  EXPECT_EQ(200, Write({add}, token).status);
  HttpResult r = Write({add}, token);
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"({"n":{"N":"1"},"pk":{"S":"counter"}})"), Stored("counter"));
  // The same token with other parameters.
  r = Write({PutAction(R"({"pk":{"S":"other"}})")}, token);
  EXPECT_EQ(400, r.status);
  EXPECT_EQ("IdempotentParameterMismatchException", r.ErrorName()) << r.Describe();
  EXPECT_EQ("none", Stored("other"));
  // Another token is another call.
  EXPECT_EQ(200, Write({add}, R"(,"ClientRequestToken":"token-2")").status);
  EXPECT_EQ(Canonical(R"({"n":{"N":"2"},"pk":{"S":"counter"}})"), Stored("counter"));
  r = Write({add}, R"(,"ClientRequestToken":")" + std::string(37, 't') + "\"");
  EXPECT_EQ(0u, r.Message().find("1 validation error detected: Value '")) << r.Describe();
  EXPECT_NE(std::string::npos, r.Message().find("at 'clientRequestToken' failed to satisfy constraint: Member must "
                                                 "have length less than or equal to 36"));
}

TEST_F(TransactionsTest, CancelledCallWithTokenCanBeRetried) {
  const std::string guarded = UpdateAction(
      "a", Updating("SET v = :one", R"({":one":{"N":"1"}})") + R"~(,"ConditionExpression":"attribute_exists(pk)")~");
  const std::string token = R"(,"ClientRequestToken":"retry-me")";
  EXPECT_EQ(kCanceledType, Write({guarded}, token).ErrorType());
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"}})").status);
  EXPECT_EQ(200, Write({guarded}, token).status);
  EXPECT_EQ(Canonical(R"({"pk":{"S":"a"},"v":{"N":"1"}})"), Stored("a"));
}

// ---- TransactGetItems ----

TEST_F(TransactionsTest, GetItemsInRequestOrderWithProjections) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"x":{"N":"1"},"y":{"N":"2"}})").status);
  ASSERT_EQ(200, Put(R"({"pk":{"S":"b"},"x":{"N":"3"}})").status);
  HttpResult r = server_.Call("TransactGetItems", R"({"TransactItems":[
      {"Get":{"TableName":"items","Key":{"pk":{"S":"b"}}}},
      {"Get":{"TableName":"items","Key":{"pk":{"S":"missing"}}}},
      {"Get":{"TableName":"items","Key":{"pk":{"S":"a"}},"ProjectionExpression":"#y",
              "ExpressionAttributeNames":{"#y":"y"}}}],
      "ReturnConsumedCapacity":"TOTAL"})");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(Canonical(R"([{"Item":{"pk":{"S":"b"},"x":{"N":"3"}}},{},{"Item":{"y":{"N":"2"}}}])"),
            JsonText(r.json["Responses"]));
  // Each item is a strongly consistent read of under 4 KB, doubled.
  EXPECT_EQ(6.0, r.json["ConsumedCapacity"][0]["CapacityUnits"].GetDouble());
}

TEST_F(TransactionsTest, GetItemsRefusals) {
  HttpResult r = server_.Call("TransactGetItems", R"({"TransactItems":[
      {"Get":{"TableName":"items","Key":{"pk":{"S":"a"}}}},{"Get":{"TableName":"items","Key":{"pk":{"S":"a"}}}}]})");
  ExpectValidation(r, "Transaction request cannot include multiple operations on one item");
  // A key that fails validation cancels the transaction, with ValidationError at its position.
  r = server_.Call("TransactGetItems", R"({"TransactItems":[{"Get":{"TableName":"items","Key":{"pk":{"S":"b"}}}},)"
                                       R"({"Get":{"TableName":"items","Key":{"id":{"S":"a"}}}}]})");
  EXPECT_EQ(kCanceledType, r.ErrorType()) << r.Describe();
  EXPECT_EQ("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]",
            r.Message());
  EXPECT_EQ(Canonical(R"([{"Code":"None"},)"
                      R"({"Code":"ValidationError","Message":"The provided key element does not match the schema"}])"),
            JsonText(r.json["CancellationReasons"]));
  r = server_.Call("TransactGetItems", R"({"TransactItems":[{"Get":{"TableName":"nope","Key":{"pk":{"S":"a"}}}}]})");
  EXPECT_EQ("ResourceNotFoundException", r.ErrorName());
  std::string items;
  for (int i = 0; i < 101; i++) {
    items += std::string(i ? "," : "") + R"({"Get":{"TableName":"items","Key":{"pk":{"S":"k)" + std::to_string(i) +
             R"("}}}})";
  }
  r = server_.Call("TransactGetItems", R"({"TransactItems":[)" + items + "]}");
  EXPECT_EQ(0u, r.Message().find(
                    "1 validation error detected: Value '[com.amazonaws.dynamodb.v20120810.TransactGetItem@10000001, "))
      << r.Describe();
}

// ---- Isolation ----

// A writer moves one unit at a time between two items in transactions; readers must always see the sum intact,
// whether they read both items with TransactGetItems or with a Scan.
TEST_F(TransactionsTest, ReadersNeverSeeHalfATransaction) {
  ASSERT_EQ(200, Put(R"({"pk":{"S":"a"},"n":{"N":"100"}})").status);
  ASSERT_EQ(200, Put(R"({"pk":{"S":"b"},"n":{"N":"0"}})").status);
  std::atomic<bool> done{false};
  std::atomic<int> torn{0}, reads{0};
  auto reader = [&](const std::string& operation, const std::string& body, const char* list) {
    TestClient client(server_.port());
    while (!done) {
      HttpResult res = client.Call(operation, body);
      if (res.status != 200) {
        torn++;
        continue;
      }
      const rapidjson::Document& doc = res.json;
      long sum = 0;
      for (const auto& entry : doc[list].GetArray()) {
        const rapidjson::Value& item = entry.HasMember("Item") ? entry["Item"] : entry;
        sum += std::stol(item["n"]["N"].GetString());
      }
      if (sum != 100) torn++;
      reads++;
    }
  };
  std::thread get_reader(reader, "TransactGetItems",
                         R"({"TransactItems":[{"Get":{"TableName":"items","Key":{"pk":{"S":"a"}}}},)"
                         R"({"Get":{"TableName":"items","Key":{"pk":{"S":"b"}}}}]})",
                         "Responses");
  std::thread scan_reader(reader, "Scan", R"({"TableName":"items"})", "Items");
  // At least 100 transactions, and on until the readers have read 20 times while they were being written (the
  // readers' threads may start after a fast writer has done its first hundred), for 10 seconds at most.
  int writes = 0;
  int reads_before = reads.load();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (writes < 100 || (reads.load() - reads_before < 20 && std::chrono::steady_clock::now() < deadline)) {
    HttpResult r = Write({UpdateAction("a", Updating("ADD n :d", R"({":d":{"N":"-1"}})")),
                          UpdateAction("b", Updating("ADD n :d", R"({":d":{"N":"1"}})"))});
    EXPECT_EQ(200, r.status) << r.Describe();
    if (r.status != 200) break;
    writes++;
  }
  int reads_during = reads.load() - reads_before;
  done = true;
  get_reader.join();
  scan_reader.join();
  EXPECT_EQ(0, torn.load());
  EXPECT_GE(reads_during, 20);
  EXPECT_EQ(Canonical(R"({"n":{"N":")" + std::to_string(100 - writes) + R"("},"pk":{"S":"a"}})"), Stored("a"));
  EXPECT_EQ(Canonical(R"({"n":{"N":")" + std::to_string(writes) + R"("},"pk":{"S":"b"}})"), Stored("b"));
}

}  // namespace
}  // namespace dynapage
