// The DynamoDB JSON 1.0 protocol over real HTTP (docs/behaviour.md §8): headers, error bodies, check order, malformed
// input.

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kSerialization[] = "com.amazon.coral.service#SerializationException";
const char kUnknownOperation[] = "com.amazon.coral.service#UnknownOperationException";

// §8.2: every answer carries these headers, errors included.
void ExpectDynamoHeaders(const HttpResult& r) {
  EXPECT_EQ("application/x-amz-json-1.0", r.Header("Content-Type")) << r.Describe();
  EXPECT_TRUE(std::regex_match(r.Header("x-amzn-RequestId"), std::regex("^[0-9A-Z]{52}$")))
      << "x-amzn-RequestId: '" << r.Header("x-amzn-RequestId") << "'";
  ASSERT_TRUE(r.HasHeader("x-amz-crc32")) << r.Describe();
  EXPECT_EQ(std::to_string(Crc32(r.body)), r.Header("x-amz-crc32")) << r.Describe();
  EXPECT_EQ(std::to_string(r.body.size()), r.Header("Content-Length"));
}

HttpRequest Post(const std::string& operation, const std::string& body) {
  HttpRequest request;
  request.headers = DynamoHeaders(operation);
  request.body = body;
  return request;
}

void SetHeader(HttpRequest* request, const std::string& name, const std::string& value) {
  request->headers.erase(name);
  if (!value.empty()) request->headers.emplace(name, value);
}

class HttpProtocolTest : public ::testing::Test {
 protected:
  TestServer server_;
};

TEST_F(HttpProtocolTest, SuccessHeaders) {
  HttpResult r = server_.Call("ListTables", "{}");
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"TableNames":[]})", r.body);
  ExpectDynamoHeaders(r);
}

TEST_F(HttpProtocolTest, ErrorHeadersAndBody) {
  HttpResult r = server_.Call("DescribeTable", R"({"TableName":"missing"})");
  EXPECT_EQ(400, r.status);
  ExpectDynamoHeaders(r);
  EXPECT_EQ("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", r.ErrorType());
  EXPECT_TRUE(r.Has("message")) << r.body;
  EXPECT_EQ("Requested resource not found: Table: missing not found", r.Message());
}

TEST_F(HttpProtocolTest, ValidationExceptionNamespaceAndMessageKey) {
  HttpResult r = server_.Call("ListTables", R"({"Limit":101})");
  EXPECT_EQ(400, r.status);
  ExpectDynamoHeaders(r);
  EXPECT_EQ("com.amazon.coral.validate#ValidationException", r.ErrorType());
  EXPECT_EQ(Canonical(R"({"__type":"com.amazon.coral.validate#ValidationException","message":"1 validation error )"
                      R"(detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less )"
                      R"(than or equal to 100"})"),
            r.body);
}

TEST_F(HttpProtocolTest, RequestIdsDiffer) {
  std::set<std::string> ids;
  for (int i = 0; i < 20; i++) ids.insert(server_.Call("ListTables", "{}").Header("x-amzn-RequestId"));
  EXPECT_EQ(20u, ids.size());
}

