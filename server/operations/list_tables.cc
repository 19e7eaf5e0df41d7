// ListTables: table names in ascending order, Limit 1..100, LastEvaluatedTableName only when names remain.

#include <algorithm>

#include "engine/read/page_chaos.h"
#include "server/operations/operation_table.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status HandleListTables(OperationContext& ctx) {
  RequestReader r(ctx.request);
  std::optional<std::string> start;
  std::optional<int64_t> limit;
  DP_RETURN_IF_ERROR(r.GetString("ExclusiveStartTableName", &start));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &limit));
  ConstraintErrors errors;
  errors.CheckTableName(start, "exclusiveStartTableName", false);
  errors.CheckMin(limit, "limit", 1);
  errors.CheckMax(limit, "limit", 100);
  DP_RETURN_IF_ERROR(errors.ToStatus());

  size_t page = static_cast<size_t>(limit.value_or(100));
  // Page chaos (docs/testing-pagination.md): a shorter page, or a LastEvaluatedTableName on the last name.
  const bool key_on_last = ChooseListTablesCut(ctx.context, &page);
  std::vector<std::string> names;
  bool more = false;
  ctx.db.catalog().ListTables(start.value_or(""), page, &names, &more);
  if (key_on_last) more = true;
  JsonWriter& w = ctx.response;
  w.StartObject();
  w.Key("TableNames");
  w.StartArray();
  for (const auto& name : names) w.String(name);
  w.EndArray();
  if (more && !names.empty()) {
    w.Key("LastEvaluatedTableName");
    w.String(names.back());
  }
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
