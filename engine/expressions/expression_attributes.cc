#include "engine/expressions/expression_attributes.h"

#include "engine/base/messages.h"

namespace dynapage {

namespace {

bool IsPlaceholderKey(const std::string& key, char sigil) {
  if (key.size() < 2 || key[0] != sigil) return false;
  for (size_t i = 1; i < key.size(); i++) {
    char c = key[i];
    bool ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (!ok) return false;
  }
  return true;
}

template <typename Map>
std::string UnusedKeys(const Map* map, const std::set<const std::string*>& used) {
  std::string keys;
  if (map == nullptr) return keys;
  for (const auto& entry : *map) {
    if (used.count(&entry.first)) continue;
    if (!keys.empty()) keys += ", ";
    keys += entry.first;
  }
  return keys;
}

}  // namespace

const std::string* ExpressionAttributes::ResolveName(std::string_view placeholder) {
  if (names_ == nullptr) return nullptr;
  auto it = names_->find(std::string(placeholder));
  if (it == names_->end()) return nullptr;
  used_names_.insert(&it->first);
  return &it->second;
}

const AttributeValue* ExpressionAttributes::ResolveValue(std::string_view placeholder) {
  if (values_ == nullptr) return nullptr;
  auto it = values_->find(std::string(placeholder));
  if (it == values_->end()) return nullptr;
  used_values_.insert(&it->first);
  return &it->second;
}

Status ExpressionAttributes::CheckAllUsed() const {
  std::string keys = UnusedKeys(names_, used_names_);
  if (!keys.empty()) {
    return Status::Validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {" + keys + "}");
  }
  keys = UnusedKeys(values_, used_values_);
  if (!keys.empty()) {
    return Status::Validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {" + keys +
                              "}");
  }
  return Status::OK();
}

Status ExpressionAttributes::ValidateNames(const ExpressionNameMap* names) {
  if (names == nullptr) return Status::OK();
  if (names->empty()) return Status::Validation("ExpressionAttributeNames must not be empty");
  for (const auto& [key, name] : *names) {
    if (!IsPlaceholderKey(key, '#')) {
      return Status::Validation("ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
    }
  }
  for (const auto& [key, name] : *names) {
    if (name.empty()) {
      return Status::Validation("ExpressionAttributeNames contains invalid value: Empty attribute name; key: " + key);
    }
  }
  return Status::OK();
}

Status ExpressionAttributes::ValidateValues(const ExpressionValueMap* values) {
  if (values == nullptr) return Status::OK();
  if (values->empty()) return Status::Validation("ExpressionAttributeValues must not be empty");
  for (const auto& entry : *values) {
    if (!IsPlaceholderKey(entry.first, ':')) {
      return Status::Validation("ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + entry.first +
                                "\"");
    }
  }
  return Status::OK();
}

std::string ExpressionAttributes::NamesWithoutExpressionsMessage() {
  return "ExpressionAttributeNames can only be specified when using expressions";
}

std::string ExpressionAttributes::ValuesWithoutExpressionsMessage(const std::vector<std::string>& null_expressions) {
  std::string msg = "ExpressionAttributeValues can only be specified when using expressions";
  if (null_expressions.empty()) return msg;
  msg += ": ";
  for (size_t i = 0; i < null_expressions.size(); i++) {
    if (i > 0) msg += " and ";
    msg += null_expressions[i];
  }
  msg += null_expressions.size() == 1 ? " is null" : " are null";
  return msg;
}

std::string ExpressionAttributes::MixedParametersMessage(const std::vector<std::string>& non_expression,
                                                         const std::vector<std::string>& expression) {
  auto join = [](const std::vector<std::string>& v) {
    std::string out = "{";
    for (size_t i = 0; i < v.size(); i++) out += (i ? ", " : "") + v[i];
    return out + "}";
  };
  return "Can not use both expression and non-expression parameters in the same request: Non-expression "
         "parameters: " + join(non_expression) + " Expression parameters: " + join(expression);
}

std::string ExpressionAttributes::InvalidValueMessage(const std::string& reason, const std::string& key) {
  return "ExpressionAttributeValues contains invalid value: " + reason + " for key " + key;
}

}  // namespace dynapage
