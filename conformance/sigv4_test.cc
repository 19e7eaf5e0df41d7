// Offline proof that the suite's SigV4 signing is what AWS expects: for fixed requests, credentials and time
// the Authorization header must equal botocore's SigV4Auth byte for byte. We cannot reach AWS from our
// machines, so botocore (the signer behind boto3 and the AWS CLI) is the reference. Runs without an endpoint.
//
// The expected values were produced with botocore 1.43.11 by this snippet:
//
//   import datetime
//   from unittest import mock
//   from botocore.auth import SigV4Auth
//   from botocore.awsrequest import AWSRequest
//   from botocore.credentials import Credentials
//
//   FIXED = datetime.datetime(2015, 8, 30, 12, 36, 0)
//
//   def sign(url, target, body, token, region):
//       req = AWSRequest(method="POST", url=url, data=body.encode("utf-8"),
//                        headers={"Content-Type": "application/x-amz-json-1.0",
//                                 "X-Amz-Target": "DynamoDB_20120810." + target})
//       creds = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", token)
//       with mock.patch("botocore.auth.get_current_datetime", return_value=FIXED):
//           SigV4Auth(creds, "dynamodb", region).add_auth(req)
//       return dict(req.headers.items())
//
//   sign("https://dynamodb.us-east-1.amazonaws.com/", "ListTables", '{"Limit":2}', None, "us-east-1")
//   sign("https://dynamodb.eu-west-1.amazonaws.com/", "PutItem",
//        '{"TableName":"t","Item":{"pk":{"S":"\u00e4\u00e1\u00f6\u00fc \u65e5\u672c\u8a9e \U0001F600"}}}',
//        "FQoGZXIvYXdzEBYaDExampleSessionToken+/=", "eu-west-1")
//   sign("http://localhost:8000/", "Query",
//        '{"TableName":"t","KeyConditionExpression":"pk = :v","ExpressionAttributeValues":{":v":{"S":"caf\u00e9"}}}',
//        None, "us-west-2")

#include "conformance/sigv4.h"

#include <gtest/gtest.h>

#include <string>

namespace conformance {
namespace {

// 2015-08-30T12:36:00Z
constexpr std::time_t kFixedTime = 1440938160;

const Credentials kCredentials{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};

std::string Find(const HeaderList& headers, const std::string& name) {
  for (const auto& [n, v] : headers) {
    if (n == name) return v;
  }
  return "<absent>";
}

RequestToSign DynamoRequest(const std::string& host, const std::string& target, const std::string& body) {
  RequestToSign r;
  r.host = host;
  r.body = body;
  r.headers = {{"Content-Type", "application/x-amz-json-1.0"}, {"X-Amz-Target", "DynamoDB_20120810." + target}};
  return r;
}

std::string Explain(const RequestToSign& r, const HeaderList& signing) {
  std::string names;
  return "canonical request:\n" + CanonicalRequest(r, signing, &names);
}

TEST(SigV4, FixedTimeIsTheBotocoreTimestamp) {
  HeaderList h = SignV4(DynamoRequest("h", "ListTables", "{}"), kCredentials, "us-east-1", "dynamodb", kFixedTime);
  EXPECT_EQ(Find(h, "X-Amz-Date"), "20150830T123600Z");
}

TEST(SigV4, MatchesBotocoreWithoutSessionToken) {
  RequestToSign r = DynamoRequest("dynamodb.us-east-1.amazonaws.com", "ListTables", "{\"Limit\":2}");
  HeaderList h = SignV4(r, kCredentials, "us-east-1", "dynamodb", kFixedTime);
  EXPECT_EQ(Find(h, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
            "Signature=296ec34d461b7af2d95258d86cb5491a1f826909aedf9e34dbd4a684fef15ef1")
      << Explain(r, h);
  EXPECT_EQ(Find(h, "X-Amz-Security-Token"), "<absent>");
}

TEST(SigV4, MatchesBotocoreWithSessionTokenAndNonAsciiBody) {
  // ä á ö ü, 日本語 and an emoji (a 4-byte UTF-8 sequence): the payload hash is over the UTF-8 bytes.
  const std::string body =
      "{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"\xc3\xa4\xc3\xa1\xc3\xb6\xc3\xbc "
      "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x98\x80\"}}}";
  RequestToSign r = DynamoRequest("dynamodb.eu-west-1.amazonaws.com", "PutItem", body);
  Credentials with_token = kCredentials;
  with_token.session_token = "FQoGZXIvYXdzEBYaDExampleSessionToken+/=";
  HeaderList h = SignV4(r, with_token, "eu-west-1", "dynamodb", kFixedTime);
  EXPECT_EQ(Find(h, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/eu-west-1/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, "
            "Signature=77a6701ef8abb3765fb24f97e0f3cc6b3c2b230eb637b3a275f32f8bc874e992")
      << Explain(r, h);
  EXPECT_EQ(Find(h, "X-Amz-Security-Token"), "FQoGZXIvYXdzEBYaDExampleSessionToken+/=");
}

TEST(SigV4, MatchesBotocoreForLocalEndpointWithPortInHost) {
  const std::string body =
      "{\"TableName\":\"t\",\"KeyConditionExpression\":\"pk = :v\","
      "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"caf\xc3\xa9\"}}}";
  RequestToSign r = DynamoRequest("localhost:8000", "Query", body);
  HeaderList h = SignV4(r, kCredentials, "us-west-2", "dynamodb", kFixedTime);
  EXPECT_EQ(Find(h, "Authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-west-2/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
            "Signature=1102642eac815cbb4f6666f7bc35bf21219f9fad1fee182538509fe3241b92b3")
      << Explain(r, h);
}

TEST(SigV4, SignatureDependsOnEveryInput) {
  // Guards against a signer that ignores the body or a header and still matches one fixed vector by luck.
  RequestToSign r = DynamoRequest("localhost:8000", "Query", "{}");
  const std::string base = Find(SignV4(r, kCredentials, "us-east-1", "dynamodb", kFixedTime), "Authorization");
  RequestToSign other_body = r;
  other_body.body = "{ }";
  EXPECT_NE(base, Find(SignV4(other_body, kCredentials, "us-east-1", "dynamodb", kFixedTime), "Authorization"));
  RequestToSign other_target = DynamoRequest("localhost:8000", "Scan", "{}");
  EXPECT_NE(base, Find(SignV4(other_target, kCredentials, "us-east-1", "dynamodb", kFixedTime), "Authorization"));
  RequestToSign other_host = DynamoRequest("localhost:8001", "Query", "{}");
  EXPECT_NE(base, Find(SignV4(other_host, kCredentials, "us-east-1", "dynamodb", kFixedTime), "Authorization"));
  EXPECT_NE(base, Find(SignV4(r, kCredentials, "us-east-1", "dynamodb", kFixedTime + 1), "Authorization"));
}

TEST(SigV4, PayloadHashOfEmptyBody) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

}  // namespace
}  // namespace conformance
