// StartBulkPutItems, DescribeBulkOperation, ListBulkOperations and CancelBulkOperation through HTTP
// (engine/transfer/bulk_operations.h; docs/export-import.md): the synchronous errors (status, __type, message), the
// asynchronous states (COMPLETED, COMPLETED_WITH_ERRORS, CANCELLING then CANCELLED), the counters, the reports and
// ClientToken replay.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/transfer/bulk_operations.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

std::string Error(const HttpResult& r) { return std::to_string(r.status) + " " + r.ErrorName() + ": " + r.Message(); }

// A folder of local buckets for one test, removed after it.
class S3Dir {
 public:
  explicit S3Dir(const std::string& name)
      : path_(testing::TempDir() + "/dynapage-bulk-" + name + "-" + std::to_string(::getpid())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_ + "/in");
    std::filesystem::create_directories(path_ + "/out");
  }
  ~S3Dir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }
  void Put(const std::string& key, const std::string& contents) const {
    std::filesystem::path file = std::filesystem::path(path_) / "in" / key;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << contents;
  }

 private:
  std::string path_;
};

TestServerOptions WithS3Dir(const S3Dir& dir, uint64_t transient_status_ms = 0) {
  TestServerOptions options;
  options.s3_dir = dir.path();
  options.transient_status_ms = transient_status_ms;
  return options;
}

std::string StartBody(const std::string& table, const std::string& more = "") {
  return R"({"TableName":")" + table +
         R"(","InputS3Configuration":{"S3Bucket":"in","S3KeyPrefix":"data/","InputFormat":"DYNAMODB_JSON"},)"
         R"("OutputS3Configuration":{"S3Bucket":"out","S3KeyPrefix":"reports","OutputType":["ERROR",)"
         R"("CONDITION_CHECK_FAILURE"]})" +
         more + "}";
}

const rapidjson::Value& Description(const HttpResult& r) { return r.json["BulkOperationDescription"]; }

std::string Start(TestServer& server, const std::string& body) {
  HttpResult r = server.Call("StartBulkPutItems", body);
  EXPECT_EQ(200, r.status) << r.Describe();
  if (r.status != 200) return "";
  EXPECT_STREQ("IN_PROGRESS", Description(r)["BulkOperationStatus"].GetString());
  return Description(r)["BulkOperationArn"].GetString();
}

HttpResult Describe(TestServer& server, const std::string& arn) {
  return server.Call("DescribeBulkOperation", R"({"BulkOperationArn":")" + arn + R"("})");
}

// DescribeBulkOperation until done(description) holds (10 s at most).
template <typename Done>
HttpResult WaitFor(TestServer& server, const std::string& arn, Done done) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    HttpResult r = Describe(server, arn);
    if (r.status != 200 || done(Description(r)) || std::chrono::steady_clock::now() > deadline) return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

HttpResult WaitTerminal(TestServer& server, const std::string& arn) {
  return WaitFor(server, arn, [](const rapidjson::Value& d) {
    std::string status = d["BulkOperationStatus"].GetString();
    return status != "IN_PROGRESS" && status != "CANCELLING";
  });
}

uint64_t ItemCount(TestServer& server, const std::string& table) {
  HttpResult r = server.Call("Scan", R"({"TableName":")" + table + R"(","Select":"COUNT"})");
  return r.json["Count"].GetUint64();
}

