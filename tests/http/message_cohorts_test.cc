// Every error answer captured from real DynamoDB (docs/behaviour.md "Regions and message cohorts";
// /work/shared/spec/dialects.md §1–§2), replayed as the same request signed for three regions that answer
// differently: us-east-1 (framework new, Scan legacy), eu-west-2 (framework new, Scan new) and eu-west-1 (framework
// legacy, Scan legacy). One row per captured request; a row fails when any region's answer differs.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

// The regions replayed, one per combination of the splits that the captures cover.
const char* const kRegions[] = {"us-east-1", "eu-west-2", "eu-west-1"};

// An answer's wording by region. kBespoke rows are DynamoDB's own messages (ⓔ in dialects.md): the regions whose
// validation framework is current put "1 validation error detected: " before them, the legacy ones do not. kScan
// rows differ between the Scan cohorts: `text` is the legacy wording, `scan_new` the new one.
enum class Wording { kSame, kBespoke, kScan };

struct Probe {
  const char* name;
  const char* operation;
  std::string body;
  const char* type;  // the __type after '#'
  std::string text;  // "<*>" matches any run of characters (AWS's echo of Java objects varies between requests)
  Wording wording = Wording::kSame;
  const char* scan_new = "";
  // Where the legacy framework answers otherwise than with the same text (eu-west-1): its type and text.
  const char* legacy_type = nullptr;
  const char* legacy_text = "";
};

// True if text matches pattern, where each "<*>" in pattern matches any run of characters.
bool Matches(const std::string& pattern, const std::string& text) {
  static const std::string kAny = "<*>";
  size_t star = pattern.find(kAny);
  if (star == std::string::npos) return pattern == text;
  if (text.compare(0, star, pattern, 0, star) != 0) return false;
  std::string rest = pattern.substr(star + kAny.size());
  for (size_t from = star; from <= text.size(); from++) {
    if (Matches(rest, text.substr(from))) return true;
  }
  return false;
}

std::string Expected(const Probe& probe, const std::string& region) {
  bool framework_current = region != "eu-west-1";
  switch (probe.wording) {
    case Wording::kSame:
      return probe.text;
    case Wording::kBespoke:
      return framework_current ? "1 validation error detected: " + probe.text : probe.text;
    case Wording::kScan:
      return region == "eu-west-2" ? probe.scan_new : probe.text;
  }
  return probe.text;
}

// V32 of dialects.md §1.2.2: a string inside 32 nested maps.
std::string DeepValue(int levels) {
  std::string value = R"({"S":"leaf"})";
  for (int i = 0; i < levels; i++) value = R"({"M":{"n":)" + value + "}}";
  return value;
}

const char kPutH[] = R"({"TableName":"tabh","Item":{"pk":{"S":"test"},)";
const char kUpdateH[] = R"({"TableName":"tabh","Key":{"pk":{"S":"k"}},)";
const char kEnvelope[] = "1 validation error detected: ";
const char kEmptyKey[] =
    "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty "
    "string value. Key: pk";
const char kReturnValuesRule[] =
    "Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, "
    "NONE]";
const char kConsumedRule[] =
    "Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: "
    "[INDEXES, TOTAL, NONE]";