// §8.5 step 2: unparsable JSON is a SerializationException with no message at all.
TEST_F(HttpProtocolTest, BadJsonIsSerializationExceptionWithoutMessage) {
  for (const std::string body : {"{", "nope", "{\"TableName\":}", "{\"a\":1}}", "{\"a\":1,}"}) {
    HttpResult r = server_.Call("ListTables", body);
    EXPECT_EQ(400, r.status) << body;
    ExpectDynamoHeaders(r);
    EXPECT_EQ(std::string(R"({"__type":")") + kSerialization + R"("})", r.body) << body;
  }
}

// A raw NUL byte is not JSON, wherever it is (RapidJSON alone would take it for the end of the text).
TEST_F(HttpProtocolTest, NulByteInTheBodyIsSerializationException) {
  for (const std::string& body : {std::string("{}\0", 3), std::string("{}\0{\"a\":1}", 10),
                                 std::string("{\"Limit\":5}\0x", 13), std::string("{\"Lim\0it\":5}", 12)}) {
    HttpResult r = server_.Call("ListTables", body);
    EXPECT_EQ(400, r.status) << r.Describe();
    EXPECT_EQ(std::string(R"({"__type":")") + kSerialization + R"("})", r.body) << r.Describe();
  }
  HttpResult r = server_.Call("ListTables", std::string("{\"Limit\":5}", 11));  // the same without the NUL
  EXPECT_EQ(200, r.status) << r.Describe();
}

// Nor is a raw 0x1A..0x1F, in a string or out of one, at any position (RapidJSON's 16-byte string scan takes them
// for ordinary characters); nothing is stored. Escaped, they are ordinary string content.
TEST_F(HttpProtocolTest, RawControlCharacterInTheBodyIsSerializationException) {
  ASSERT_EQ(200, server_.CreateTable("items", "pk", "S").status);
  for (char c : {'\x1a', '\x1f', '\x01'}) {
    for (size_t at = 0; at < 40; at++) {
      std::string text(40, 'x');
      text[at] = c;
      std::string body = R"({"TableName":"items","Item":{"pk":{"S":"a"},"v":{"S":")" + text + R"("}}})";
      HttpResult r = server_.Call("PutItem", body);
      ASSERT_EQ(400, r.status) << r.Describe();
      ASSERT_EQ(std::string(R"({"__type":")") + kSerialization + R"("})", r.body) << r.Describe();
    }
  }
  std::string outside = std::string(R"({"TableName":"items",)") + '\x1f' + R"("Item":{"pk":{"S":"a"}}})";
  EXPECT_EQ(400, server_.Call("PutItem", outside).status);
  EXPECT_EQ("{}", server_.Call("GetItem", R"({"TableName":"items","Key":{"pk":{"S":"a"}}})").body);

  // Escaped, they are stored and come back escaped, at every position of a long string.
  for (size_t at = 0; at < 40; at++) {
    std::string text(40, 'x');
    std::string escaped = text;
    escaped.replace(at, 1, "\\u001F");
    text[at] = '\x1f';
    ASSERT_EQ(200, server_.Call("PutItem", R"({"TableName":"items","Item":{"pk":{"S":"a"},"v":{"S":")" + escaped +
                                               R"("}}})")
                       .status);
    HttpResult r = server_.Call("GetItem", R"({"TableName":"items","Key":{"pk":{"S":"a"}}})");
    ASSERT_EQ(200, r.status) << r.Describe();
    ASSERT_EQ(R"({"Item":{"pk":{"S":"a"},"v":{"S":")" + escaped + R"("}}})", r.body);
  }
}

// JSON's own whitespace control characters (tab, line feed, carriage return) are welcome between tokens: a
// pretty-printed body is read as the compact one.
TEST_F(HttpProtocolTest, PrettyPrintedBodyIsAccepted) {
  ASSERT_EQ(200, server_.CreateTable("items", "pk", "S").status);
  std::string body = "{\r\n\t\"TableName\":\t\"items\",\n\t\"Item\": {\n\t\t\"pk\": {\"S\": \"a\"},\n"
                     "\t\t\"v\": {\"L\": [\n\t\t\t{\"N\": \"1\"},\r\n\t\t\t{\"M\": {}}\n\t\t]}\n\t}\n}\n";
  HttpResult r = server_.Call("PutItem", body);
  ASSERT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"Item":{"pk":{"S":"a"},"v":{"L":[{"N":"1"},{"M":{}}]}}})",
            server_.Call("GetItem", R"({"TableName":"items","Key":{"pk":{"S":"a"}}})").body);
}

// Step 2 comes before step 3: bad JSON to an unknown target is still a SerializationException.
TEST_F(HttpProtocolTest, JsonIsParsedBeforeTheTargetIsChecked) {
  HttpResult r = server_.Call("NoSuchOperation", "{");
  EXPECT_EQ(kSerialization, r.ErrorType()) << r.Describe();
}

// §8.5 step 3.
TEST_F(HttpProtocolTest, UnknownOperation) {
  HttpResult r = server_.Call("ListTable", "{}");
  EXPECT_EQ(400, r.status);
  ExpectDynamoHeaders(r);
  EXPECT_EQ(std::string(R"({"__type":")") + kUnknownOperation +
                R"(","message":"An unknown operation was requested: DynamoDB_20120810.ListTable"})",
            r.body);
}