TEST(BulkOperationsTest, SynchronousErrors) {
  S3Dir dir("sync");
  TestServer server(WithS3Dir(dir));
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  EXPECT_EQ("400 ResourceNotFoundException: Requested resource not found: Table: nope not found",
            Error(server.Call("StartBulkPutItems", StartBody("nope"))));
  EXPECT_EQ(
      "400 ValidationException: 1 validation error detected: Value '1023' at 'maxWriteRequestUnits' failed to "
      "satisfy constraint: Member must have value greater than or equal to 1024",
      Error(server.Call("StartBulkPutItems", StartBody("tbl", R"(,"MaxWriteRequestUnits":1023)"))));
  EXPECT_EQ(
      "400 ValidationException: 1 validation error detected: Value 'WARNING' at 'outputS3Configuration.outputType' "
      "failed to satisfy constraint: Member must satisfy enum value set: [ERROR, CONDITION_CHECK_FAILURE]",
      Error(server.Call("StartBulkPutItems",
                        R"({"TableName":"tbl","InputS3Configuration":{"S3Bucket":"in","InputFormat":"DYNAMODB_JSON"},)"
                        R"("OutputS3Configuration":{"OutputType":["WARNING"]}})")));
  EXPECT_EQ("400 ValidationException: Invalid Request: KMS Key Id is not supported for this encryption type",
            Error(server.Call("StartBulkPutItems",
                              R"({"TableName":"tbl","InputS3Configuration":{"S3Bucket":"in","InputFormat":)"
                              R"("DYNAMODB_JSON"},"OutputS3Configuration":{"OutputType":["ERROR"],)"
                              R"("S3SseAlgorithm":"AES256","S3SseKmsKeyId":"k"}})")));
  std::string unknown = "arn:aws:dynamodb:us-east-1:000000000000:table/tbl/bulk-operation/01700000000000-0000abcd";
  EXPECT_EQ("400 ResourceNotFoundException: Requested resource not found: Bulk operation " + unknown + " not found",
            Error(Describe(server, unknown)));
  EXPECT_EQ("400 ResourceNotFoundException: Requested resource not found: Bulk operation " + unknown + " not found",
            Error(server.Call("CancelBulkOperation", R"({"BulkOperationArn":")" + unknown + R"("})")));
  EXPECT_EQ(
      "400 ValidationException: 1 validation error detected: Value 'arn:short' at 'bulkOperationArn' failed to "
      "satisfy constraint: Member must have length greater than or equal to 37",
      Error(Describe(server, "arn:short")));

  // The same ClientToken: the same operation; with other members: IdempotentParameterMismatchException.
  std::string arn = Start(server, StartBody("tbl", R"(,"ClientToken":"t1")"));
  HttpResult again = server.Call("StartBulkPutItems", StartBody("tbl", R"(,"ClientToken":"t1")"));
  ASSERT_EQ(200, again.status) << again.Describe();
  EXPECT_EQ(arn, Description(again)["BulkOperationArn"].GetString());
  EXPECT_EQ(
      "400 IdempotentParameterMismatchException: Bulk operation conflict: Duplicate request detected with "
      "conflicting parameters",
      Error(server.Call("StartBulkPutItems", StartBody("tbl", R"(,"ClientToken":"t1","MaxWriteRequestUnits":2048)"))));

  TestServer no_s3;
  ASSERT_EQ(200, no_s3.CreateTable("tbl", "pk", "S").status);
  EXPECT_EQ(0u, Error(no_s3.Call("StartBulkPutItems", StartBody("tbl")))
                    .find("400 ValidationException: Export and import need a local S3 folder"));
}

TEST(BulkOperationsTest, ATableBeingCreatedIsInUse) {
  S3Dir dir("inuse");
  TestServer server(WithS3Dir(dir, 60000));
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  EXPECT_EQ("400 ResourceInUseException: Table is not ACTIVE: tbl is being created",
            Error(server.Call("StartBulkPutItems", StartBody("tbl"))));
}

