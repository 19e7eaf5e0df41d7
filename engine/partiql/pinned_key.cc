#include "engine/partiql/pinned_key.h"

#include <memory>

#include "engine/base/messages.h"
#include "engine/partiql/partiql_expressions.h"
#include "engine/partiql/statement_projection.h"

namespace dynapage {

namespace {
constexpr char kKeyNotPinned[] = "Where clause does not contain a mandatory equality on all key attributes";
}  // namespace

Status PinnedKey(const KeySchema& schema, const PartiqlStatement& s, const std::vector<AttributeValue>& parameters,
                 AttributeMap* key, std::vector<const PartiqlCondition*>* rest) {
  std::vector<const PartiqlCondition*> conjuncts = Conjuncts(s.where.get());
  std::vector<std::string> names = {schema.hash.name};
  if (schema.range) names.push_back(schema.range->name);
  PartiqlExpressionBuilder values(parameters);
  std::vector<bool> used(conjuncts.size(), false);
  for (const std::string& name : names) {
    bool found = false;
    for (size_t i = 0; i < conjuncts.size() && !found; i++) {
      const PartiqlCondition& c = *conjuncts[i];
      if (used[i] || c.kind != PartiqlCondition::Kind::kCompare || !IsPurePin(c, name)) continue;
      const PartiqlOperand& value = c.operands[0].kind == PartiqlOperand::Kind::kPath ? c.operands[1] : c.operands[0];
      (*key)[name] = values.ValueOf(value);
      used[i] = true;
      found = true;
    }
    if (!found) return Status::Validation(kKeyNotPinned);
  }
  for (size_t i = 0; i < conjuncts.size(); i++) {
    if (!used[i]) rest->push_back(conjuncts[i]);
  }
  return Status::OK();
}

Status PrepareKeyRead(const Catalog& catalog, const PartiqlStatement& s, const std::vector<AttributeValue>& parameters,
                      bool* key_only, PartiqlKeyRead* out) {
  *key_only = false;
  std::shared_ptr<const TableDefinition> table = catalog.FindTable(s.table);
  if (!table) return Status::NotFound(kResourceNotFound);
  out->table_name = table->name;
  if (s.index) return Status::OK();
  std::vector<const PartiqlCondition*> rest;
  if (!PinnedKey(table->key, s, parameters, &out->key, &rest).ok() || !rest.empty()) return Status::OK();
  *key_only = true;
  if (!s.projection.empty() && !ProjectsNestedPaths(s.projection)) {
    PartiqlExpressionBuilder b(parameters);
    out->projection_expression = ProjectionText(&b, s.projection);
    out->inputs = b.TakeInputs();
  }
  return Status::OK();
}

}  // namespace dynapage
