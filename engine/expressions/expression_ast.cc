#include "engine/expressions/expression_ast.h"

namespace dynapage {

const char* ComparatorText(Comparator c) {
  switch (c) {
    case Comparator::kEq: return "=";
    case Comparator::kNe: return "<>";
    case Comparator::kLt: return "<";
    case Comparator::kLe: return "<=";
    case Comparator::kGt: return ">";
    case Comparator::kGe: return ">=";
  }
  return "?";
}

void CollectConditionPaths(const ConditionExpr& condition, std::vector<DocumentPath>* paths) {
  for (const auto& child : condition.children) CollectConditionPaths(*child, paths);
  for (const Operand& op : condition.operands) {
    if (!op.path.empty()) paths->push_back(op.path);
  }
}

void CollectUpdateTargets(const UpdateExpr& update, std::vector<DocumentPath>* paths) {
  for (const SetAction& a : update.set_actions) paths->push_back(a.path);
  for (const DocumentPath& p : update.remove_actions) paths->push_back(p);
  for (const AddAction& a : update.add_actions) paths->push_back(a.path);
  for (const DeleteAction& a : update.delete_actions) paths->push_back(a.path);
}

}  // namespace dynapage
