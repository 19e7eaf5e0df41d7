#include "engine/expressions/update_evaluator.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "engine/base/messages.h"
#include "engine/model/attribute_value_json.h"
#include "engine/model/document_path.h"
#include "engine/model/number.h"
#include "engine/model/value_compare.h"

namespace dynapage {

namespace {

const char kInvalidPath[] = "The document path provided in the update expression is invalid for update";
const char kMissingAttribute[] = "The provided expression refers to an attribute that does not exist in the item";
const char kWrongType[] = "An operand in the update expression has an incorrect data type";
const char kLegacyWrongType[] = "Type mismatch for attribute to update";

// ---- Values ----

Status Evaluate(const UpdateOperand& op, const AttributeMap& item, const char* wrong_type, AttributeValue* out) {
  switch (op.kind) {
    case UpdateOperand::Kind::kPath: {
      const AttributeValue* v = ResolvePath(item, op.path);
      if (v == nullptr) return Status::Validation(kMissingAttribute);
      *out = *v;
      return Status::OK();
    }
    case UpdateOperand::Kind::kValue:
      *out = op.value;
      return Status::OK();
    case UpdateOperand::Kind::kIfNotExists: {
      const AttributeValue* v = ResolvePath(item, op.args[0].path);
      if (v != nullptr) {
        *out = *v;
        return Status::OK();
      }
      return Evaluate(op.args[1], item, wrong_type, out);
    }
    case UpdateOperand::Kind::kListAppend: {
      AttributeValue first, second;
      DP_RETURN_IF_ERROR(Evaluate(op.args[0], item, wrong_type, &first));
      DP_RETURN_IF_ERROR(Evaluate(op.args[1], item, wrong_type, &second));
      if (first.type != AttrType::kL || second.type != AttrType::kL) return Status::Validation(wrong_type);
      for (AttributeValue& e : second.list) first.list.push_back(std::move(e));
      *out = std::move(first);
      return Status::OK();
    }
  }
  return Status::Internal("unknown update operand");
}

Status AddNumbers(const std::string& a, const std::string& b, bool subtract, std::string* out) {
  Decimal x, y, sum;
  DP_RETURN_IF_ERROR(Decimal::Parse(a, &x));
  DP_RETURN_IF_ERROR(Decimal::Parse(b, &y));
  DP_RETURN_IF_ERROR(subtract ? Decimal::Subtract(x, y, &sum) : Decimal::Add(x, y, &sum));
  *out = sum.ToString();
  return Status::OK();
}

Status EvaluateSet(const SetAction& action, const AttributeMap& item, const char* wrong_type, AttributeValue* out) {
  DP_RETURN_IF_ERROR(Evaluate(action.left, item, wrong_type, out));
  if (action.op == SetAction::Op::kAssign) return Status::OK();
  AttributeValue right;
  DP_RETURN_IF_ERROR(Evaluate(action.right, item, wrong_type, &right));
  if (out->type != AttrType::kN || right.type != AttrType::kN) return Status::Validation(wrong_type);
  std::string result;
  DP_RETURN_IF_ERROR(AddNumbers(out->scalar, right.scalar, action.op == SetAction::Op::kMinus, &result));
  *out = AttributeValue::Number(std::move(result));
  return Status::OK();
}

// ---- Places in the item ----

// The value at the first `depth` elements of path, or nullptr if a step is missing or walks into the wrong type.
AttributeValue* Walk(AttributeMap* item, const DocumentPath& path, size_t depth) {
  DocumentPath prefix(path.begin(), path.begin() + depth);
  // ResolvePath only reads; the item it points into is ours to change.
  return const_cast<AttributeValue*>(ResolvePath(*item, prefix));
}

// Where path's last element lives: the item itself for a top-level name, else the parent value, which must be a
// map (last element a name) or a list (last element an index).
struct Slot {
  AttributeMap* members = nullptr;                  // the map holding the last element, if it is a name
  std::vector<AttributeValue>* elements = nullptr;  // the list holding it, if it is an index
  const PathElement* last = nullptr;

