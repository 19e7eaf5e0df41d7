#include "server/operations/partiql_members.h"

#include "engine/model/attribute_value_json.h"
#include "engine/model/json_types.h"
#include "engine/partiql/partiql_parser.h"

namespace dynapage {

Status ReadPartiqlStatementMembers(const rapidjson::Value& object, const std::string& path_prefix,
                                   ConstraintErrors* errors, PartiqlStatementRequest* out) {
  DP_RETURN_IF_ERROR(CheckJsonObject(object));
  RequestReader r(object);
  std::optional<std::string> statement, return_on_failure;
  std::optional<bool> consistent;
  DP_RETURN_IF_ERROR(r.GetString("Statement", &statement));
  const rapidjson::Value* parameters = r.Get("Parameters");
  if (parameters) {
    DP_RETURN_IF_ERROR(CheckJsonList(*parameters));
    for (const auto& v : parameters->GetArray()) {
      out->parameters.emplace_back();
      DP_RETURN_IF_ERROR(DecodeAttributeValue(v, &out->parameters.back()));
    }
  }
  DP_RETURN_IF_ERROR(r.GetBoolean("ConsistentRead", &consistent));
  DP_RETURN_IF_ERROR(r.GetString("ReturnValuesOnConditionCheckFailure", &return_on_failure));

  const std::string path = path_prefix + "statement";
  if (!statement) {
    errors->AddNull(path);
  } else if (statement->empty()) {
    errors->Add(*statement, path, "Member must have length greater than or equal to 1");
  } else if (statement->size() > 8192) {
    errors->Add(*statement, path, "Member must have length less than or equal to 8192");
  }
  if (parameters && out->parameters.empty()) {
    errors->Add("[]", path_prefix + "parameters", "Member must have length greater than or equal to 1");
  }
  errors->CheckEnum(return_on_failure, path_prefix + "returnValuesOnConditionCheckFailure", {"ALL_OLD", "NONE"});
  out->statement = statement.value_or("");
  out->consistent_read = consistent.value_or(false);
  out->return_old_item_on_failure = return_on_failure && *return_on_failure == "ALL_OLD";
  return Status::OK();
}

namespace {

// The table and index a PartiQL statement reads or writes ("t" of FROM "t"."i", INSERT INTO "t", UPDATE "t",
// DELETE FROM "t"), found by the PartiQL parser; a statement that does not parse names none.
void TargetOfStatement(std::string_view statement, std::string* table, std::string* index) {
  PartiqlStatement parsed;
  if (statement.empty() || !ParsePartiql(statement, &parsed).ok()) return;
  *table = std::move(parsed.table);
  *index = parsed.index.value_or("");
}

}  // namespace

void AddStatementTargets(const rapidjson::Value& body, RequestTargets* targets) {
  TargetOfStatement(TextMember(body, "Statement"), &targets->statement_table, &targets->statement_index);
  if (!targets->statement_table.empty()) targets->tables.push_back(targets->statement_table);
  if (targets->index.empty()) targets->index = targets->statement_index;
  for (const char* list_member : {"Statements", "TransactStatements"}) {
    auto list = body.FindMember(list_member);
    if (list == body.MemberEnd() || !list->value.IsArray()) continue;
    for (const auto& entry : list->value.GetArray()) {
      std::string table, index;
      TargetOfStatement(TextMember(entry, "Statement"), &table, &index);
      if (!table.empty()) targets->tables.push_back(std::move(table));
      if (!index.empty()) targets->indexes.push_back(std::move(index));
    }
  }
}

}  // namespace dynapage
