#include "engine/write/tags.h"

#include <limits>
#include <regex>

namespace dynapage {

namespace {

Status CheckArn(const std::string& arn) {
  static const std::regex kTableArn(R"(^arn:aws:dynamodb:.+:\d+:table/[^/]{2}[^/]+$)");
  if (!std::regex_match(arn, kTableArn)) {
    return Status::Validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
  }
  return Status::OK();
}

// True if text matches ^.+:.+:.+:.+:.+:.+/.+$ (the shape dynalite records DynamoDB checking), in one pass: no
// regular expression, whose backtracking over seven ".+" could take time polynomial in the ARN's length.
bool HasArnShape(std::string_view text) {
  size_t slash = text.size() < 2 ? std::string_view::npos : text.rfind('/', text.size() - 2);
  if (slash == std::string_view::npos) return false;
  std::string_view parts = text.substr(0, slash);  // must be .+(:.+){5}; the earliest colons leave most room
  size_t from = 1;
  for (int colon = 0; colon < 5; colon++) {
    size_t at = from < parts.size() ? parts.find(':', from) : std::string_view::npos;
    if (at == std::string_view::npos) return false;
    from = at + 2;
  }
  return from <= parts.size();
}

// True for "arn:<partition>:<service>:…" with a service other than dynamodb.
bool IsOtherServiceArn(std::string_view arn) {
  if (arn.compare(0, 4, "arn:") != 0) return false;
  size_t partition_end = arn.find(':', 4);
  if (partition_end == std::string_view::npos || partition_end == 4) return false;
  size_t service_end = arn.find(':', partition_end + 1);
  if (service_end == std::string_view::npos || service_end == partition_end + 1) return false;
  return arn.substr(partition_end + 1, service_end - partition_end - 1) != "dynamodb";
}

// IAM's refusal of an operation on a resource it cannot find.
Status NotAuthorized(const RequestContext& ctx, const char* operation, const std::string& arn) {
  return Status::Error(ErrorCode::kAccessDenied, "User: arn:aws:iam::" + ctx.caller.account_id +
                                                     ":root is not authorized to perform: dynamodb:" + operation +
                                                     " on resource: " + arn);
}

// The name of the table whose ARN is arn.
Status FindTableByArn(const Catalog& catalog, const std::string& arn, std::string* name) {
  std::vector<std::string> names;
  bool more = false;
  catalog.ListTables("", std::numeric_limits<size_t>::max(), &names, &more);
  for (const std::string& n : names) {
    auto table = catalog.FindTable(n);
    if (table && table->arn == arn) {
      *name = n;
      return Status::OK();
    }
  }
  return Status::NotFound("Requested resource not found: ResourcArn: " + arn + " not found");
}

Status ChangeTags(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                  const std::function<Status(std::map<std::string, std::string>*)>& change) {
  std::string name;
  DP_RETURN_IF_ERROR(FindTableByArn(write_path.catalog(), arn, &name));
  TableDescription before, after;
  return write_path.ChangeTable(ctx, 
      name,
      [&change](const TableDefinition& current, TableDefinition* next) {
        DP_RETURN_IF_ERROR(change(&next->tags));
        return CheckTagSet(next->tags);
      },
      &before, &after);
}

}  // namespace

Status CheckTagSet(const std::map<std::string, std::string>& tags) {
  if (tags.size() > kMaxTagsPerTable) {
    return Status::Validation("Too many tags: a table can have at most " + std::to_string(kMaxTagsPerTable) +
                              " tags");
  }
  for (const auto& tag : tags) {
    if (tag.first.compare(0, 4, "aws:") == 0) {
      return Status::Validation("Tag keys starting with 'aws:' are reserved for AWS use: " + tag.first);
    }
  }
  return Status::OK();
}

Status CheckArnShape(const RequestContext& ctx, const char* operation, const std::string& arn) {
  // An empty ARN is the service model's length constraint to refuse (1 to 1,283 characters).
  if (arn.empty() || HasArnShape(arn) || IsOtherServiceArn(arn)) return Status::OK();
  return NotAuthorized(ctx, operation, arn);
}

Status TagResource(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                   const std::vector<std::pair<std::string, std::string>>& tags) {
  DP_RETURN_IF_ERROR(CheckArn(arn));
  if (tags.empty()) return Status::Validation("Atleast one Tag needs to be provided as Input.");
  return ChangeTags(write_path, ctx, arn, [&tags](std::map<std::string, std::string>* current) {
    for (const auto& [key, value] : tags) (*current)[key] = value;
    return Status::OK();
  });
}

Status UntagResource(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                     const std::vector<std::string>& keys) {
  DP_RETURN_IF_ERROR(CheckArn(arn));
  if (keys.empty()) return Status::Validation("Atleast one Tag Key needs to be provided as Input.");
  return ChangeTags(write_path, ctx, arn, [&keys](std::map<std::string, std::string>* current) {
    for (const std::string& key : keys) current->erase(key);
    return Status::OK();
  });
}

Status ListTagsOfResource(const Catalog& catalog, const RequestContext& ctx, const std::string& arn,
                          std::map<std::string, std::string>* tags) {
  DP_RETURN_IF_ERROR(CheckArn(arn));
  std::string name;
  if (!FindTableByArn(catalog, arn, &name).ok()) return NotAuthorized(ctx, "ListTagsOfResource", arn);
  auto table = catalog.FindTable(name);
  if (!table) return Status::NotFound("Requested resource not found: ResourcArn: " + arn + " not found");
  *tags = table->tags;
  return Status::OK();
}

}  // namespace dynapage
