// Tags: TagResource, UntagResource and ListTagsOfResource, on a table named by its ARN; the tags are kept in its
// TableDefinition.
//
// Refusals, in this order (dynalite's wording, which follows DynamoDB's): a ResourceArn that is no ARN at all
// (CheckArnShape, before the request's other members are checked) is AccessDeniedException; one that is not a table ARN
// (arn:aws:dynamodb:<region>:<account>:table/<name>) is ValidationException "Invalid TableArn: Invalid
// ResourceArn provided as input <arn>"; an empty tag list "Atleast one Tag needs to be provided as Input." and an
// empty key list "Atleast one Tag Key needs to be provided as Input." (sic); an ARN naming no table is
// ResourceNotFoundException "Requested resource not found: ResourcArn: <arn> not found" (sic) for TagResource and
// UntagResource, and AccessDeniedException for ListTagsOfResource (as for no ARN; found by third-party suites). An
// ARN of another service ("arn:aws:s3:::bucket") is never AccessDenied: it is not a table ARN. (A missing
// ResourceArn, "Invalid TableArn", is the server's to report.)

#ifndef DYNAPAGE_ENGINE_WRITE_TAGS_H_
#define DYNAPAGE_ENGINE_WRITE_TAGS_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/write/write_path.h"

namespace dynapage {

// A table has at most this many tags.
constexpr size_t kMaxTagsPerTable = 50;

// The rules of a table's whole set of tags (TagResource's result, CreateTable's Tags): at most kMaxTagsPerTable,
// and no key starting "aws:" (AWS's own prefix). ValidationException otherwise.
Status CheckTagSet(const std::map<std::string, std::string>& tags);

// Adds or overwrites tags (a later duplicate key wins).
Status TagResource(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                   const std::vector<std::pair<std::string, std::string>>& tags);
// Removes the keys present; absent keys are ignored.
Status UntagResource(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                     const std::vector<std::string>& keys);
// The tags, by key.
Status ListTagsOfResource(const Catalog& catalog, const RequestContext& ctx, const std::string& arn,
                          std::map<std::string, std::string>* tags);

// OK if arn is empty (the length constraint's to refuse), names another service than DynamoDB ("arn:<partition>:
// <service>:", the table ARN check's to refuse) or has the shape of an ARN (six non-empty ':'-separated parts, the
// last holding a '/' with text on both sides); else DynamoDB's AccessDeniedException: "User:
// arn:aws:iam::<account>:root is not authorized to perform: dynamodb:<operation> on resource: <arn>" (IAM finds no
// resource to authorize against).
Status CheckArnShape(const RequestContext& ctx, const char* operation, const std::string& arn);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_TAGS_H_
