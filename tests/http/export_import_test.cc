// ExportTableToPointInTime's synchronous errors through HTTP: status, __type and message, in DynamoDB's order, and
// the refusal of export and import by a server started without --s3-dir (docs/export-import.md).

#include <gtest/gtest.h>

#include <string>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

const char kArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/tbl";

std::string Error(const HttpResult& r) {
  return std::to_string(r.status) + " " + r.ErrorName() + ": " + r.Message();
}

std::string Export(TestServer& server, const std::string& members) {
  return Error(server.Call("ExportTableToPointInTime", R"({"S3Bucket":"b",)" + members + "}"));
}

TEST(ExportImportTest, ExportSyncErrorsComeInDynamoDbOrderBeforeTheS3Folder) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  EXPECT_EQ("400 ValidationException: One or more parameter values were invalid: tableArn is not a valid ARN",
            Export(server, R"("TableArn":"tbl")"));
  EXPECT_EQ("400 ValidationException: Invalid Request: Table ARN is invalid.",
            Export(server, R"("TableArn":")" + std::string(kArn) + R"(/index/i")"));
  EXPECT_EQ("400 TableNotFoundException: Table not found: arn:aws:dynamodb:us-east-1:000000000000:table/other",
            Export(server, R"("TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/other")"));
  EXPECT_EQ("400 PointInTimeRecoveryUnavailableException: Point in time recovery is not enabled for table 'tbl'",
            Export(server, R"("TableArn":")" + std::string(kArn) + R"(")"));
  ASSERT_EQ(200, server.Call("UpdateContinuousBackups", R"({"TableName":"tbl","PointInTimeRecoverySpecification":)"
                                                        R"({"PointInTimeRecoveryEnabled":true}})")
                     .status);
  EXPECT_EQ("400 InvalidExportTimeException: Export Time is invalid",
            Export(server, R"("TableArn":")" + std::string(kArn) + R"(","ExportTime":4102444800)"));
  EXPECT_EQ("400 ValidationException: Invalid Request: Invalid FilterSpecification: The specification can not be empty",
            Export(server, R"("TableArn":")" + std::string(kArn) + R"(","FilterSpecification":{})"));
  std::string refused = Export(server, R"("TableArn":")" + std::string(kArn) + R"(")");
  EXPECT_EQ(0u, refused.find("400 ValidationException: Export and import need a local S3 folder: start dynapage "
                             "with --s3-dir DIR"))
      << refused;
  EXPECT_EQ(0u, Error(server.Call("ListImports", "{}")).find("400 ValidationException: Export and import need"));
  EXPECT_EQ(0u, Error(server.Call("DescribeExport", R"({"ExportArn":"x"})"))
                    .find("400 ValidationException: Export and import need"));
}

}  // namespace
}  // namespace dynapage
