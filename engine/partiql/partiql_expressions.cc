#include "engine/partiql/partiql_expressions.h"

#include <algorithm>

#include "engine/base/check.h"
#include "engine/expressions/expression_parser.h"

namespace dynapage {

std::string PartiqlExpressionBuilder::Name(const std::string& name) {
  auto it = name_of_.find(name);
  if (it != name_of_.end()) return it->second;
  std::string placeholder = "#n" + std::to_string(names_.size());
  names_.emplace(placeholder, name);
  name_of_.emplace(name, placeholder);
  return placeholder;
}

std::string PartiqlExpressionBuilder::Value(const AttributeValue& value) {
  std::string placeholder = ":v" + std::to_string(values_.size());
  values_.emplace(placeholder, value);
  return placeholder;
}

std::string PartiqlExpressionBuilder::Path(const DocumentPath& path) {
  return PartiqlPathText(path, [this](const std::string& name) { return Name(name); });
}

const AttributeValue& PartiqlExpressionBuilder::ValueOf(const PartiqlOperand& operand) const {
  DP_DCHECK(operand.kind == PartiqlOperand::Kind::kLiteral || operand.kind == PartiqlOperand::Kind::kParameter);
  return operand.kind == PartiqlOperand::Kind::kParameter ? parameters_[operand.parameter] : operand.value;
}

Status PartiqlExpressionBuilder::Operand(const PartiqlOperand& operand, std::string* out) {
  switch (operand.kind) {
    case PartiqlOperand::Kind::kPath:
      *out = Path(operand.path);
      break;
    case PartiqlOperand::Kind::kSize:
      *out = "size(" + Path(operand.path) + ")";
      break;
    case PartiqlOperand::Kind::kLiteral:
    case PartiqlOperand::Kind::kParameter:
      *out = Value(ValueOf(operand));
      break;
  }
  return Status::OK();
}

Status PartiqlExpressionBuilder::CheckOrdering(const char* op, const PartiqlOperand& operand) const {
  if (operand.kind != PartiqlOperand::Kind::kLiteral && operand.kind != PartiqlOperand::Kind::kParameter) {
    return Status::OK();
  }
  AttrType t = ValueOf(operand).type;
  if (t == AttrType::kS || t == AttrType::kN || t == AttrType::kB) return Status::OK();
  return Status::Validation(std::string("Incorrect operand type for operator or function; operator or function: ") +
                            op + ", operand type: " + AttrTypeName(t));
}

namespace {
bool IsCompound(const PartiqlCondition& c) {
  return c.kind == PartiqlCondition::Kind::kAnd || c.kind == PartiqlCondition::Kind::kOr;
}
}  // namespace

// Parentheses go around compound children only: DynamoDB refuses redundant ones. The parser bounds the depth.
Status PartiqlExpressionBuilder::Condition(const PartiqlCondition& c, std::string* out) {
  using Kind = PartiqlCondition::Kind;
  std::vector<std::string> parts;
  for (const PartiqlOperand& o : c.operands) {
    parts.emplace_back();
    DP_RETURN_IF_ERROR(Operand(o, &parts.back()));
  }
  switch (c.kind) {
    case Kind::kAnd:
    case Kind::kOr: {
      out->clear();
      for (const auto& child : c.children) {
        std::string text;
        DP_RETURN_IF_ERROR(Condition(*child, &text));
        if (!out->empty()) *out += c.kind == Kind::kAnd ? " AND " : " OR ";
        *out += IsCompound(*child) ? "(" + text + ")" : text;
      }
      return Status::OK();
    }
    case Kind::kNot: {
      std::string text;
      DP_RETURN_IF_ERROR(Condition(*c.children[0], &text));
      *out = "NOT (" + text + ")";
      return Status::OK();
    }
    case Kind::kCompare:
      if (c.comparator != Comparator::kEq && c.comparator != Comparator::kNe) {
        for (const PartiqlOperand& o : c.operands) DP_RETURN_IF_ERROR(CheckOrdering(ComparatorText(c.comparator), o));
      }
      *out = parts[0] + " " + ComparatorText(c.comparator) + " " + parts[1];
      return Status::OK();
    case Kind::kBetween:
      for (const PartiqlOperand& o : c.operands) DP_RETURN_IF_ERROR(CheckOrdering("BETWEEN", o));
      *out = parts[0] + " BETWEEN " + parts[1] + " AND " + parts[2];
      return Status::OK();
    case Kind::kIn: {
      *out = parts[0] + " IN (";
      for (size_t i = 1; i < parts.size(); i++) *out += (i > 1 ? ", " : "") + parts[i];
      *out += ")";
      return Status::OK();
    }
    case Kind::kIsMissing:
      *out = "attribute_not_exists(" + parts[0] + ")";
      return Status::OK();
    case Kind::kIsNull:
      *out = "attribute_type(" + parts[0] + ", " + Value(AttributeValue::String("NULL")) + ")";
      return Status::OK();
    case Kind::kFunction: {
      *out = c.function + "(";
      for (size_t i = 0; i < parts.size(); i++) *out += (i > 0 ? ", " : "") + parts[i];
      *out += ")";
      return Status::OK();
    }
  }
  return Status::OK();
}

namespace {

// Two target paths that overlap or conflict refuse the UPDATE with the UpdateExpression's reason, unprefixed: the
// targets in the order of the UpdateExpression made of them (SET, REMOVE, ADD, DELETE), as its check would.
Status CheckTargetsDisjoint(const PartiqlStatement& s) {
  std::vector<const DocumentPath*> targets;
  for (const PartiqlSetItem& item : s.set_items) {
    if (item.value.kind != PartiqlSetValue::Kind::kSetAdd && item.value.kind != PartiqlSetValue::Kind::kSetDelete) {
      targets.push_back(&item.path);
    }
  }
  for (const DocumentPath& p : s.remove_paths) targets.push_back(&p);
  for (PartiqlSetValue::Kind kind : {PartiqlSetValue::Kind::kSetAdd, PartiqlSetValue::Kind::kSetDelete}) {
    for (const PartiqlSetItem& item : s.set_items) {
      if (item.value.kind == kind) targets.push_back(&item.path);
    }
  }
  for (size_t j = 1; j < targets.size(); j++) {
    for (size_t i = 0; i < j; i++) {
      std::string clash = PathClashMessage(*targets[i], *targets[j]);
      if (!clash.empty()) return Status::Validation(std::move(clash));
    }
  }
  return Status::OK();
}

}  // namespace

Status PartiqlExpressionBuilder::CheckArithmetic(const PartiqlSetValue& value) const {
  if (value.kind != PartiqlSetValue::Kind::kPlus && value.kind != PartiqlSetValue::Kind::kMinus) return Status::OK();
  for (const PartiqlOperand* operand : {&value.first, &value.second}) {
    bool constant =
        operand->kind == PartiqlOperand::Kind::kLiteral || operand->kind == PartiqlOperand::Kind::kParameter;
    // PartiQL reports a constant that is no number as it reports an attribute that is none, when applied; the
    // UpdateExpression underneath would refuse it earlier, in its own words.
    if (constant && ValueOf(*operand).type != AttrType::kN) {
      return Status::Validation("An operand in the update expression has an incorrect data type");
    }
  }
  return Status::OK();
}

Status PartiqlExpressionBuilder::Update(const PartiqlStatement& s, std::string* out) {
  DP_RETURN_IF_ERROR(CheckTargetsDisjoint(s));
  for (const PartiqlSetItem& item : s.set_items) DP_RETURN_IF_ERROR(CheckArithmetic(item.value));
  std::vector<std::string> sets, adds, deletes, removes;
  for (const PartiqlSetItem& item : s.set_items) {
    const PartiqlSetValue& v = item.value;
    std::string target = Path(item.path), first, second;
    DP_RETURN_IF_ERROR(Operand(v.first, &first));
    if (v.kind != PartiqlSetValue::Kind::kOperand) DP_RETURN_IF_ERROR(Operand(v.second, &second));
    switch (v.kind) {
      case PartiqlSetValue::Kind::kOperand:
        sets.push_back(target + " = " + first);
        break;
      case PartiqlSetValue::Kind::kPlus:
        sets.push_back(target + " = " + first + " + " + second);
        break;
      case PartiqlSetValue::Kind::kMinus:
        sets.push_back(target + " = " + first + " - " + second);
        break;
      case PartiqlSetValue::Kind::kListAppend:
        sets.push_back(target + " = list_append(" + first + ", " + second + ")");
        break;
      case PartiqlSetValue::Kind::kIfNotExists:
        sets.push_back(target + " = if_not_exists(" + first + ", " + second + ")");
        break;
      case PartiqlSetValue::Kind::kSetAdd:
      case PartiqlSetValue::Kind::kSetDelete: {
        // ADD and DELETE of an UpdateExpression change the set in place: the target must be the set read.
        const char* name = v.kind == PartiqlSetValue::Kind::kSetAdd ? "set_add" : "set_delete";
        if (!(v.first.path == item.path)) {
          return Status::Validation(std::string("Unsupported operation: ") + name +
                                    " must update the set it reads: " + PartiqlPathText(item.path));
        }
        (v.kind == PartiqlSetValue::Kind::kSetAdd ? adds : deletes).push_back(target + " " + second);
        break;
      }
    }
  }
  for (const DocumentPath& p : s.remove_paths) removes.push_back(Path(p));
  out->clear();
  auto clause = [&](const char* keyword, const std::vector<std::string>& items) {
    if (items.empty()) return;
    if (!out->empty()) *out += " ";
    *out += keyword;
    for (size_t i = 0; i < items.size(); i++) *out += (i ? ", " : " ") + items[i];
  };
  clause("SET", sets);
  clause("REMOVE", removes);
  clause("ADD", adds);
  clause("DELETE", deletes);
  return Status::OK();
}

ExpressionInputs PartiqlExpressionBuilder::TakeInputs() {
  ExpressionInputs inputs;
  if (!names_.empty()) inputs.names = std::move(names_);
  if (!values_.empty()) inputs.values = std::move(values_);
  names_.clear();
  name_of_.clear();
  values_.clear();
  return inputs;
}

namespace {

bool IsAttribute(const PartiqlOperand& o, const std::string& name) {
  return o.kind == PartiqlOperand::Kind::kPath && o.path.size() == 1 && !o.path[0].is_index && o.path[0].name == name;
}
bool IsValue(const PartiqlOperand& o) {
  return o.kind == PartiqlOperand::Kind::kLiteral || o.kind == PartiqlOperand::Kind::kParameter;
}
const AttributeValue& ValueOf(const PartiqlOperand& o, const std::vector<AttributeValue>& parameters) {
  return o.kind == PartiqlOperand::Kind::kParameter ? parameters[o.parameter] : o.value;
}
void AddUnique(const AttributeValue& v, std::vector<AttributeValue>* values) {
  if (std::find(values->begin(), values->end(), v) == values->end()) values->push_back(v);
}

// The parser bounds the depth of the tree, and so this recursion.
void Pins(const PartiqlCondition& c, const std::string& name, const std::vector<AttributeValue>& parameters,
          bool* pinned, std::vector<AttributeValue>* values) {
  using Kind = PartiqlCondition::Kind;
  *pinned = false;
  values->clear();
  switch (c.kind) {
    case Kind::kCompare:
      if (c.comparator != Comparator::kEq) return;
      for (int side = 0; side < 2; side++) {
        if (IsAttribute(c.operands[side], name) && IsValue(c.operands[1 - side])) {
          *pinned = true;
          values->push_back(ValueOf(c.operands[1 - side], parameters));
          return;
        }
      }
      return;
    case Kind::kIn:
      if (!IsAttribute(c.operands[0], name)) return;
      for (size_t i = 1; i < c.operands.size(); i++) {
        if (!IsValue(c.operands[i])) {
          values->clear();
          return;
        }
        AddUnique(ValueOf(c.operands[i], parameters), values);
      }
      *pinned = true;
      return;
    case Kind::kAnd: {
      bool any = false;
      for (const auto& child : c.children) {
        bool child_pinned;
        std::vector<AttributeValue> child_values;
        Pins(*child, name, parameters, &child_pinned, &child_values);
        if (!child_pinned) continue;
        if (!any) {
          *values = std::move(child_values);
          any = true;
          continue;
        }
        std::vector<AttributeValue> both;
        for (const AttributeValue& v : *values) {
          if (std::find(child_values.begin(), child_values.end(), v) != child_values.end()) both.push_back(v);
        }
        *values = std::move(both);
      }
      *pinned = any;
      return;
    }
    case Kind::kOr: {
      for (const auto& child : c.children) {
        bool child_pinned;
        std::vector<AttributeValue> child_values;
        Pins(*child, name, parameters, &child_pinned, &child_values);
        if (!child_pinned) {
          values->clear();
          return;
        }
        for (const AttributeValue& v : child_values) AddUnique(v, values);
      }
      *pinned = true;
      return;
    }
    default:
      return;
  }
}

}  // namespace

void KeyPins(const PartiqlCondition* where, const std::string& name, const std::vector<AttributeValue>& parameters,
             bool* pinned, std::vector<AttributeValue>* values) {
  *pinned = false;
  values->clear();
  if (where) Pins(*where, name, parameters, pinned, values);
}

// The parser bounds the depth of the tree, and so this recursion.
size_t MaxInCandidates(const PartiqlCondition* where, const std::string& name) {
  if (!where) return 0;
  size_t most = 0;
  if (where->kind == PartiqlCondition::Kind::kIn && IsAttribute(where->operands[0], name)) {
    most = where->operands.size() - 1;
  }
  for (const auto& child : where->children) most = std::max(most, MaxInCandidates(child.get(), name));
  return most;
}

bool IsPurePin(const PartiqlCondition& c, const std::string& name) {
  if (c.kind == PartiqlCondition::Kind::kCompare && c.comparator == Comparator::kEq) {
    return (IsAttribute(c.operands[0], name) && IsValue(c.operands[1])) ||
           (IsAttribute(c.operands[1], name) && IsValue(c.operands[0]));
  }
  if (c.kind == PartiqlCondition::Kind::kIn && IsAttribute(c.operands[0], name)) {
    for (size_t i = 1; i < c.operands.size(); i++) {
      if (!IsValue(c.operands[i])) return false;
    }
    return true;
  }
  if (c.kind == PartiqlCondition::Kind::kOr) {
    for (const auto& child : c.children) {
      if (!IsPurePin(*child, name)) return false;
    }
    return true;
  }
  return false;
}

std::vector<const PartiqlCondition*> Conjuncts(const PartiqlCondition* where) {
  std::vector<const PartiqlCondition*> out;
  if (!where) return out;
  if (where->kind != PartiqlCondition::Kind::kAnd) {
    out.push_back(where);
    return out;
  }
  for (const auto& child : where->children) out.push_back(child.get());
  return out;
}

std::string JoinConditions(PartiqlExpressionBuilder* b, const std::vector<const PartiqlCondition*>& parts,
                           Status* status) {
  std::string text;
  for (const PartiqlCondition* c : parts) {
    std::string one;
    Status s = b->Condition(*c, &one);
    if (!s.ok()) {
      *status = s;
      return "";
    }
    bool compound = c->kind == PartiqlCondition::Kind::kAnd || c->kind == PartiqlCondition::Kind::kOr;
    if (!text.empty()) text += " AND ";
    text += compound && parts.size() > 1 ? "(" + one + ")" : one;
  }
  return text;
}

}  // namespace dynapage