TEST(BulkOperationsTest, PutsItemsAndCountsBadLinesButNotConditionFailures) {
  S3Dir dir("states");
  TestServer server(WithS3Dir(dir));
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  ASSERT_EQ(200, server.Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"kept"},"v":{"S":"old"}}})").status);
  dir.Put("data/a.json",
          "{\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"1\"}}}\n"
          "{\"Item\":{\"pk\":{\"S\":\"kept\"},\"v\":{\"S\":\"new\"}},\"ConditionExpression\":\"attribute_not_exists(pk)"
          "\"}\n"
          "{\"Item\":{\"pk\":{\"S\":\"b\"}},\"ConditionExpression\":\"attribute_not_exists(#k)\","
          "\"ExpressionAttributeNames\":{\"#k\":\"pk\"}}\n");
  dir.Put("other/ignored.json", "{\"Item\":{\"pk\":{\"S\":\"outside the prefix\"}}}\n");
  std::string arn = Start(server, StartBody("tbl"));
  HttpResult done = WaitTerminal(server, arn);
  const rapidjson::Value& d = Description(done);
  EXPECT_STREQ("COMPLETED", d["BulkOperationStatus"].GetString()) << done.Describe();
  EXPECT_EQ(3u, d["ProcessedItemCount"].GetUint64());
  EXPECT_EQ(0u, d["FailedItemCount"].GetUint64());
  EXPECT_TRUE(d.HasMember("EndTime"));
  EXPECT_GT(d["TotalInputBytes"].GetUint64(), 0u);
  EXPECT_EQ(d["TotalInputBytes"].GetUint64(), d["ProcessedInputBytes"].GetUint64());
  EXPECT_GT(d["BulkOperationUsage"][0]["BulkPutBytes"].GetUint64(), 0u);
  EXPECT_EQ(3u, ItemCount(server, "tbl"));  // a, b and kept
  HttpResult kept = server.Call("GetItem", R"({"TableName":"tbl","Key":{"pk":{"S":"kept"}}})");
  EXPECT_STREQ("old", kept.json["Item"]["v"]["S"].GetString());
  // The condition failure's report holds the item and the item as it was.
  std::string base = dir.path() + "/out/reports/AWSDynamoDB/BulkOperations/" + arn.substr(arn.rfind('/') + 1) + "/";
  std::ifstream report(base + "condition-check-failures/00000.json");
  std::string line;
  ASSERT_TRUE(std::getline(report, line)) << base;
  EXPECT_NE(std::string::npos, line.find("\"ExistingItem\":{\"pk\":{\"S\":\"kept\"},\"v\":{\"S\":\"old\"}}")) << line;
  EXPECT_TRUE(std::filesystem::exists(base + "manifest.json"));

  // A line that is no record: COMPLETED_WITH_ERRORS, counted in FailedItemCount and reported.
  dir.Put("data/b.json", "{\"Item\":{\"pk\":{\"S\":\"c\"}}}\n{\"NoItem\":{}}\n");
  std::string second = Start(server, StartBody("tbl"));
  HttpResult with_errors = WaitTerminal(server, second);
  EXPECT_STREQ("COMPLETED_WITH_ERRORS", Description(with_errors)["BulkOperationStatus"].GetString());
  EXPECT_EQ(5u, Description(with_errors)["ProcessedItemCount"].GetUint64());
  EXPECT_EQ(1u, Description(with_errors)["FailedItemCount"].GetUint64());
  EXPECT_EQ(4u, ItemCount(server, "tbl"));
  std::string second_base =
      dir.path() + "/out/reports/AWSDynamoDB/BulkOperations/" + second.substr(second.rfind('/') + 1) + "/";
  std::ifstream errors(second_base + "errors/00000.json");
  ASSERT_TRUE(std::getline(errors, line));
  EXPECT_NE(std::string::npos, line.find("\"key\":\"data/b.json\",\"itemIndex\":1")) << line;

  // Newest first, one a page.
  HttpResult page = server.Call("ListBulkOperations", R"({"MaxResults":1})");
  ASSERT_EQ(200, page.status) << page.Describe();
  EXPECT_EQ(second, page.json["BulkOperationsSummaryList"][0]["BulkOperationArn"].GetString());
  ASSERT_TRUE(page.Has("NextToken"));
  HttpResult next = server.Call("ListBulkOperations", std::string(R"({"MaxResults":1,"NextToken":")") +
                                                          page.json["NextToken"].GetString() + "\"}");
  EXPECT_EQ(arn, next.json["BulkOperationsSummaryList"][0]["BulkOperationArn"].GetString());
  EXPECT_FALSE(next.Has("NextToken"));

  // A finished operation cannot be cancelled.
  EXPECT_EQ("400 ValidationException: Bulk operation " + arn + " cannot be cancelled: it is already COMPLETED",
            Error(server.Call("CancelBulkOperation", R"({"BulkOperationArn":")" + arn + R"("})")));
}

TEST(BulkOperationsTest, CancelStopsAtABatchBoundaryAndKeepsTheWrites) {
  S3Dir dir("cancel");
  // The delay holds the new table CREATING, then pauses the worker between batches.
  const uint64_t kDelayMs = 1500;
  TestServer server(WithS3Dir(dir, kDelayMs));
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  std::this_thread::sleep_for(std::chrono::milliseconds(kDelayMs + 100));
  std::string lines;
  for (size_t i = 0; i < 2 * kBulkPutBatchRecords + 10; ++i) {
    lines += "{\"Item\":{\"pk\":{\"S\":\"k" + std::to_string(i) + "\"}}}\n";
  }
  dir.Put("data/items.json", lines);
  std::string arn = Start(server, StartBody("tbl"));
  HttpResult first = WaitFor(server, arn, [](const rapidjson::Value& d) {
    return d["ProcessedItemCount"].GetUint64() >= kBulkPutBatchRecords;
  });
  EXPECT_STREQ("IN_PROGRESS", Description(first)["BulkOperationStatus"].GetString()) << first.Describe();
  HttpResult cancel = server.Call("CancelBulkOperation", R"({"BulkOperationArn":")" + arn + R"("})");
  ASSERT_EQ(200, cancel.status) << cancel.Describe();
  EXPECT_STREQ("CANCELLING", cancel.json["BulkOperationStatus"].GetString());
  // CANCELLING while the worker pauses before its second batch; CANCELLED already when the cancel reached it while
  // it was still reading that batch's records (it then stops without the pause; ~1 run in 4 here, and the CI
  // machine's once). Either way it stopped at the batch boundary, as the count below shows.
  const std::string described = Description(Describe(server, arn))["BulkOperationStatus"].GetString();
  EXPECT_TRUE(described == "CANCELLING" || described == "CANCELLED") << described;
  HttpResult cancelled = WaitTerminal(server, arn);
  EXPECT_STREQ("CANCELLED", Description(cancelled)["BulkOperationStatus"].GetString()) << cancelled.Describe();
  EXPECT_STREQ("BulkOperationCancelled", Description(cancelled)["FailureCode"].GetString());
  EXPECT_EQ(kBulkPutBatchRecords, ItemCount(server, "tbl"));  // the first batch stays; no other was put
}

}  // namespace
}  // namespace dynapage
