#include "engine/write/resource_policies.h"

#include <rapidjson/document.h>

#include <functional>
#include <map>
#include <memory>
#include <set>

#include "engine/base/messages.h"

namespace dynapage {

namespace {

// What a policy ARN names: a table ("arn:aws:dynamodb:<region>:<account>:table/<name>") or its stream (…
// "/stream/<label>"). The region and account are the caller's namespace's, as in every ARN lookup.
struct PolicyResource {
  std::string table_name;
  std::string key;  // in TableSettings::resource_policies: "" for the table, "stream/<label>" for its stream
};

Status ParsePolicyArn(const std::string& arn, PolicyResource* out) {
  const std::string prefix = "arn:aws:dynamodb:";
  size_t table = arn.find(":table/");
  if (arn.compare(0, prefix.size(), prefix) != 0 || table == std::string::npos) {
    return Status::Validation("Invalid ResourceArn provided as input " + arn);
  }
  std::string rest = arn.substr(table + 7);
  size_t slash = rest.find('/');
  out->table_name = rest.substr(0, slash);
  if (slash == std::string::npos) return Status::OK();
  std::string sub = rest.substr(slash + 1);
  if (sub.compare(0, 7, "stream/") == 0 && sub.size() > 7 && sub.find('/', 7) == std::string::npos) {
    out->key = sub;
    return Status::OK();
  }
  // An index ARN (or anything else under the table) carries no policy of its own.
  return Status::Validation("Invalid ResourceArn provided as input " + arn +
                            ": resource-based policies attach to tables and streams only");
}

// The table of the resource; for a stream, it must be the table's latest stream.
Status FindResource(const Catalog& catalog, const std::string& arn, PolicyResource* resource,
                    std::shared_ptr<const TableDefinition>* table) {
  DP_RETURN_IF_ERROR(ParsePolicyArn(arn, resource));
  *table = catalog.FindTable(resource->table_name);
  if (!*table) return Status::NotFound("Requested resource not found: Table: " + resource->table_name + " not found");
  if (!resource->key.empty() && resource->key != "stream/" + (*table)->latest_stream_label) {
    return Status::NotFound("Requested resource not found: Stream: " + arn + " not found");
  }
  return Status::OK();
}

Status PolicyNotFound(const std::string& arn, const std::string& why) {
  return Status::Error(ErrorCode::kPolicyNotFound,
                       "Resource-based policy not found for the provided ResourceArn: " + (why.empty() ? arn : why));
}

// The ExpectedRevisionId check of Put and Delete against the current policy (nullptr: none).
Status CheckExpectedRevision(const std::string& arn, const std::string& table_name, const ResourcePolicy* current,
                             const std::optional<std::string>& expected) {
  if (!expected) return Status::OK();
  if (*expected == kNoPolicyRevision) {
    if (!current) return Status::OK();
    return PolicyNotFound(arn, "Requested policy update expecting none to be present for table " + table_name +
                                   ", but a policy exists with revision id " + current->revision_id + ".");
  }
  if (!current) return PolicyNotFound(arn, "");
  if (current->revision_id == *expected) return Status::OK();
  return PolicyNotFound(arn, "Requested update for policy with revision id " + *expected +
                                 ", but the policy associated to target table " + table_name + " has revision id " +
                                 current->revision_id + ".");
}

bool SameDocument(const std::string& a, const std::string& b) {
  rapidjson::Document da, db;
  da.Parse(a.data(), a.size());
  db.Parse(b.data(), b.size());
  return !da.HasParseError() && !db.HasParseError() && da == db;
}

// True if the statement's Action (a string or a list) names dynamodb:PutResourcePolicy or a wildcard covering it.
bool ActionsCoverPut(const rapidjson::Value& action) {
  auto covers = [](const rapidjson::Value& a) {
    if (!a.IsString()) return false;
    std::string s = a.GetString();
    return s == "*" || s == "dynamodb:*" || s == "dynamodb:PutResourcePolicy";
  };
  if (action.IsArray()) {
    for (const auto& a : action.GetArray()) {
      if (covers(a)) return true;
    }
    return false;
  }
  return covers(action);
}
}  // namespace

namespace {
Status InvalidPolicy(const std::string& why) { return Status::Validation("Invalid policy document: " + why); }

// "arn:aws:dynamodb:<region>:<account>:" of arn: what every DynamoDB Resource of its policy starts with.
std::string ArnScope(const std::string& arn) {
  size_t end = 0;
  for (int colons = 0; colons < 5 && end != std::string::npos; colons++) end = arn.find(':', end + (colons > 0));
  return end == std::string::npos ? arn : arn.substr(0, end + 1);
}

// Calls fn on value's strings: value itself, or each string of an array.
template <typename Fn>
Status ForEachString(const rapidjson::Value& value, const char* member, Fn fn) {
  if (value.IsString()) return fn(std::string(value.GetString(), value.GetStringLength()));
  if (!value.IsArray()) return InvalidPolicy(std::string(member) + " must be a string or a list of strings");
  for (const auto& v : value.GetArray()) {
    if (!v.IsString()) return InvalidPolicy(std::string(member) + " must be a string or a list of strings");
    DP_RETURN_IF_ERROR(fn(std::string(v.GetString(), v.GetStringLength())));
  }
  return Status::OK();
}

// Whether a statement's Principal is everyone: "*", or {"AWS": "*"} (or a list holding "*").
bool EveryPrincipal(const rapidjson::Value& principal) {
  if (principal.IsString()) return std::string(principal.GetString()) == "*";
  if (!principal.IsObject()) return false;
  for (auto it = principal.MemberBegin(); it != principal.MemberEnd(); ++it) {
    if (it->value.IsString() && std::string(it->value.GetString()) == "*") return true;
    if (!it->value.IsArray()) continue;
    for (const auto& v : it->value.GetArray()) {
      if (v.IsString() && std::string(v.GetString()) == "*") return true;
    }
  }
  return false;
}

Status CheckStatement(const rapidjson::Value& statement, const std::string& scope, std::set<std::string>* sids) {
  if (!statement.IsObject()) return InvalidPolicy("each Statement must be a JSON object");
  auto sid = statement.FindMember("Sid");
  if (sid != statement.MemberEnd()) {
    if (!sid->value.IsString()) return InvalidPolicy("Sid must be a string");
    if (!sids->insert(sid->value.GetString()).second) {
      return InvalidPolicy("Statement IDs (SID) in a single policy must be unique: " +
                           std::string(sid->value.GetString()));
    }
  }
  auto effect = statement.FindMember("Effect");
  auto principal = statement.FindMember("Principal");
  const bool allows =
      effect != statement.MemberEnd() && effect->value.IsString() && std::string(effect->value.GetString()) == "Allow";
  if (allows && principal != statement.MemberEnd() && EveryPrincipal(principal->value)) {
    return InvalidPolicy("a statement allows access to every principal (\"*\"): public access is blocked");
  }
  auto resource = statement.FindMember("Resource");
  if (resource == statement.MemberEnd()) return Status::OK();
  return ForEachString(resource->value, "Resource", [&](const std::string& arn) {
    if (arn.rfind("arn:aws:dynamodb:", 0) != 0) return Status::OK();  // "*" and other services' ARNs
    if (arn.compare(0, scope.size(), scope) != 0) {
      return InvalidPolicy("Resource " + arn + " is not in the account and region of the policy's resource");
    }
    if (arn.find("/index/") != std::string::npos) {
      return InvalidPolicy("Resource " + arn + " is an index: policies apply to tables and streams");
    }
    return Status::OK();
  });
}
}  // namespace

Status CheckResourcePolicyDocument(const std::string& document, const std::string& resource_arn,
                                   bool confirm_remove_self) {
  if (document.size() > kMaxResourcePolicyBytes) {
    return Status::Validation("Policy document size " + std::to_string(document.size()) +
                              " exceeds the maximum allowed size of " + std::to_string(kMaxResourcePolicyBytes) +
                              " bytes");
  }
  rapidjson::Document d;
  d.Parse(document.data(), document.size());
  if (d.HasParseError() || !d.IsObject()) return Status::Validation("Invalid policy document: not a JSON object");
  auto statements = d.FindMember("Statement");
  if (statements == d.MemberEnd()) return Status::Validation("Invalid policy document: Statement is missing");
  std::set<std::string> sids;
  const std::string scope = ArnScope(resource_arn);
  if (statements->value.IsArray()) {
    for (const auto& statement : statements->value.GetArray()) {
      DP_RETURN_IF_ERROR(CheckStatement(statement, scope, &sids));
    }
  } else {
    DP_RETURN_IF_ERROR(CheckStatement(statements->value, scope, &sids));
  }
  if (confirm_remove_self) return Status::OK();
  auto denies_put = [](const rapidjson::Value& s) {
    if (!s.IsObject() || !s.HasMember("Effect") || !s["Effect"].IsString()) return false;
    return std::string(s["Effect"].GetString()) == "Deny" && s.HasMember("Action") && ActionsCoverPut(s["Action"]);
  };
  bool denies = statements->value.IsArray() ? false : denies_put(statements->value);
  if (statements->value.IsArray()) {
    for (const auto& s : statements->value.GetArray()) denies |= denies_put(s);
  }
  if (denies) {
    return Status::Validation(
        "The policy would deny the caller dynamodb:PutResourcePolicy on this resource: set "
        "ConfirmRemoveSelfResourceAccess to true to confirm");
  }
  return Status::OK();
}

namespace {
using PolicyChange = std::function<void(const std::string& key, std::map<std::string, ResourcePolicy>* policies)>;

// Checks expected_revision_id against the resource's current policy, then runs change on the table's policies,
// under the writer lock.
Status ChangePolicy(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                    const std::optional<std::string>& expected_revision_id, const PolicyChange& change) {
  PolicyResource resource;
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(FindResource(write_path.catalog(), arn, &resource, &table));
  TableDescription before, after;
  return write_path.ChangeTable(
      ctx, resource.table_name,
      [&](const TableDefinition& current, TableDefinition* next) {
        auto& policies = next->settings.resource_policies;
        auto found = policies.find(resource.key);
        const ResourcePolicy* existing = found == policies.end() ? nullptr : &found->second;
        DP_RETURN_IF_ERROR(CheckExpectedRevision(arn, current.name, existing, expected_revision_id));
        change(resource.key, &policies);
        return Status::OK();
      },
      &before, &after);
}
}  // namespace

Status PutResourcePolicy(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                         const std::string& document, const std::optional<std::string>& expected_revision_id,
                         bool confirm_remove_self, std::string* revision_id) {
  DP_RETURN_IF_ERROR(CheckResourcePolicyDocument(document, arn, confirm_remove_self));
  const std::string now_ms = std::to_string(static_cast<int64_t>(ctx.clock->NowSeconds() * 1000));
  return ChangePolicy(write_path, ctx, arn, expected_revision_id,
                      [&](const std::string& key, std::map<std::string, ResourcePolicy>* policies) {
                        auto found = policies->find(key);
                        if (found != policies->end() && SameDocument(found->second.document, document)) {
                          *revision_id = found->second.revision_id;  // an equivalent document keeps its revision
                          return;
                        }
                        (*policies)[key] = {document, now_ms};
                        *revision_id = now_ms;
                      });
}

Status GetResourcePolicy(const Catalog& catalog, const std::string& arn, ResourcePolicy* policy) {
  PolicyResource resource;
  std::shared_ptr<const TableDefinition> table;
  DP_RETURN_IF_ERROR(FindResource(catalog, arn, &resource, &table));
  auto found = table->settings.resource_policies.find(resource.key);
  if (found == table->settings.resource_policies.end()) return PolicyNotFound(arn, "");
  *policy = found->second;
  return Status::OK();
}

Status DeleteResourcePolicy(WritePath& write_path, const RequestContext& ctx, const std::string& arn,
                            const std::optional<std::string>& expected_revision_id, std::string* revision_id) {
  revision_id->clear();
  return ChangePolicy(write_path, ctx, arn, expected_revision_id,
                      [&](const std::string& key, std::map<std::string, ResourcePolicy>* policies) {
                        auto found = policies->find(key);
                        if (found == policies->end()) return;
                        *revision_id = found->second.revision_id;
                        policies->erase(found);
                      });
}

}  // namespace dynapage
