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
                  const std::function<void(std::map<std::string, std::string>*)>& change) {
  std::string name;
  DP_RETURN_IF_ERROR(FindTableByArn(write_path.catalog(), arn, &name));
  TableDescription before, after;
  return write_path.ChangeTable(ctx, 
      name,
      [&change](const TableDefinition& current, TableDefinition* next) {
        change(&next->tags);
        return Status::OK();
      },
      &before, &after);
}

}  // namespace

Status TagResource(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                   const std::vector<std::pair<std::string, std::string>>& tags) {
  DP_RETURN_IF_ERROR(CheckArn(arn));
  if (tags.empty()) return Status::Validation("Atleast one Tag needs to be provided as Input.");
  return ChangeTags(write_path, ctx, arn, [&tags](std::map<std::string, std::string>* current) {
    for (const auto& [key, value] : tags) (*current)[key] = value;
  });
}

Status UntagResource(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                     const std::vector<std::string>& keys) {
  DP_RETURN_IF_ERROR(CheckArn(arn));
  if (keys.empty()) return Status::Validation("Atleast one Tag Key needs to be provided as Input.");
  return ChangeTags(write_path, ctx, arn, [&keys](std::map<std::string, std::string>* current) {
    for (const std::string& key : keys) current->erase(key);
  });
}

Status ListTagsOfResource(const Catalog& catalog, const std::string& arn, std::map<std::string, std::string>* tags) {
  DP_RETURN_IF_ERROR(CheckArn(arn));
  std::string name;
  DP_RETURN_IF_ERROR(FindTableByArn(catalog, arn, &name));
  auto table = catalog.FindTable(name);
  if (!table) return Status::NotFound("Requested resource not found: ResourcArn: " + arn + " not found");
  *tags = table->tags;
  return Status::OK();
}

}  // namespace dynapage