TEST_F(HttpProtocolTest, WrongTargetPrefixIsUnknownOperation) {
  for (const std::string target :
       {"Foo_20120810.ListTables", "DynamoDB_20120811.ListTables", "ListTables", "DynamoDB_20120810.", ""}) {
    HttpRequest request = Post("ListTables", "{}");
    SetHeader(&request, "X-Amz-Target", target);
    HttpResult r = server_.Send(request);
    EXPECT_EQ(400, r.status) << target;
    EXPECT_EQ(kUnknownOperation, r.ErrorType()) << "target '" << target << "'";
  }
}

// The target is checked before authentication.
TEST_F(HttpProtocolTest, TargetIsCheckedBeforeAuthentication) {
  HttpRequest request = Post("NoSuchOperation", "{}");
  SetHeader(&request, "Authorization", "");
  EXPECT_EQ(kUnknownOperation, server_.Send(request).ErrorType());
}

// §8.5 step 4.
TEST_F(HttpProtocolTest, MissingAuthenticationToken) {
  HttpRequest request = Post("ListTables", "{}");
  SetHeader(&request, "Authorization", "");
  HttpResult r = server_.Send(request);
  EXPECT_EQ(400, r.status);
  ExpectDynamoHeaders(r);
  EXPECT_EQ("com.amazon.coral.service#MissingAuthenticationTokenException", r.ErrorType());
  EXPECT_EQ("Request is missing Authentication Token", r.Message());
  EXPECT_TRUE(r.Has("message")) << r.body;
}

TEST_F(HttpProtocolTest, IncompleteSignature) {
  HttpRequest request = Post("ListTables", "{}");
  SetHeader(&request, "Authorization", "AWS4-");
  SetHeader(&request, "X-Amz-Date", "");
  HttpResult r = server_.Send(request);
  EXPECT_EQ(400, r.status);
  ExpectDynamoHeaders(r);
  EXPECT_EQ("com.amazon.coral.service#IncompleteSignatureException", r.ErrorType());
  EXPECT_EQ("Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' "
            "parameter. Authorization header requires 'SignedHeaders' parameter. Authorization header requires "
            "existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-",
            r.Message());
}

TEST_F(HttpProtocolTest, SignatureParametersAreSplitOnCommasAndSpaces) {
  // Any run of ',' and ' ' separates parameters; a parameter without a value does not count.
  const char* const kMissingSignature = "AWS4-HMAC-SHA256 Credential=a/b/c,SignedHeaders=host;x-amz-date, Signature=";
  HttpRequest request = Post("ListTables", "{}");
  SetHeader(&request, "Authorization", kMissingSignature);
  HttpResult r = server_.Send(request);
  EXPECT_EQ("com.amazon.coral.service#IncompleteSignatureException", r.ErrorType());
  EXPECT_EQ(std::string("Authorization header requires 'Signature' parameter. Authorization=") + kMissingSignature,
            r.Message());
  SetHeader(&request, "Authorization",
            "AWS4-HMAC-SHA256  Credential=a/20260101/us-east-1/dynamodb/aws4_request ,, Signature=0123,SignedHeaders=host");
  r = server_.Send(request);
  EXPECT_EQ(200, r.status) << r.body;
  const char* const kGlued = "AWS4-HMAC-SHA256 Credential=a/b/c,SignedHeaders=hostSignature=0123";
  SetHeader(&request, "Authorization", kGlued);
  r = server_.Send(request);
  EXPECT_EQ(std::string("Authorization header requires 'Signature' parameter. Authorization=") + kGlued, r.Message());
}

