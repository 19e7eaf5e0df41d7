// ListBulkOperations: the caller's bulk operations, newest first, paged (engine/transfer/bulk_operations.h).

#include "server/operations/bulk_members.h"
#include "server/operations/operation_table.h"
#include "server/operations/transfer_members.h"

namespace dynapage {

namespace {
// MaxResults: 1 to 100, 10 when absent (the service model's default page).
constexpr int64_t kMaxListResults = 100;
constexpr int64_t kDefaultListResults = 10;
}  // namespace

Status HandleListBulkOperations(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<int64_t> max_results;
  std::optional<std::string> next_token;
  DP_RETURN_IF_ERROR(r.GetInteger("MaxResults", &max_results));
  DP_RETURN_IF_ERROR(r.GetString("NextToken", &next_token));
  ConstraintErrors errors;
  errors.CheckMin(max_results, "maxResults", 1);
  errors.CheckMax(max_results, "maxResults", kMaxListResults);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  BulkOperations* bulk = nullptr;
  DP_RETURN_IF_ERROR(BulkOperationsOf(ctx, &bulk));
  std::vector<BulkOperationRecord> records;
  std::string next;
  DP_RETURN_IF_ERROR(
      bulk->List(ctx.db, max_results.value_or(kDefaultListResults), next_token.value_or(""), &records, &next));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("BulkOperationsSummaryList");
  w.StartArray();
  for (const BulkOperationRecord& b : records) {
    w.StartObject();
    w.Key("BulkOperationArn");
    w.String(b.arn);
    w.Key("BulkOperationStatus");
    w.String(b.status);
    w.Key("StartTime");
    w.Double(b.start_time);
    if (b.end_time) {
      w.Key("EndTime");
      w.Double(*b.end_time);
    }
    w.EndObject();
  }
  EndListResponse(next, w);
  return Status::OK();
}

}  // namespace dynapage
