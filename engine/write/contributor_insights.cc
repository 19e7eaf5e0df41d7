#include "engine/write/contributor_insights.h"

#include <limits>

#include "engine/write/table_settings.h"

namespace dynapage {

namespace {

// The table's or GSI's settings; ResourceNotFoundException for an index that is no GSI of the table.
Status FindInsights(const TableDefinition& table, const std::string& index_name, const ContributorInsights** out) {
  if (index_name.empty()) {
    *out = &table.settings.capacity.insights;
    return Status::OK();
  }
  const IndexDefinition* index = table.FindIndex(index_name);
  if (!index || !index->global) {
    return Status::NotFound("Requested resource not found: Index: " + index_name +
                            " not found for table: " + table.name);
  }
  *out = &index->settings.insights;
  return Status::OK();
}

// The same settings, to change. REQUIRES: FindInsights found them.
ContributorInsights* MutableInsights(const std::string& index_name, TableDefinition* table) {
  for (auto& index : table->indexes) {
    if (!index_name.empty() && index.global && index.name == index_name) return &index.settings.insights;
  }
  return &table->settings.capacity.insights;
}

InsightsView View(const RequestContext& ctx, const TableDefinition& table, const std::string& index_name,
                  const ContributorInsights& settings) {
  InsightsView view{table.name, index_name, "", settings};
  const bool settling = settings.updated_time > 0 && StillSettling(ctx, settings.updated_time);
  view.status = settings.enabled ? (settling ? "ENABLING" : "ENABLED") : (settling ? "DISABLING" : "DISABLED");
  return view;
}
}  // namespace

Status DescribeContributorInsights(const Catalog& catalog, const RequestContext& ctx, const std::string& table_name,
                                   const std::string& index_name, InsightsView* view) {
  auto table = catalog.FindTable(table_name);
  if (!table) return Status::NotFound("Requested resource not found: Table: " + table_name + " not found");
  const ContributorInsights* settings = nullptr;
  DP_RETURN_IF_ERROR(FindInsights(*table, index_name, &settings));
  *view = View(ctx, *table, index_name, *settings);
  return Status::OK();
}

Status UpdateContributorInsights(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                                 const std::string& index_name, bool enable, const std::string& mode,
                                 InsightsView* view) {
  const double now = ctx.clock->NowSeconds();
  const std::string wanted_mode = enable ? (mode.empty() ? kDefaultInsightsMode : mode) : "";
  bool changed = false;
  TableDescription before, after;
  DP_RETURN_IF_ERROR(write_path.ChangeTable(
      ctx, table_name,
      [&](const TableDefinition&, TableDefinition* next) {
        const ContributorInsights* found = nullptr;
        DP_RETURN_IF_ERROR(FindInsights(*next, index_name, &found));
        ContributorInsights* settings = MutableInsights(index_name, next);
        if (settings->enabled == enable && (!enable || settings->mode == wanted_mode)) return Status::OK();
        settings->enabled = enable;
        if (enable) settings->mode = wanted_mode;
        settings->updated_time = now;
        changed = true;
        return Status::OK();
      },
      &before, &after));
  const ContributorInsights* settings = nullptr;
  DP_RETURN_IF_ERROR(FindInsights(*after.definition, index_name, &settings));
  *view = View(ctx, *after.definition, index_name, *settings);
  if (changed) view->status = enable ? "ENABLING" : "DISABLING";  // the answer to a change is transitional
  return Status::OK();
}

Status ListContributorInsights(const Catalog& catalog, const RequestContext& ctx, const std::string& table_name,
                               std::vector<InsightsView>* views) {
  std::vector<std::string> names;
  if (!table_name.empty()) {
    if (!catalog.FindTable(table_name)) {
      return Status::NotFound("Requested resource not found: Table: " + table_name + " not found");
    }
    names.push_back(table_name);
  } else {
    bool more = false;
    catalog.ListTables("", std::numeric_limits<size_t>::max(), &names, &more);
  }
  for (const std::string& name : names) {
    auto table = catalog.FindTable(name);
    if (!table) continue;
    auto add = [&](const std::string& index_name, const ContributorInsights& settings) {
      InsightsView view = View(ctx, *table, index_name, settings);
      if (view.status != "DISABLED") views->push_back(std::move(view));
    };
    add("", table->settings.capacity.insights);
    for (const auto& index : table->indexes) {
      if (index.global) add(index.name, index.settings.insights);
    }
  }
  return Status::OK();
}

}  // namespace dynapage
