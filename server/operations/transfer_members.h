// What ExportTableToPointInTime, ImportTable and their Describe and List operations share on the wire
// (export_table.cc, import_table.cc): the jobs of the server, and the members of a List request.

#ifndef DYNAPAGE_SERVER_OPERATIONS_TRANSFER_MEMBERS_H_
#define DYNAPAGE_SERVER_OPERATIONS_TRANSFER_MEMBERS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "engine/transfer/transfer_jobs.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// The server's jobs, or the refusal (kNoS3DirMessage) of a server started without --s3-dir. need_s3_dir false
// lets an export through to its own checks, which come first (TransferJobs::StartExport refuses it after them).
Status TransfersOf(const OperationContext& ctx, bool need_s3_dir, TransferJobs** out);

// ListExports' or ListImports' members: TableArn, a page size (size_member, 1 to 25, 25 by default), NextToken.
struct ListJobsRequest {
  std::optional<std::string> table_arn;
  int64_t page_size = 25;
  std::string next_token;
};
Status ReadListJobsRequest(const RequestReader& r, const char* size_member, const char* size_path,
                           ListJobsRequest* out);

// Ends a List response whose summary array is open: the array, NextToken (when next is not empty), the object.
void EndListResponse(const std::string& next, JsonWriter& w);

// DescribeExport's or DescribeImport's one member (arn_member, e.g. "ExportArn"; null at arn_path) into *arn.
Status ReadJobArn(const RequestReader& r, const char* arn_member, const char* arn_path, std::string* arn);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATIONS_TRANSFER_MEMBERS_H_
