#include "engine/expressions/projection.h"

namespace dynapage {

Projection::Projection(const std::vector<DocumentPath>& paths) {
  for (const DocumentPath& path : paths) {
    if (path.empty() || path[0].is_index) continue;
    Node* node = &root_;
    for (const PathElement& e : path) {
      node = e.is_index ? &node->indexes[e.index] : &node->names[e.name];
    }
    node->whole = true;
  }
}

bool Projection::Select(const AttributeValue& value, const Node& node, AttributeValue* out) {
  if (node.whole) {
    *out = value;
    return true;
  }
  if (value.type == AttrType::kM && !node.names.empty()) {
    AttributeMap selected;
    for (const auto& [name, child] : node.names) {
      auto it = value.map.find(name);
      if (it == value.map.end()) continue;
      AttributeValue v;
      if (Select(it->second, child, &v)) selected.emplace(name, std::move(v));
    }
    if (selected.empty()) return false;
    *out = AttributeValue::Map(std::move(selected));
    return true;
  }
  if (value.type == AttrType::kL && !node.indexes.empty()) {
    std::vector<AttributeValue> selected;
    for (const auto& [index, child] : node.indexes) {  // ascending index order
      if (index >= value.list.size()) break;
      AttributeValue v;
      if (Select(value.list[index], child, &v)) selected.push_back(std::move(v));
    }
    if (selected.empty()) return false;
    *out = AttributeValue::List(std::move(selected));
    return true;
  }
  return false;
}

AttributeMap Projection::Apply(const AttributeMap& item) const {
  AttributeMap out;
  for (const auto& [name, child] : root_.names) {
    auto it = item.find(name);
    if (it == item.end()) continue;
    AttributeValue v;
    if (Select(it->second, child, &v)) out.emplace(name, std::move(v));
  }
  return out;
}

AttributeMap ProjectItem(const AttributeMap& item, const std::vector<DocumentPath>& paths) {
  return Projection(paths).Apply(item);
}

}  // namespace dynapage
