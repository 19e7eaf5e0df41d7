#include "server/operations/transfer_members.h"

namespace dynapage {

Status TransfersOf(const OperationContext& ctx, bool need_s3_dir, TransferJobs** out) {
  if (!ctx.transfers || (need_s3_dir && !ctx.transfers->has_s3_dir())) return Status::Validation(kNoS3DirMessage);
  *out = ctx.transfers;
  return Status::OK();
}

Status ReadListJobsRequest(const RequestReader& r, const char* size_member, const char* size_path,
                           ListJobsRequest* out) {
  std::optional<std::string> next_token;
  std::optional<int64_t> page_size;
  DP_RETURN_IF_ERROR(r.GetString("TableArn", &out->table_arn));
  DP_RETURN_IF_ERROR(r.GetInteger(size_member, &page_size));
  DP_RETURN_IF_ERROR(r.GetString("NextToken", &next_token));
  ConstraintErrors errors;
  errors.CheckMin(page_size, size_path, 1);
  errors.CheckMax(page_size, size_path, 25);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  out->page_size = page_size.value_or(25);
  out->next_token = next_token.value_or("");
  return Status::OK();
}

void EndListResponse(const std::string& next, JsonWriter& w) {
  w.EndArray();
  if (!next.empty()) {
    w.Key("NextToken");
    w.String(next);
  }
  w.EndObject();
}

Status ReadJobArn(const RequestReader& r, const char* arn_member, const char* arn_path, std::string* arn) {
  std::optional<std::string> value;
  DP_RETURN_IF_ERROR(r.GetString(arn_member, &value));
  ConstraintErrors errors;
  if (!value) errors.AddNull(arn_path);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  *arn = *value;
  return Status::OK();
}

}  // namespace dynapage