  // The current value, or nullptr.
  AttributeValue* Get() const {
    if (members) {
      auto it = members->find(last->name);
      return it == members->end() ? nullptr : &it->second;
    }
    return last->index < elements->size() ? &(*elements)[last->index] : nullptr;
  }
  // Sets the value; an index past the end of a list appends.
  void Put(AttributeValue v) const {
    if (members) {
      (*members)[last->name] = std::move(v);
    } else if (last->index < elements->size()) {
      (*elements)[last->index] = std::move(v);
    } else {
      elements->push_back(std::move(v));
    }
  }
  void Erase() const {
    if (members) {
      members->erase(last->name);
    } else if (last->index < elements->size()) {
      elements->erase(elements->begin() + last->index);
    }
  }
};

Status FindSlot(AttributeMap* item, const DocumentPath& path, Slot* slot) {
  slot->last = &path.back();
  if (path.size() == 1) {
    slot->members = item;
    return Status::OK();
  }
  AttributeValue* parent = Walk(item, path, path.size() - 1);
  if (parent != nullptr && !slot->last->is_index && parent->type == AttrType::kM) {
    slot->members = &parent->map;
    return Status::OK();
  }
  if (parent != nullptr && slot->last->is_index && parent->type == AttrType::kL) {
    slot->elements = &parent->list;
    return Status::OK();
  }
  return Status::Validation(kInvalidPath);
}

// ---- ADD and DELETE ----

// The elements of b not in a, appended to a. REQUIRES: a and b are sets of one type.
void Unite(AttributeValue* a, const AttributeValue& b) {
  std::set<std::string> present(a->set.begin(), a->set.end());
  for (const std::string& e : b.set) {
    if (present.insert(e).second) a->set.push_back(e);
  }
  SortSetMembers(a->type, &a->set);
}

Status Add(const AddAction& action, const char* wrong_type, AttributeMap* item) {
  Slot slot;
  DP_RETURN_IF_ERROR(FindSlot(item, action.path, &slot));
  AttributeValue* current = slot.Get();
  if (current == nullptr) {
    slot.Put(action.value);
    return Status::OK();
  }
  if (current->type != action.value.type) return Status::Validation(wrong_type);
  if (current->type == AttrType::kN) {
    std::string sum;
    DP_RETURN_IF_ERROR(AddNumbers(current->scalar, action.value.scalar, false, &sum));
    current->scalar = std::move(sum);
    return Status::OK();
  }
  if (!IsSetType(current->type)) return Status::Validation(wrong_type);
  Unite(current, action.value);
  return Status::OK();
}

Status Delete(const DeleteAction& action, const char* wrong_type, AttributeMap* item) {
  Slot slot;
  DP_RETURN_IF_ERROR(FindSlot(item, action.path, &slot));
  AttributeValue* current = slot.Get();
  if (current == nullptr) return Status::OK();
  if (current->type != action.value.type || !IsSetType(current->type)) return Status::Validation(wrong_type);
  std::set<std::string> gone(action.value.set.begin(), action.value.set.end());
  auto& elements = current->set;
  elements.erase(std::remove_if(elements.begin(), elements.end(),
                                [&gone](const std::string& e) { return gone.count(e) > 0; }),
                 elements.end());
  if (elements.empty()) slot.Erase();  // DynamoDB has no empty sets
  return Status::OK();
}

// ---- REMOVE ----

// Orders paths so that removing along them in descending order never moves an element that a later (smaller)
// path designates: a removal only shifts later elements of its own list, and paths through those are larger.
bool PathLess(const DocumentPath& a, const DocumentPath& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; i++) {
    const PathElement& x = a[i];
    const PathElement& y = b[i];
    if (x.is_index != y.is_index) return x.is_index;  // a conflict, which the parser refuses
    if (x.is_index ? x.index != y.index : x.name != y.name) {
      return x.is_index ? x.index < y.index : x.name < y.name;
    }
  }
  return a.size() < b.size();
}

Status Remove(const std::vector<DocumentPath>& paths, AttributeMap* item) {
  std::vector<const DocumentPath*> order;
  for (const DocumentPath& p : paths) order.push_back(&p);
  std::sort(order.begin(), order.end(),
            [](const DocumentPath* a, const DocumentPath* b) { return PathLess(*b, *a); });
  for (const DocumentPath* p : order) {
    Slot slot;
    DP_RETURN_IF_ERROR(FindSlot(item, *p, &slot));
    slot.Erase();
  }
  return Status::OK();
}

// ---- Nesting ----

bool WithinNesting(const AttributeValue& v, int depth) {
  if (depth > kMaxNestingDepth) return false;
  if (v.type == AttrType::kL) {
    for (const AttributeValue& e : v.list) {
      if (!WithinNesting(e, depth + 1)) return false;
    }
  } else if (v.type == AttrType::kM) {
    for (const auto& [name, e] : v.map) {
      if (!WithinNesting(e, depth + 1)) return false;
    }
  }
  return true;
}

}  // namespace

Status ApplyUpdate(const UpdateExpr& update, UpdateDialect dialect, AttributeMap* item) {
  const char* wrong_type = dialect == UpdateDialect::kExpression ? kWrongType : kLegacyWrongType;
  std::vector<AttributeValue> values(update.set_actions.size());
  for (size_t i = 0; i < update.set_actions.size(); i++) {
    DP_RETURN_IF_ERROR(EvaluateSet(update.set_actions[i], *item, wrong_type, &values[i]));
  }
  // SET paths never overlap, so their order matters only where several append past a list's end: DynamoDB
  // appends those in index order (a[17] before a[37]), whatever the expression's order.
  std::vector<size_t> order(update.set_actions.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = i;
  if (order.size() > 1) {
    std::stable_sort(order.begin(), order.end(), [&update](size_t a, size_t b) {
      return PathLess(update.set_actions[a].path, update.set_actions[b].path);
    });
  }
  for (size_t i : order) {
    Slot slot;
    DP_RETURN_IF_ERROR(FindSlot(item, update.set_actions[i].path, &slot));
    slot.Put(std::move(values[i]));
  }
  for (const AddAction& action : update.add_actions) DP_RETURN_IF_ERROR(Add(action, wrong_type, item));
  for (const DeleteAction& action : update.delete_actions) DP_RETURN_IF_ERROR(Delete(action, wrong_type, item));
  DP_RETURN_IF_ERROR(Remove(update.remove_actions, item));
  for (const auto& [name, value] : *item) {
    if (!WithinNesting(value, 0)) return Status::Validation(kNestingTooDeep);
  }
  return Status::OK();
}

}  // namespace dynapage
