#include "engine/write/time_to_live.h"

namespace dynapage {

Status DescribeTimeToLive(const Catalog& catalog, const std::string& table_name, std::string* attribute) {
  TableDescription description;
  DP_RETURN_IF_ERROR(catalog.DescribeTable(table_name, &description));
  *attribute = description.definition->ttl_attribute;
  return Status::OK();
}

Status UpdateTimeToLive(WritePath& write_path, const RequestContext& ctx, const std::string& table_name, bool enabled,
                        const std::string& attribute) {
  TableDescription before, after;
  return write_path.ChangeTable(ctx, 
      table_name,
      [enabled, &attribute](const TableDefinition& current, TableDefinition* next) {
        bool on = !current.ttl_attribute.empty();
        if (enabled && on) return Status::Validation("TimeToLive is already enabled");
        if (!enabled && !on) return Status::Validation("TimeToLive is already disabled");
        if (!enabled && attribute != current.ttl_attribute) {
          return Status::Validation("TimeToLive is active on a different AttributeName: current AttributeName is " +
                                    current.ttl_attribute);
        }
        next->ttl_attribute = enabled ? attribute : std::string();
        return Status::OK();
      },
      &before, &after);
}

}  // namespace dynapage