// The credential scope names the caller's namespace: one that is malformed, or whose access key or region is not
// text, is refused as DynamoDB refuses it, and creates nothing.
TEST_F(HttpProtocolTest, CredentialScopeIsChecked) {
  struct Case {
    std::string credential, type, message;
  };
  const std::vector<Case> cases = {
      {"a/20260101/us-east-1", "IncompleteSignatureException",
       "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got "
       "'a/20260101/us-east-1'"},
      {"a/20260101/us-east-1/dynamodb/aws4_request/x", "IncompleteSignatureException",
       "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got "
       "'a/20260101/us-east-1/dynamodb/aws4_request/x'"},
      {"\xff\xfe/20260101/us-east-1/dynamodb/aws4_request", "UnrecognizedClientException",
       "The security token included in the request is invalid."},
      {"/20260101/us-east-1/dynamodb/aws4_request", "UnrecognizedClientException",
       "The security token included in the request is invalid."},
      {"a/20260101/us-\xff" "east-1/dynamodb/aws4_request", "InvalidSignatureException",
       "Credential should be scoped to a valid region, not 'us-?east-1'. "},
      {"a/20260101/US_EAST/dynamodb/aws4_request", "InvalidSignatureException",
       "Credential should be scoped to a valid region, not 'US_EAST'. "},
      {"a/20260101//dynamodb/aws4_request", "InvalidSignatureException",
       "Credential should be scoped to a valid region, not ''. "},
  };
  for (const Case& c : cases) {
    HttpRequest request = Post("CreateTable", R"({"TableName":"t","BillingMode":"PAY_PER_REQUEST",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]})");
    SetHeader(&request, "Authorization",
              "AWS4-HMAC-SHA256 Credential=" + c.credential + ", SignedHeaders=host, Signature=0123");
    HttpResult r = server_.Send(request);
    EXPECT_EQ(400, r.status) << c.credential;
    EXPECT_EQ("com.amazon.coral.service#" + c.type, r.ErrorType()) << r.Describe();
    EXPECT_EQ(c.message, r.Message()) << r.Describe();
  }
  EXPECT_EQ(0u, server_.Call("ListTables", "{}").json["TableNames"].Size());
}

TEST_F(HttpProtocolTest, IncompleteSignatureNamesOnlyWhatIsMissing) {
  HttpRequest request = Post("ListTables", "{}");
  SetHeader(&request, "X-Amz-Date", "");
  HttpResult r = server_.Send(request);
  EXPECT_EQ("com.amazon.coral.service#IncompleteSignatureException", r.ErrorType());
  EXPECT_EQ(std::string("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. "
                        "Authorization=") + kTestAuthorization,
            r.Message());
}

// Any well-formed credentials are accepted; signatures are not verified; a Date header does for X-Amz-Date.
TEST_F(HttpProtocolTest, AnyWellFormedCredentialsAreAccepted) {
  HttpRequest request = Post("ListTables", "{}");
  SetHeader(&request, "Authorization",
            "AWS4-HMAC-SHA256 Credential=other/20200101/eu-west-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0123456789abcdef");
  SetHeader(&request, "X-Amz-Date", "");
  SetHeader(&request, "Date", "Thu, 01 Jan 2026 00:00:00 GMT");
  HttpResult r = server_.Send(request);
  EXPECT_EQ(200, r.status) << r.Describe();
}

