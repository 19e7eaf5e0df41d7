// Namespaces (engine/database/database_set.h): the caller read from the credential scope, the namespace's name,
// and, over HTTP, tables kept apart by access key and region with ARNs naming the caller's region and account.

#include "engine/database/database_set.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <filesystem>
#include <string>
#include <thread>

#include <sys/socket.h>
#include <unistd.h>

#include "server/http/http_server.h"
#include "server/protocol/dispatcher.h"
#include "server/service/service.h"
#include "tests/http/http_test_util.h"
#include "tests/http/namespaced_server.h"
#include "tests/http/raw_http_util.h"

namespace dynapage {
namespace {

TEST(CallerTest, ComesFromTheCredentialScope) {
  Caller c = CallerOf(Authorization("AKIDEXAMPLE", "us-west-2"), "us-east-1");
  EXPECT_EQ("AKIDEXAMPLE", c.access_key);
  EXPECT_EQ("us-west-2", c.region);
  EXPECT_EQ("000000000000", c.account_id);
  c = CallerOf(Authorization("123456789012", "eu-west-1"), "us-east-1");
  EXPECT_EQ("123456789012", c.account_id);
  c = CallerOf("", "ap-south-1");  // unsigned: the server's region
  EXPECT_EQ("", c.access_key);
  EXPECT_EQ("ap-south-1", c.region);
  c = CallerOf("AWS4-HMAC-SHA256 SignedHeaders=host, Credential=K/d/sa-east-1/dynamodb/aws4_request", "us-east-1");
  EXPECT_EQ("K", c.access_key);
  EXPECT_EQ("sa-east-1", c.region);
  c = CallerOf("AWS4-HMAC-SHA256 Credential=a/b", "us-east-1");  // no region in a short scope
  EXPECT_EQ("us-east-1", c.region);
}

TEST(AccountIdTest, OnlyTwelveDigitsAreAnAccount) {
  EXPECT_EQ("123456789012", AccountIdOf("123456789012"));
  EXPECT_EQ("000000000000", AccountIdOf("12345678901"));
  EXPECT_EQ("000000000000", AccountIdOf("1234567890123"));
  EXPECT_EQ("000000000000", AccountIdOf("12345678901a"));
}

TEST(NamespaceNameTest, NamesAreDistinctAndSafeAsFileNames) {
  Caller c;
  c.access_key = "AKID";
  c.region = "us-west-2";
  EXPECT_EQ("", NamespaceName(NamespaceMode::kShared, c));
  EXPECT_EQ("us-west-2.db", NamespaceName(NamespaceMode::kRegion, c));
  EXPECT_EQ("AKID_us-west-2.db", NamespaceName(NamespaceMode::kAccessKeyRegion, c));
  c.access_key = "../x_y";
  EXPECT_EQ("%2E%2E%2Fx%5Fy_us-west-2.db", NamespaceName(NamespaceMode::kAccessKeyRegion, c));
}

// For answers from the thread's last lookup when the same caller asks again: whatever order callers and sets come
// in, each caller gets its own namespace's database, and a set never answers with another set's database.
TEST(DatabaseSetTest, EachCallerGetsItsNamespacesDatabaseInAnyOrder) {
  auto caller = [](const char* key, const char* region) {
    Caller c;
    c.access_key = key;
    c.region = region;
    return c;
  };
  const Caller callers[] = {caller("A", "us-east-1"), caller("B", "us-east-1"), caller("A", "eu-west-1"),
                            caller("B", "eu-west-1")};
  for (NamespaceMode mode : {NamespaceMode::kAccessKeyRegion, NamespaceMode::kRegion}) {
    std::unique_ptr<DatabaseSet> opened[2];
    for (auto& set : opened) ASSERT_TRUE(DatabaseSet::Open(mode, DatabaseOptions(), &set).ok());
    DatabaseSet& first = *opened[0];
    DatabaseSet& second = *opened[1];
    Database* seen[2][4] = {};
    for (int round = 0; round < 3; round++) {
      for (int i : {0, 0, 1, 1, 2, 3, 0, 3, 3, 1}) {
        for (int s : {0, 0, 1, 1}) {  // the same set twice running, then the other
          Database* db = nullptr;
          ASSERT_TRUE((s == 0 ? first : second).For(callers[i], &db).ok());
          if (!seen[s][i]) seen[s][i] = db;
          EXPECT_EQ(seen[s][i], db) << "set " << s << " caller " << i;
        }
      }
    }
    for (int i = 0; i < 4; i++) {
      EXPECT_NE(seen[0][i], seen[1][i]);
      for (int j = 0; j < 4; j++) {
        bool same_namespace = callers[i].region == callers[j].region &&
                              (mode == NamespaceMode::kRegion || callers[i].access_key == callers[j].access_key);
        EXPECT_EQ(same_namespace, seen[0][i] == seen[0][j]) << i << " " << j;
      }
    }
  }
}

TEST(NamespaceModeTest, ParsesItsNames) {
  NamespaceMode mode;
  for (NamespaceMode m : {NamespaceMode::kShared, NamespaceMode::kRegion, NamespaceMode::kAccessKeyRegion}) {
    ASSERT_TRUE(ParseNamespaceMode(NamespaceModeName(m), &mode));
    EXPECT_EQ(m, mode);
  }
  EXPECT_FALSE(ParseNamespaceMode("account", &mode));
}

TEST(NamespaceHttpTest, AccessKeyRegionKeepsEachKeyAndRegionApart) {
  NamespacedServer server(NamespaceMode::kAccessKeyRegion);
  EXPECT_EQ("arn:aws:dynamodb:us-west-2:000000000000:table/orders", server.CreateTable("alice", "us-west-2", "orders"));
  EXPECT_EQ("arn:aws:dynamodb:us-east-1:123456789012:table/users",
            server.CreateTable("123456789012", "us-east-1", "users"));
  EXPECT_EQ("orders ", server.TableNames("alice", "us-west-2"));
  EXPECT_EQ("", server.TableNames("alice", "us-east-1"));
  EXPECT_EQ("", server.TableNames("bob", "us-west-2"));
  EXPECT_EQ("users ", server.TableNames("123456789012", "us-east-1"));
  // The same name in another namespace is another table.
  EXPECT_EQ("arn:aws:dynamodb:us-east-1:000000000000:table/orders", server.CreateTable("alice", "us-east-1", "orders"));
  int status = 0;
  rapidjson::Document d = server.Call("bob", "us-west-2", "DescribeTable", R"({"TableName":"orders"})", &status);
  EXPECT_EQ(400, status);
  // Tags are looked up in the caller's namespace too.
  d = server.Call("alice", "us-west-2", "ListTagsOfResource",
                  R"({"ResourceArn":"arn:aws:dynamodb:us-west-2:000000000000:table/orders"})", &status);
  EXPECT_EQ(200, status);
  server.Call("bob", "us-west-2", "ListTagsOfResource",
              R"({"ResourceArn":"arn:aws:dynamodb:us-west-2:000000000000:table/orders"})", &status);
  EXPECT_EQ(400, status);
}

// The body of the answer to a ListTables sent on connection fd with that Authorization header (and an X-Amz-Date
// header when dated).
std::string ListTablesOn(int fd, const std::string& authorization, bool dated = true) {
  std::string request = "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n" +
                        std::string(dated ? "X-Amz-Date: 20260101T000000Z\r\n" : "") +
                        "X-Amz-Target: DynamoDB_20120810.ListTables\r\nAuthorization: " + authorization +
                        "\r\nContent-Length: 2\r\n\r\n{}";
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) return "";
  std::string answer = ReadRawAnswer(fd);
  size_t head_end = answer.find("\r\n\r\n");
  return head_end == std::string::npos ? answer : answer.substr(head_end + 4);
}

// The requests of one connection may be signed by different callers, each served as its own: a connection's thread
// remembers the last valid credential scope it saw, and must answer no other scope with it.
TEST(NamespaceHttpTest, OneConnectionServesEachRequestAsItsOwnCaller) {
  NamespacedServer server(NamespaceMode::kAccessKeyRegion);
  ASSERT_NE("", server.CreateTable("alice", "us-west-2", "orders"));
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  auto list_tables = [fd](const std::string& authorization) { return ListTablesOn(fd, authorization); };
  const std::string orders = R"({"TableNames":["orders"]})", none = R"({"TableNames":[]})";
  EXPECT_EQ(orders, list_tables(Authorization("alice", "us-west-2")));
  EXPECT_EQ(none, list_tables(Authorization("bob", "us-west-2")));
  EXPECT_EQ(orders, list_tables(Authorization("alice", "us-west-2")));
  EXPECT_EQ(none, list_tables(Authorization("alice", "us-east-1")));
  EXPECT_EQ(none, list_tables(Authorization("alicf", "us-west-2")));
  EXPECT_NE(std::string::npos, list_tables(Authorization("alice", "US-WEST-2")).find("InvalidSignatureException"));
  std::string next_day = Authorization("alice", "us-west-2");
  next_day.replace(next_day.find("20260101"), 8, "20260102");
  EXPECT_EQ(orders, list_tables(next_day));
  EXPECT_NE(std::string::npos, list_tables("AWS4-HMAC-SHA256 Credential=alice/20260101/us-west-2/dynamodb, "
                                           "SignedHeaders=host, Signature=1")
                                   .find("IncompleteSignatureException"));
  ::close(fd);
}

// A connection's thread also remembers the last valid header up to its final Signature parameter, and takes a header
// that is that part and another signature without checking it again: what follows the part must be exactly one
// Signature with a value, and the request dated, or the header is checked as any other.
TEST(NamespaceHttpTest, AHeaderLikeTheLastButForItsSignatureIsStillChecked) {
  NamespacedServer server(NamespaceMode::kAccessKeyRegion);
  ASSERT_NE("", server.CreateTable("alice", "us-west-2", "orders"));
  int fd = ConnectLoopback(server.port());
  ASSERT_GE(fd, 0);
  const std::string orders = R"({"TableNames":["orders"]})";
  const std::string signed_part =
      "AWS4-HMAC-SHA256 Credential=alice/20260101/us-west-2/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, ";
  EXPECT_EQ(orders, ListTablesOn(fd, signed_part + "Signature=0123"));
  EXPECT_EQ(orders, ListTablesOn(fd, signed_part + "Signature=4567"));
  // No value: the Signature parameter is missing.
  std::string answer = ListTablesOn(fd, signed_part + "Signature=");
  EXPECT_NE(std::string::npos, answer.find("requires 'Signature' parameter")) << answer;
  EXPECT_EQ(orders, ListTablesOn(fd, signed_part + "Signature=0123"));
  // An empty Signature followed by another parameter: still missing.
  answer = ListTablesOn(fd, signed_part + "Signature=, Extra=1");
  EXPECT_NE(std::string::npos, answer.find("requires 'Signature' parameter")) << answer;
  EXPECT_EQ(orders, ListTablesOn(fd, signed_part + "Signature=0123"));
  // Neither X-Amz-Date nor Date.
  answer = ListTablesOn(fd, signed_part + "Signature=89ab", /*dated=*/false);
  EXPECT_NE(std::string::npos, answer.find("either a 'X-Amz-Date' or a 'Date' header")) << answer;
  ::close(fd);
}

TEST(NamespaceHttpTest, RegionSharesTablesAcrossAccessKeys) {
  NamespacedServer server(NamespaceMode::kRegion);
  server.CreateTable("alice", "eu-west-1", "shared_t");
  EXPECT_EQ("shared_t ", server.TableNames("bob", "eu-west-1"));
  EXPECT_EQ("", server.TableNames("alice", "eu-central-1"));
}

TEST(NamespaceHttpTest, NamespacesPersistInTheFoldersOneStore) {
  std::string dir = testing::TempDir() + "/dynapage-namespaces-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    NamespacedServer server(NamespaceMode::kAccessKeyRegion, dir);
    server.CreateTable("alice", "us-west-2", "kept");
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/alice_us-west-2.db"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/CURRENT"));
  {
    NamespacedServer server(NamespaceMode::kAccessKeyRegion, dir);
    EXPECT_EQ("kept ", server.TableNames("alice", "us-west-2"));
    EXPECT_EQ("", server.TableNames("bob", "us-west-2"));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynapage
