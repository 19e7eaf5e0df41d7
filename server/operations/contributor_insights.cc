// DescribeContributorInsights, UpdateContributorInsights and ListContributorInsights: the Contributor Insights
// status of a table and its GSIs (engine/write/contributor_insights.h). No CloudWatch rules exist locally; the
// rule names an ENABLED resource lists are DynamoDB's pattern.

#include <cstdlib>

#include "engine/write/contributor_insights.h"
#include "server/operations/operation_table.h"
#include "server/protocol/model_constraints.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

namespace {
void WriteNames(const InsightsView& v, JsonWriter* w) {
  w->Key("TableName");
  w->String(v.table_name);
  if (!v.index_name.empty()) {
    w->Key("IndexName");
    w->String(v.index_name);
  }
}

// TableName and IndexName with their constraints.
Status ReadNames(const RequestReader& r, std::optional<std::string>* table, std::optional<std::string>* index,
                 ConstraintErrors* errors) {
  DP_RETURN_IF_ERROR(r.GetString("TableName", table));
  DP_RETURN_IF_ERROR(r.GetString("IndexName", index));
  errors->CheckTableNameOrArn(*table, "tableName");
  errors->CheckTableName(*index, "indexName", false);
  return Status::OK();
}
}  // namespace

Status HandleDescribeContributorInsights(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table, index;
  ConstraintErrors errors;
  DP_RETURN_IF_ERROR(ReadNames(r, &table, &index, &errors));
  DP_RETURN_IF_ERROR(errors.ToStatus());
  InsightsView v;
  DP_RETURN_IF_ERROR(DescribeContributorInsights(ctx.db.catalog(), ctx.context, *table, index.value_or(""), &v));
  JsonWriter& w = ctx.response;
  w.StartObject();
  WriteNames(v, &w);
  if (v.status == "ENABLED") {
    // DynamoDB's rule names: one per key kind the mode watches, with the key kinds of the table or index.
    const auto table_def = ctx.db.catalog().FindTable(v.table_name);
    const IndexDefinition* index_def = v.index_name.empty() ? nullptr : table_def->FindIndex(v.index_name);
    const bool has_sort_key = index_def ? index_def->key.range.has_value() : table_def->key.range.has_value();
    const std::string resource = v.table_name + (v.index_name.empty() ? "" : "-" + v.index_name);
    const std::string stamp = std::to_string(static_cast<int64_t>(v.settings.updated_time * 1000));
    const bool accessed = v.settings.mode != "THROTTLED_KEYS";
    w.Key("ContributorInsightsRuleList");
    w.StartArray();
    for (const char* kind : {"PKC", "PKT", "SKC", "SKT"}) {
      if ((kind[0] == 'S' && !has_sort_key) || (kind[2] == 'C' && !accessed)) continue;
      w.String(std::string("DynamoDBContributorInsights-") + kind + "-" + resource + "-" + stamp);
    }
    w.EndArray();
  }
  w.Key("ContributorInsightsStatus");
  w.String(v.status);
  if (v.settings.updated_time > 0) {
    w.Key("LastUpdateDateTime");
    w.Double(v.settings.updated_time);
    if (!v.settings.mode.empty()) {
      w.Key("ContributorInsightsMode");
      w.String(v.settings.mode);
    }
  }
  w.EndObject();
  return Status::OK();
}

Status HandleUpdateContributorInsights(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table, index, action, mode;
  ConstraintErrors errors;
  DP_RETURN_IF_ERROR(ReadNames(r, &table, &index, &errors));
  DP_RETURN_IF_ERROR(r.GetString("ContributorInsightsAction", &action));
  DP_RETURN_IF_ERROR(r.GetString("ContributorInsightsMode", &mode));
  if (!action) errors.AddNull("contributorInsightsAction");
  errors.CheckEnum(action, "contributorInsightsAction", {"ENABLE", "DISABLE"});
  errors.CheckEnum(mode, "contributorInsightsMode", {"ACCESSED_AND_THROTTLED_KEYS", "THROTTLED_KEYS"});
  DP_RETURN_IF_ERROR(errors.ToStatus());
  InsightsView v;
  DP_RETURN_IF_ERROR(UpdateContributorInsights(ctx.db.writes(), ctx.context, *table, index.value_or(""),
                                               *action == "ENABLE", mode.value_or(""), &v));
  JsonWriter& w = ctx.response;
  w.StartObject();
  WriteNames(v, &w);
  w.Key("ContributorInsightsStatus");
  w.String(v.status);
  if (v.settings.enabled) {
    w.Key("ContributorInsightsMode");
    w.String(v.settings.mode);
  }
  w.EndObject();
  return Status::OK();
}

Status HandleListContributorInsights(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> table, next_token;
  std::optional<int64_t> max_results;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table));
  DP_RETURN_IF_ERROR(r.GetString("NextToken", &next_token));
  DP_RETURN_IF_ERROR(r.GetInteger("MaxResults", &max_results));
  ConstraintErrors errors;
  if (table) errors.CheckTableNameOrArn(table, "tableName");
  errors.CheckMax(max_results, "maxResults", 100);
  DP_RETURN_IF_ERROR(errors.ToStatus());
  std::vector<InsightsView> views;
  DP_RETURN_IF_ERROR(ListContributorInsights(ctx.db.catalog(), ctx.context, table.value_or(""), &views));
  // NextToken: the position of the next entry, as decimal text (an unknown token starts at the beginning).
  size_t from = 0;
  if (next_token) from = std::strtoull(next_token->c_str(), nullptr, 10);
  const size_t page = max_results && *max_results > 0 ? static_cast<size_t>(*max_results) : 100;
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("ContributorInsightsSummaries");
  w.StartArray();
  for (size_t i = from; i < views.size() && i < from + page; i++) {
    w.StartObject();
    WriteNames(views[i], &w);
    w.Key("ContributorInsightsStatus");
    w.String(views[i].status);
    w.Key("ContributorInsightsMode");
    w.String(views[i].settings.mode);
    w.EndObject();
  }
  w.EndArray();
  if (from + page < views.size()) {
    w.Key("NextToken");
    w.String(std::to_string(from + page));
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
