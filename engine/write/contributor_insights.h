// Contributor Insights of a table or GSI (DescribeContributorInsights, UpdateContributorInsights,
// ListContributorInsights), kept in its settings (docs/control-plane.md). State only: no CloudWatch rules exist.
//
// ENABLE moves DISABLED → ENABLING → ENABLED and DISABLE back through DISABLING; the transitional status lasts for
// the context's transient-status delay (none by default: the next Describe shows the settled one). Repeating the
// settled action changes nothing and answers the settled status; ENABLE with another mode re-enables.

#ifndef DYNAPAGE_ENGINE_WRITE_CONTRIBUTOR_INSIGHTS_H_
#define DYNAPAGE_ENGINE_WRITE_CONTRIBUTOR_INSIGHTS_H_

#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/write/write_path.h"

namespace dynapage {

// The mode ENABLE gets when none is sent.
inline constexpr char kDefaultInsightsMode[] = "ACCESSED_AND_THROTTLED_KEYS";

struct InsightsView {
  std::string table_name;
  std::string index_name;  // empty: the table
  std::string status;      // ENABLING, ENABLED, DISABLING or DISABLED
  ContributorInsights settings;
};

// index_name empty: the table. ResourceNotFoundException for a missing table or an index that is no GSI of it.
Status DescribeContributorInsights(const Catalog& catalog, const RequestContext& ctx, const std::string& table_name,
                                   const std::string& index_name, InsightsView* view);
// enable: ENABLE (with mode, empty for the default), else DISABLE. *view: the status the answer shows.
Status UpdateContributorInsights(WritePath& write_path, const RequestContext& ctx, const std::string& table_name,
                                 const std::string& index_name, bool enable, const std::string& mode,
                                 InsightsView* view);
// Every table's (or table_name's only) table and GSIs not DISABLED, each table before its GSIs, in table order.
Status ListContributorInsights(const Catalog& catalog, const RequestContext& ctx, const std::string& table_name,
                               std::vector<InsightsView>* views);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_CONTRIBUTOR_INSIGHTS_H_