// §8.5 step 5: an empty body (after target and authentication) is a SerializationException without message.
TEST_F(HttpProtocolTest, EmptyBody) {
  HttpResult r = server_.Call("ListTables", "");
  EXPECT_EQ(400, r.status);
  ExpectDynamoHeaders(r);
  EXPECT_EQ(std::string(R"({"__type":")") + kSerialization + R"("})", r.body);
}

// §8.5 step 6: member type errors are SerializationExceptions with "Message" (capital M).
TEST_F(HttpProtocolTest, MemberTypeErrorsUseCapitalMessage) {
  struct Case {
    const char* operation;
    const char* body;
    const char* message;
  } cases[] = {
      {"ListTables", R"({"Limit":"5"})", "STRING_VALUE cannot be converted to Integer"},
      {"ListTables", R"({"ExclusiveStartTableName":true})", "TRUE_VALUE cannot be converted to String"},
      {"DescribeTable", R"({"TableName":5})", "NUMBER_VALUE cannot be converted to String"},
      {"DescribeTable", R"({"TableName":["a"]})", "Unrecognized collection type class java.lang.String"},
      {"DescribeTable", R"({"TableName":{}})", "Start of structure or map found where not expected"},
      {"PutItem", R"({"TableName":"t","Item":{"a":{"N":123}}})", "NUMBER_VALUE cannot be converted to String"},
      {"PutItem", R"({"TableName":"t","Item":{"a":{"B":"abcde"}}})",
       "'abcde' can not be converted to an Blob: Base64 encoded length is expected a multiple of 4 bytes but "
       "found: 5"},
      {"PutItem", R"({"TableName":"t","Item":{"a":{"B":"Yh=="}}})",
       "'Yh==' can not be converted to an Blob: Invalid last non-pad Base64 character dectected"},
  };
  for (const auto& c : cases) {
    HttpResult r = server_.Call(c.operation, c.body);
    EXPECT_EQ(400, r.status) << c.body;
    EXPECT_EQ(kSerialization, r.ErrorType()) << c.body;
    ASSERT_TRUE(r.json.IsObject()) << r.body;
    EXPECT_TRUE(r.Has("Message")) << r.body;
    EXPECT_FALSE(r.Has("message")) << r.body;
    EXPECT_EQ(c.message, r.Message()) << c.body;
  }
}

// §8.5: unknown top-level members are ignored and null members count as absent.
TEST_F(HttpProtocolTest, UnknownMembersAreIgnored) {
  HttpResult r = server_.Call("ListTables", R"({"Foo":1,"Bar":{"x":[1,2,{"y":null}]},"Baz":"no"})");
  EXPECT_EQ(200, r.status) << r.Describe();
  ASSERT_EQ(200, server_.CreateTable("tbl", "pk", "S").status);
  r = server_.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"}},"Whatever":[true]})");
  EXPECT_EQ(200, r.status) << r.Describe();
}

TEST_F(HttpProtocolTest, NullMembersAreAbsent) {
  ASSERT_EQ(200, server_.CreateTable("tbl", "pk", "S").status);
  HttpResult r = server_.Call("ListTables", R"({"Limit":null,"ExclusiveStartTableName":null})");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"TableNames":["tbl"]})", r.body);
  r = server_.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"},"gone":null},"ReturnValues":null,)"
                              R"("ReturnConsumedCapacity":null,"ConditionExpression":null,"Expected":null})");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ("{}", r.body);
  r = server_.Call("GetItem", R"({"TableName":"tbl","Key":{"pk":{"S":"a"}},"ConsistentRead":null,)"
                              R"("ProjectionExpression":null,"AttributesToGet":null})");
  EXPECT_EQ(R"({"Item":{"pk":{"S":"a"}}})", r.body);
  // A required member set to null is missing.
  r = server_.Call("DescribeTable", R"({"TableName":null})");
  EXPECT_EQ("The parameter 'TableName' is required but was not present in the request", r.Message());
}

// §8.4: a non-POST method, or a body with a wrong or missing Content-Type, is a 404 <UnknownOperationException/>.
TEST_F(HttpProtocolTest, WrongContentTypeIs404) {
  for (const std::string type : {"text/plain", "application/x-amz-json-1.1", "application/xml"}) {
    HttpRequest request = Post("ListTables", "{}");
    SetHeader(&request, "Content-Type", type);
    HttpResult r = server_.Send(request);
    EXPECT_EQ(404, r.status) << type;
    EXPECT_EQ("<UnknownOperationException/>\n", r.body) << type;
  }
}

