#include "engine/expressions/attribute_updates.h"

#include "engine/base/messages.h"

namespace dynapage {

namespace {
}  // namespace

Status ConvertAttributeUpdates(const std::vector<AttributeUpdate>& updates, UpdateExpr* out) {
  UpdateExpr result;
  for (const AttributeUpdate& u : updates) {
    DocumentPath path{PathElement::Name(u.attribute)};
    const std::string action = u.action.empty() ? "PUT" : u.action;
    if (action == "DELETE") {
      if (!u.value) {
        result.remove_actions.push_back(std::move(path));
        continue;
      }
      if (!IsSetType(u.value->type)) {
        return Status::Validation(std::string(kInvalidParameterPrefix) +
                                  "DELETE action with value is not supported for the type " +
                                  AttrTypeName(u.value->type));
      }
      result.delete_actions.push_back(DeleteAction{std::move(path), *u.value});
      continue;
    }
    if (!u.value) {
      return Status::Validation(std::string(kInvalidParameterPrefix) +
                                "Only DELETE action is allowed when no attribute value is specified");
    }
    if (action == "ADD") {
      if (u.value->type == AttrType::kL) {
        // list_append(if_not_exists(a, []), value): appends, or creates the list.
        UpdateOperand current;
        current.kind = UpdateOperand::Kind::kPath;
        current.path = path;
        UpdateOperand empty;
        empty.value = AttributeValue::List({});
        UpdateOperand existing;
        existing.kind = UpdateOperand::Kind::kIfNotExists;
        existing.args = {current, empty};
        UpdateOperand added;
        added.value = *u.value;
        SetAction append;
        append.path = std::move(path);
        append.left.kind = UpdateOperand::Kind::kListAppend;
        append.left.args = {existing, added};
        result.set_actions.push_back(std::move(append));
        continue;
      }
      if (u.value->type != AttrType::kN && !IsSetType(u.value->type)) {
        return Status::Validation(std::string(kInvalidParameterPrefix) + "ADD action is not supported for the type " +
                                  AttrTypeName(u.value->type));
      }
      result.add_actions.push_back(AddAction{std::move(path), *u.value});
      continue;
    }
    SetAction set;
    set.path = std::move(path);
    set.left.kind = UpdateOperand::Kind::kValue;
    set.left.value = *u.value;
    result.set_actions.push_back(std::move(set));
  }
  *out = std::move(result);
  return Status::OK();
}

}  // namespace dynapage