std::vector<Probe> CapturedProbes() {
  const std::string empty_table_name =
      std::string(kEnvelope) +
      "Value at 'TableName' failed to satisfy constraint: Member must have length greater than or equal to 1";
  std::string puts26;
  for (int i = 0; i <= 25; i++) {
    puts26 += std::string(i ? "," : "") + R"({"PutRequest":{"Item":{"pk":{"S":"bw-)" + std::to_string(i) + R"("}}}})";
  }
  const std::string transact_key_ops[] = {
      R"({"Update":{"TableName":"tabh","Key":{"pk":<K>},"UpdateExpression":"SET attr1 = :v",)"
      R"("ExpressionAttributeValues":{":v":{"S":"x"}}}})",
      R"({"Delete":{"TableName":"tabh","Key":{"pk":<K>}}})",
      R"x({"ConditionCheck":{"TableName":"tabh","Key":{"pk":<K>},"ConditionExpression":"attribute_not_exists(pk)"}})x"};
  auto transact = [&](int op, const std::string& key) {
    std::string action = transact_key_ops[op];
    action.replace(action.find("<K>"), 3, key);
    return R"({"TransactItems":[)" + action + "]}";
  };
  std::vector<Probe> probes = {
      // §2.1 echo-scalar, echo-collection.
      {"PutItemWithoutTableName", "PutItem", R"({"Item":{"pk":{"S":"test"}}})", "ValidationException",
       std::string(kEnvelope) + "Value null at 'tableName' failed to satisfy constraint: Member must not be null"},
      {"PutItemEmptyTableName", "PutItem", R"({"TableName":"","Item":{"pk":{"S":"test"}}})", "ValidationException",
       empty_table_name},
      {"PutItemLongTableName", "PutItem", R"({"TableName":")" + std::string(256, 'a') + R"(","Item":{"pk":{"S":"t"}}})",
       "ValidationException",
       std::string(kEnvelope) + "Value '" + std::string(256, 'a') +
           "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255"},
      {"PutItemBadTableName", "PutItem", R"({"TableName":"bad table!@#","Item":{"pk":{"S":"t"}}})",
       "ValidationException",
       std::string(kEnvelope) + "Value 'bad table!@#' at 'tableName' failed to satisfy constraint: Member must satisfy "
                                "regular expression pattern: [a-zA-Z0-9_.-]+"},
      {"CreateTableShortName", "CreateTable",
       R"({"TableName":"ab","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[)"
       R"({"AttributeName":"pk","KeyType":"HASH"}],"ProvisionedThroughput":{"ReadCapacityUnits":5,)"
       R"("WriteCapacityUnits":5}})",
       "ValidationException",
       std::string(kEnvelope) + "Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length "
                                "greater than or equal to 3"},
      {"BatchWriteItem26Puts", "BatchWriteItem", R"({"RequestItems":{"tabh":[)" + puts26 + "]}}", "ValidationException",
       std::string(kEnvelope) +
           "Value '{tabh=[<*>]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: "
           "[Member must have length less than or equal to 25, Member must have length greater than or equal to 1]"},
      {"CreateTableThreeKeys", "CreateTable",
       R"({"TableName":"three","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
       R"({"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"extra","AttributeType":"S"}],"KeySchema":[)"
       R"({"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"},)"
       R"({"AttributeName":"extra","KeyType":"RANGE"}],"ProvisionedThroughput":{"ReadCapacityUnits":5,)"
       R"("WriteCapacityUnits":5}})",
       "ValidationException",
       std::string(kEnvelope) + "Value '[<*>]' at 'keySchema' failed to satisfy constraint: Member must have length "
                                "less than or equal to 2"},
      // §2.2 bespoke.
      {"PutItemEmptyStringSet", "PutItem", kPutH + std::string(R"("a":{"SS":[]}}})"), "ValidationException",
       "One or more parameter values were invalid: An string set  may not be empty", Wording::kBespoke},
      {"PutItemEmptyNumberSet", "PutItem", kPutH + std::string(R"("a":{"NS":[]}}})"), "ValidationException",
       "One or more parameter values were invalid: An number set  may not be empty", Wording::kBespoke},
      {"PutItemDuplicateStrings", "PutItem", kPutH + std::string(R"("a":{"SS":["a","a"]}}})"), "ValidationException",
       R"(One or more parameter values were invalid: Input collection ["a", "a"] contains duplicates.)",
       Wording::kBespoke},
      {"PutItemExpectedAndCondition", "PutItem",
       kPutH +
           std::string(
               R"x("d":{"S":"v"}},"Expected":{"pk":{"Exists":false}},"ConditionExpression":"attribute_not_exists(pk)"})x"),
       "ValidationException",
       "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
       "{Expected} Expression parameters: {ConditionExpression}",
       Wording::kBespoke},
      {"PutItemValuesWithoutExpression", "PutItem",
       kPutH + std::string(R"("d":{"S":"v"}},"ExpressionAttributeValues":{":v":{"S":"unused"}}})"),
       "ValidationException", "ExpressionAttributeValues can only be specified when using expressions",
       Wording::kBespoke},
      {"PutItemRedundantParentheses", "PutItem",
       kPutH + std::string(R"x("d":{"S":"v"}},"ConditionExpression":"((attribute_not_exists(pk)))"})x"),
       "ValidationException", "Invalid ConditionExpression: The expression has redundant parentheses;",
       Wording::kBespoke},
      {"PutItemContainsSameOperand", "PutItem",
       kPutH +
           std::string(
               R"x("d":{"S":"v"}},"ConditionExpression":"contains(#a, #a)","ExpressionAttributeNames":{"#a":"data"}})x"),
       "ValidationException",
       "Invalid ConditionExpression: The first operand must be distinct from the remaining operands for this operator "
       "or function; operator: contains, first operand: [data]",
       Wording::kBespoke},
      {"UpdateItemSetsHashKey", "UpdateItem",
       kUpdateH + std::string(R"("UpdateExpression":"SET pk = :v","ExpressionAttributeValues":{":v":{"S":"x"}}})"),
       "ValidationException",
       "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
      {"UpdateItemSetsRangeKey", "UpdateItem",
       R"({"TableName":"tabc","Key":{"pk":{"S":"k"},"sk":{"S":"s"}},"UpdateExpression":"SET sk = :v",)"
       R"("ExpressionAttributeValues":{":v":{"S":"x"}}})",
       "ValidationException",
       "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key"},
      {"UpdateItemSyntaxError", "UpdateItem",
       kUpdateH +
           std::string(R"("UpdateExpression":"INVALID SYNTAX HERE","ExpressionAttributeValues":{":v":{"S":"x"}}})"),
       "ValidationException", R"(Invalid UpdateExpression: Syntax error; token: "INVALID", near: "INVALID SYNTAX")",
       Wording::kBespoke},
      {"UpdateItemUnusedName", "UpdateItem",
       kUpdateH + std::string(R"("UpdateExpression":"SET attr1 = :v","ExpressionAttributeValues":{":v":{"S":"x"}},)"
                              R"("ExpressionAttributeNames":{"#unused":"u"}})"),
       "ValidationException", "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}",
       Wording::kBespoke},
      {"UpdateItemUnusedValue", "UpdateItem",
       kUpdateH + std::string(R"("UpdateExpression":"SET attr1 = :v","ExpressionAttributeValues":{":v":{"S":"x"},)"
                              R"(":unused":{"S":"u"}}})"),
       "ValidationException", "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}",
       Wording::kBespoke},
      {"UpdateItemUndefinedValue", "UpdateItem", kUpdateH + std::string(R"("UpdateExpression":"SET attr1 = :v"})"),
       "ValidationException",
       "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :v",
       Wording::kBespoke},
      {"UpdateItemExpressionAndAttributeUpdates", "UpdateItem",
       kUpdateH + std::string(R"("UpdateExpression":"SET attr1 = :v","ExpressionAttributeValues":{":v":{"S":"x"}},)"
                              R"("AttributeUpdates":{"attr1":{"Value":{"S":"y"},"Action":"PUT"}}})"),
       "ValidationException",
       "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: "
       "{AttributeUpdates} Expression parameters: {UpdateExpression}",
       Wording::kBespoke},
      {"UpdateItemEmptyExpression", "UpdateItem", kUpdateH + std::string(R"("UpdateExpression":""})"),
       "ValidationException", "Invalid UpdateExpression: The expression can not be empty;", Wording::kBespoke},
      {"PutItemNullFalse", "PutItem", kPutH + std::string(R"("attr1":{"NULL":false}}})"), "ValidationException",
       "One or more parameter values were invalid: Null attribute value types must have the value of true",
       Wording::kBespoke},
      {"BatchGetItemEmpty", "BatchGetItem", R"({"RequestItems":{}})", "ValidationException",
       std::string(kEnvelope) +
           "Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1"},
      {"BatchWriteItemEmpty", "BatchWriteItem", R"({"RequestItems":{}})", "ValidationException",
       "The requestItems parameter is required for BatchWriteItem"},
      // §2.3 ordering.
      {"PutItemEmptyNameEmptyItem", "PutItem", R"({"TableName":"","Item":{}})", "ValidationException",
       empty_table_name},
      {"PutItemEmptyNameBadReturnValues", "PutItem", R"({"TableName":"","Item":{},"ReturnValues":"INVALID"})",
       "ValidationException", empty_table_name},
      {"DeleteItemEmptyName", "DeleteItem", R"({"TableName":"","Key":{}})", "ValidationException", empty_table_name},
      {"UpdateItemEmptyName", "UpdateItem", R"({"TableName":"","Key":{}})", "ValidationException", empty_table_name},
      {"PutItemThreeBadEnums", "PutItem",
       R"({"TableName":"nosuchtable","Item":{"pk":{"S":"x"}},"ReturnConsumedCapacity":"INVALID",)"
       R"("ReturnItemCollectionMetrics":"INVALID","ReturnValues":"INVALID"})",
       "ValidationException",
       std::string("3 validation errors detected: ") + kConsumedRule + "; " + kReturnValuesRule +
           "; Value 'INVALID' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum "
           "value set: [SIZE, NONE]"},
      {"DeleteItemTwoBadEnums", "DeleteItem",
       R"({"TableName":"tabh","Key":{"pk":{"S":"x"}},"ReturnConsumedCapacity":"INVALID","ReturnValues":"INVALID"})",
       "ValidationException", std::string("2 validation errors detected: ") + kConsumedRule + "; " + kReturnValuesRule},
      {"UpdateItemTwoBadEnums", "UpdateItem",
       R"({"TableName":"tabh","Key":{"pk":{"S":"x"}},"ReturnConsumedCapacity":"INVALID","ReturnValues":"INVALID"})",
       "ValidationException", std::string(kEnvelope) + kReturnValuesRule},
      {"UpdateItemDeepValue", "UpdateItem",
       R"({"TableName":"tabh","Key":{"pk":{"S":"no-such-item"}},"UpdateExpression":"SET touched = :t",)"
       R"("ConditionExpression":"#d = :deep","ExpressionAttributeNames":{"#d":"data"},)"
       R"("ExpressionAttributeValues":{":t":{"S":"y"},":deep":)" +
           DeepValue(32) + "}}",
       "ValidationException",
       "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported "
       "limit",
       Wording::kBespoke, "", "ConditionalCheckFailedException", "The conditional request failed"},
      // §1.3 and §2.4 scan-params.
      {"ScanSegmentNotLess", "Scan", R"({"TableName":"tabh","Segment":5,"TotalSegments":5})", "ValidationException",
       "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 5 is not less "
       "than TotalSegments: 5",
       Wording::kScan, "The Segment parameter is zero-based and must be less than parameter TotalSegments"},
      {"ScanLimitZero", "Scan", R"({"TableName":"tabh","Limit":0})", "ValidationException",
       std::string(kEnvelope) +
           "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
       Wording::kScan,
       "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater "
       "than or equal to 1"},
      {"ScanNegativeSegment", "Scan", R"({"TableName":"tabh","Segment":-1,"TotalSegments":4})", "ValidationException",
       std::string(kEnvelope) +
           "Value '-1' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0",
       Wording::kScan,
       "1 validation error detected: Value at 'Segment' failed to satisfy constraint: Member must have value greater "
       "than or equal to 0"},
      {"ScanSpecificAttributesWithoutProjection", "Scan", R"({"TableName":"tabh","Select":"SPECIFIC_ATTRIBUTES"})",
       "ValidationException",
       "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES",
       Wording::kScan,
       "1 validation error detected: Must specify the AttributesToGet or ProjectionExpression when choosing to get "
       "SPECIFIC_ATTRIBUTES"},
      {"ScanStartKeyNotTheSchema", "Scan", R"({"TableName":"tabh","ExclusiveStartKey":{"bad":{"S":"p"}}})",
       "ValidationException",
       "The provided starting key is invalid: The provided key element does not match the schema", Wording::kScan,
       "The provided starting key is invalid"},
      {"ScanSegmentWithoutTotal", "Scan", R"({"TableName":"tabh","Segment":0})", "ValidationException",
       "The TotalSegments parameter is required but was not present in the request when Segment parameter is "
       "present"},
      {"ScanTotalWithoutSegment", "Scan", R"({"TableName":"tabh","TotalSegments":4})", "ValidationException",
       "The Segment parameter is required but was not present in the request when parameter TotalSegments is "
       "present"},
      // §2.5 batch-key, lookup-key, transact-key.
      {"GetItemEmptyKey", "GetItem", R"({"TableName":"tabh","Key":{"pk":{"S":""}}})", "ValidationException", kEmptyKey},
      {"DeleteItemEmptyKey", "DeleteItem", R"({"TableName":"tabh","Key":{"pk":{"S":""}}})", "ValidationException",
       kEmptyKey},
      {"TransactUpdateEmptyKey", "TransactWriteItems", transact(0, R"({"S":""})"), "ValidationException", kEmptyKey},
      {"TransactDeleteEmptyKey", "TransactWriteItems", transact(1, R"({"S":""})"), "ValidationException", kEmptyKey},
      {"TransactCheckEmptyKey", "TransactWriteItems", transact(2, R"({"S":""})"), "ValidationException", kEmptyKey},
      {"GetItemNumberKey", "GetItem", R"({"TableName":"tabh","Key":{"pk":{"N":"5"}}})", "ValidationException",
       "The provided key element does not match the schema"},
      {"DeleteItemListKey", "DeleteItem", R"({"TableName":"tabh","Key":{"pk":{"L":[{"S":"x"}]}}})",
       "ValidationException", "The provided key element does not match the schema"},
      {"BatchWriteItemNumberKey", "BatchWriteItem",
       R"({"RequestItems":{"tabh":[{"PutRequest":{"Item":{"pk":{"N":"5"}}}}]}})", "ValidationException",
       "The provided key element does not match the schema"},
      {"TransactUpdateNumberKey", "TransactWriteItems", transact(0, R"({"N":"5"})"), "TransactionCanceledException",
       "Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError]"},
      {"TransactCheckListKey", "TransactWriteItems", transact(2, R"({"L":[{"S":"x"}]})"),
       "TransactionCanceledException",
       "Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError]"},
      // §2.6 projection, projection-gsi.
      {"GetItemOverlappingPaths", "GetItem",
       R"({"TableName":"tabh","Key":{"pk":{"S":"proj-val"}},"ProjectionExpression":"a, a.b"})", "ValidationException",
       "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these "
       "paths; path one: [a], path two: [a, b]"},
      {"QueryIndexDoesNotProject", "Query",
       R"({"TableName":"tabh","IndexName":"gidx","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":)"
       R"({":g":{"S":"g"}},"ProjectionExpression":"a"})",
       "ValidationException",
       "One or more parameter values were invalid: Global secondary index gidx does not project [a]"},
      {"ScanIndexDoesNotProject", "Scan", R"({"TableName":"tabh","IndexName":"gidx","ProjectionExpression":"a"})",
       "ValidationException",
       "One or more parameter values were invalid: Global secondary index gidx does not project [a]"},
      // §2.7 empty-set-member, rejections.
      {"PutItemEmptyNumber", "PutItem", kPutH + std::string(R"("a":{"NS":[""]}}})"), "ValidationException",
       "The parameter cannot be converted to a numeric value: ", Wording::kBespoke},
      {"PutItemDuplicateEmptyStrings", "PutItem", kPutH + std::string(R"("a":{"SS":["",""]}}})"), "ValidationException",
       R"(One or more parameter values were invalid: Input collection ["", ""] contains duplicates.)",
       Wording::kBespoke},
      {"PutItemDuplicateEmptyBinaries", "PutItem", kPutH + std::string(R"("a":{"BS":["",""]}}})"),
       "ValidationException",
       R"(One or more parameter values were invalid: Input collection ["",""]of type BS contains duplicates.)",
       Wording::kBespoke},
      {"PutItemEmptyBinarySet", "PutItem", kPutH + std::string(R"("a":{"BS":[]}}})"), "ValidationException",
       "One or more parameter values were invalid: Binary sets should not be empty", Wording::kBespoke},
  };
  return probes;
}

class MessageCohortsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    HttpResult r = server_.Call(
        "CreateTable",
        R"({"TableName":"tabh","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk",)"
        R"("AttributeType":"S"},{"AttributeName":"gpk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk",)"
        R"("KeyType":"HASH"}],"GlobalSecondaryIndexes":[{"IndexName":"gidx","KeySchema":[{"AttributeName":"gpk",)"
        R"("KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]})");
    ASSERT_EQ(200, r.status) << r.Describe();
    ASSERT_EQ(200, server_.CreateTable("tabc", "pk", "S", "sk", "S").status);
  }

  // operation with body, signed for region.
  HttpResult CallIn(const std::string& region, const std::string& operation, const std::string& body) {
    HttpRequest request;
    request.headers = DynamoHeaders(operation);
    request.headers.erase("Authorization");
    request.headers.emplace("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/" + region +
                                                 "/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, "
                                                 "Signature=abc");
    request.body = body;
    return server_.Send(request);
  }

  TestServer server_;
};