TEST_F(HttpProtocolTest, MissingContentTypeIs404) {
  std::string body = "{}";
  HttpResult r = server_.SendRaw(
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
      "Authorization: " + std::string(kTestAuthorization) + "\r\nX-Amz-Date: 20260101T000000Z\r\n"
      "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  EXPECT_EQ(404, r.status) << r.Describe();
  EXPECT_EQ("<UnknownOperationException/>\n", r.body);
}

TEST_F(HttpProtocolTest, OtherMethodsAre404) {
  for (const std::string method : {"PUT", "DELETE", "PATCH"}) {
    HttpRequest request = Post("ListTables", "{}");
    request.method = method;
    HttpResult r = server_.Send(request);
    EXPECT_EQ(404, r.status) << method;
    EXPECT_EQ("<UnknownOperationException/>\n", r.body) << method;
  }
  HttpRequest get;
  get.method = "GET";
  get.path = "/tables";
  EXPECT_EQ(404, server_.Send(get).status);
}

// §8.1: application/json is accepted too; the answer is always application/x-amz-json-1.0.
TEST_F(HttpProtocolTest, JsonContentTypeIsAccepted) {
  HttpRequest request = Post("ListTables", "{}");
  SetHeader(&request, "Content-Type", "application/json");
  HttpResult r = server_.Send(request);
  EXPECT_EQ(200, r.status) << r.Describe();
  ExpectDynamoHeaders(r);
  SetHeader(&request, "Content-Type", "application/x-amz-json-1.0; charset=utf-8");
  EXPECT_EQ(200, server_.Send(request).status);
}

// §8.4: GET / answers the health line (with its trailing space), naming the host it was reached at.
TEST_F(HttpProtocolTest, HealthCheck) {
  HttpRequest get;
  get.method = "GET";
  get.headers.emplace("Accept-Encoding", "identity");  // cpp-httplib's client asks for gzip otherwise
  HttpResult r = server_.Send(get);
  EXPECT_EQ(200, r.status);
  EXPECT_EQ("healthy: 127.0.0.1:" + std::to_string(server_.port()) + " ", r.body);
  EXPECT_EQ(std::to_string(Crc32(r.body)), r.Header("x-amz-crc32")) << r.Describe();
}

// §8.2: x-amz-crc32 is the CRC of the body as sent, also when cpp-httplib gzips it for a client that accepts gzip.
TEST_F(HttpProtocolTest, CrcIsOfTheBytesSentWhenGzipped) {
  HttpRequest get;
  get.method = "GET";
  get.headers.emplace("Accept-Encoding", "gzip");
  HttpResult r = server_.Send(get);
  ASSERT_EQ(200, r.status);
  ASSERT_EQ("gzip", r.Header("Content-Encoding")) << r.Describe();
  EXPECT_NE("healthy: 127.0.0.1:" + std::to_string(server_.port()) + " ", r.body);
  EXPECT_EQ(std::to_string(Crc32(r.body)), r.Header("x-amz-crc32")) << r.Describe();
}

// §8.5: requests over 16 MB are refused with 413; the server stays up.
TEST_F(HttpProtocolTest, BodyOver16MBIsRefused) {
  const size_t limit = 16 * 1024 * 1024;
  HttpResult r = server_.Call("ListTables", std::string(limit + 1, ' '));
  EXPECT_EQ(413, r.status) << r.Describe();
  // Refused by cpp-httplib before the dispatcher sees it, yet with a request id and a CRC like every answer.
  EXPECT_TRUE(std::regex_match(r.Header("x-amzn-RequestId"), std::regex("^[0-9A-Z]{52}$"))) << r.Describe();
  EXPECT_EQ(std::to_string(Crc32(r.body)), r.Header("x-amz-crc32")) << r.Describe();
  // Exactly 16 MiB is still read and answered.
  r = server_.Call("ListTables", std::string(limit - 2, ' ') + "{}");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(200, server_.Call("ListTables", "{}").status);
}

// Chunked request bodies are read like any other.
TEST_F(HttpProtocolTest, ChunkedBody) {
  HttpResult r = server_.SendRaw(
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/x-amz-json-1.0\r\n"
      "X-Amz-Target: DynamoDB_20120810.ListTables\r\nAuthorization: " + std::string(kTestAuthorization) +
      "\r\nX-Amz-Date: 20260101T000000Z\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n");
  EXPECT_EQ(200, r.status) << r.Describe();
  EXPECT_EQ(R"({"TableNames":[]})", r.body);
}

// Bad requests never take the server down, and it keeps answering on the same connection.
TEST_F(HttpProtocolTest, ServerSurvivesGarbage) {
  for (const std::string body : {"", "{", "[]", "null", "{\"TableName\":{\"deep\":[[[[[[[[[[]]]]]]]]]]}}"}) {
    for (const char* op : {"PutItem", "GetItem", "CreateTable", "BatchWriteItem", "BatchGetItem", "DeleteTable"}) {
      HttpResult r = server_.Call(op, body);
      EXPECT_EQ(400, r.status) << op << " " << body << " -> " << r.Describe();
    }
  }
  EXPECT_EQ(200, server_.Call("ListTables", "{}").status);
}

}  // namespace
}  // namespace dynapage
