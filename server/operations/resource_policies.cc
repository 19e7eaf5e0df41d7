// PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy: a table's or its stream's resource-based policy,
// stored and returned, not enforced (engine/write/resource_policies.h).

#include "engine/write/resource_policies.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
void WriteRevision(const std::string& revision_id, JsonWriter* w) {
  w->StartObject();
  if (!revision_id.empty()) {
    w->Key("RevisionId");
    w->String(revision_id);
  }
  w->EndObject();
}
}  // namespace

Status HandlePutResourcePolicy(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn, policy, expected;
  std::optional<bool> confirm;
  DP_RETURN_IF_ERROR(r.GetString("ResourceArn", &arn));
  DP_RETURN_IF_ERROR(r.GetString("Policy", &policy));
  DP_RETURN_IF_ERROR(r.GetString("ExpectedRevisionId", &expected));
  DP_RETURN_IF_ERROR(r.GetBoolean("ConfirmRemoveSelfResourceAccess", &confirm));
  ConstraintErrors errors;
  if (!arn) errors.AddNull("resourceArn");
  if (!policy) errors.AddNull("policy");
  CheckModelConstraints("PutResourcePolicy", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  std::string revision_id;
  DP_RETURN_IF_ERROR(
      PutResourcePolicy(ctx.db.writes(), ctx.context, *arn, *policy, expected, confirm.value_or(false), &revision_id));
  WriteRevision(revision_id, &ctx.response);
  return Status::OK();
}

Status HandleGetResourcePolicy(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn;
  DP_RETURN_IF_ERROR(r.GetString("ResourceArn", &arn));
  ConstraintErrors errors;
  if (!arn) errors.AddNull("resourceArn");
  CheckModelConstraints("GetResourcePolicy", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  ResourcePolicy policy;
  DP_RETURN_IF_ERROR(GetResourcePolicy(ctx.db.catalog(), *arn, &policy));
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("Policy");
  w.String(policy.document);
  w.Key("RevisionId");
  w.String(policy.revision_id);
  w.EndObject();
  return Status::OK();
}

Status HandleDeleteResourcePolicy(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> arn, expected;
  DP_RETURN_IF_ERROR(r.GetString("ResourceArn", &arn));
  DP_RETURN_IF_ERROR(r.GetString("ExpectedRevisionId", &expected));
  ConstraintErrors errors;
  if (!arn) errors.AddNull("resourceArn");
  CheckModelConstraints("DeleteResourcePolicy", ctx.request, &errors);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  std::string revision_id;
  DP_RETURN_IF_ERROR(DeleteResourcePolicy(ctx.db.writes(), ctx.context, *arn, expected, &revision_id));
  WriteRevision(revision_id, &ctx.response);
  return Status::OK();
}

}  // namespace dynapage