TEST_F(MessageCohortsTest, EveryCapturedProbeGetsEachRegionsAnswer) {
  int mismatches = 0;
  for (const Probe& probe : CapturedProbes()) {
    for (const char* region : kRegions) {
      HttpResult r = CallIn(region, probe.operation, probe.body);
      std::string expected = Expected(probe, region);
      const char* type = probe.type;
      if (probe.legacy_type && std::string(region) == "eu-west-1") {
        type = probe.legacy_type;
        expected = probe.legacy_text;
      }
      if (r.ErrorName() != type || !Matches(expected, r.Message())) {
        mismatches++;
        ADD_FAILURE() << probe.name << " in " << region << "\n  expected: " << type << ": " << expected
                      << "\n  actual:   " << r.Describe();
      }
    }
  }
  EXPECT_EQ(0, mismatches);
}

// The empty-RequestItems split has two odd regions of its own (dialects.md §1.4).
TEST_F(MessageCohortsTest, EmptyRequestItemsInTheirOddRegions) {
  const std::string constraint =
      "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length "
      "greater than or equal to 1";
  HttpResult r = CallIn("eu-north-1", "BatchWriteItem", R"({"RequestItems":{}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ(constraint, r.Message());
  r = CallIn("me-central-1", "BatchGetItem", R"({"RequestItems":{}})");
  EXPECT_EQ("ValidationException", r.ErrorName());
  EXPECT_EQ("The requestItems parameter is required for BatchGetItem", r.Message());
  r = CallIn("me-central-1", "BatchWriteItem", R"({"RequestItems":{}})");
  EXPECT_EQ("The requestItems parameter is required for BatchWriteItem", r.Message());
}

// A region outside the captured 33, and an unsigned request, answer as us-east-1.
TEST_F(MessageCohortsTest, UnknownAndUnsignedRegionsAnswerAsUsEast1) {
  const std::string body = R"({"TableName":"tabh","Item":{"pk":{"S":"x"},"a":{"NULL":false}}})";
  const std::string enveloped =
      "1 validation error detected: One or more parameter values were invalid: Null attribute value types must have "
      "the value of true";
  EXPECT_EQ(enveloped, CallIn("me-south-1", "PutItem", body).Message());
  EXPECT_EQ(enveloped, CallIn("local", "PutItem", body).Message());
  HttpRequest unsigned_request;
  unsigned_request.headers = DynamoHeaders("PutItem");
  unsigned_request.headers.erase("Authorization");
  unsigned_request.path = "/?X-Amz-Algorithm=AWS4-HMAC-SHA256";  // presigned: no credential scope in a header
  unsigned_request.body = body;
  HttpResult r = server_.Send(unsigned_request);
  EXPECT_EQ(enveloped, r.Message()) << r.Describe();
  EXPECT_EQ(
      "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value "
      "greater than or equal to 1",
      CallIn("local", "Scan", R"({"TableName":"tabh","Limit":0})").Message());
}

// --messages pins every request to one cohort, whatever region signed it.
TEST(MessagesPinTest, APinnedServerAnswersEveryRegionAlike) {
  TestServerOptions options;
  MessageCohorts legacy;
  ASSERT_TRUE(ParseMessagesPin("legacy", &legacy));
  options.messages_pin = legacy;
  TestServer server(options);
  ASSERT_EQ(200, server.CreateTable("tabh", "pk", "S").status);
  HttpResult r = server.Call("PutItem", R"({"TableName":"tabh","Item":{"pk":{"S":"x"},"a":{"NULL":false}}})");
  EXPECT_EQ("One or more parameter values were invalid: Null attribute value types must have the value of true",
            r.Message());
  r = server.Call("BatchGetItem", R"({"RequestItems":{}})");
  EXPECT_EQ("The requestItems parameter is required for BatchGetItem", r.Message());
}

// UpdateItem's size rule (dialects.md §1.2.3): the current framework counts the statement, the legacy one only the
// finished item. A fresh item of a 1-character key and "SET b = :pad" is N bytes.
TEST_F(MessageCohortsTest, UpdateItemSizeRuleByFramework) {
  auto update = [this](const char* region, const std::string& key, size_t finished) {
    std::string pad(finished - 4, 'x');
    return CallIn(region, "UpdateItem",
                  R"({"TableName":"tabh","Key":{"pk":{"S":")" + key +
                      R"("}},"UpdateExpression":"SET b = :pad",)"
                      R"("ExpressionAttributeValues":{":pad":{"S":")" +
                      pad + R"("}}})");
  };
  const std::string refused = "ValidationException: Item size to update has exceeded the maximum allowed size";
  for (const char* region : {"us-east-1", "eu-west-1"}) {
    EXPECT_EQ(200, update(region, "a", 409581).status) << region;
    HttpResult r = update(region, "b", 409601);
    EXPECT_EQ(refused, r.ErrorName() + ": " + r.Message()) << region;
  }
  HttpResult r = update("us-east-1", "c", 409582);
  EXPECT_EQ(refused, r.ErrorName() + ": " + r.Message());
  EXPECT_EQ(200, update("eu-west-1", "d", 409582).status);
  EXPECT_EQ(200, update("eu-west-1", "e", 409600).status);
  // Once the attributes the statement does not name outweigh its cost, the 400 KB cap binds.
  ASSERT_EQ(200,
            CallIn("us-east-1", "PutItem",
                   R"({"TableName":"tabh","Item":{"pk":{"S":"f"},"other":{"S":")" + std::string(40, 'o') + R"("}}})")
                .status);
  EXPECT_EQ(200, update("us-east-1", "f", 409600 - 45).status);
}

}  // namespace
}  // namespace dynapage
