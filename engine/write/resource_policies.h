// Resource-based policies (PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy, CreateTable's
// ResourcePolicy) of a table or of its stream, kept in the table's settings (docs/control-plane.md).
//
// Stored and returned, never enforced: dynapage checks no signatures and so has no principal to enforce them
// against. A policy is JSON of at most 20 KB (whitespace counts); its RevisionId is the time of the change in epoch
// milliseconds, and a Put of an equivalent document (same JSON, whatever the whitespace or member order) keeps it.
// Errors are DynamoDB's: PolicyNotFoundException for a missing policy or a revision that does not match,
// ResourceNotFoundException for a missing table. DeleteTable drops the table's policies with it.

#ifndef DYNAPAGE_ENGINE_WRITE_RESOURCE_POLICIES_H_
#define DYNAPAGE_ENGINE_WRITE_RESOURCE_POLICIES_H_

#include <optional>
#include <string>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/write/write_path.h"

namespace dynapage {

// The largest policy document, in bytes.
constexpr size_t kMaxResourcePolicyBytes = 20480;
// ExpectedRevisionId's value for "no policy yet".
inline constexpr char kNoPolicyRevision[] = "NO_POLICY";

// ValidationException unless document is a JSON object of at most kMaxResourcePolicyBytes whose statements are
// objects with unique Sids, that allow nothing to every principal ("*": public access), and whose DynamoDB
// Resources are in resource_arn's account and region and name no index; one that denies
// dynamodb:PutResourcePolicy needs confirm_remove_self (ConfirmRemoveSelfResourceAccess).
Status CheckResourcePolicyDocument(const std::string& document, const std::string& resource_arn,
                                   bool confirm_remove_self);

// Attaches document to the table or stream named by arn. *revision_id: the policy's revision after the Put.
Status PutResourcePolicy(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                         const std::string& document, const std::optional<std::string>& expected_revision_id,
                         bool confirm_remove_self, std::string* revision_id);
// The policy of the table or stream named by arn.
Status GetResourcePolicy(const Catalog& catalog, const std::string& arn, ResourcePolicy* policy);
// Removes the policy; *revision_id: the removed policy's revision, empty when there was none (not an error
// without expected_revision_id).
Status DeleteResourcePolicy(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                            const std::optional<std::string>& expected_revision_id, std::string* revision_id);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_RESOURCE_POLICIES_H_
